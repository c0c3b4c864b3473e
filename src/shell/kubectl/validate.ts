/**
 * `--validate` → the `fieldValidation` directive kubectl sends with every write
 * (k8s.io/kubectl pkg/cmd/util/helpers.go GetValidationDirective), and the server warnings that
 * come back, printed once each as client-go's warning writer does (`Warning: unknown field …`).
 */
import type { FieldValidation } from '../../sim/api/decode.js';
import type { KubectlEnv } from './context.js';
import { KubectlError } from './errors.js';
import { str, type Parsed } from './flags.js';

const TRUE = ['1', 't', 'T', 'TRUE', 'true', 'True'];
const FALSE = ['0', 'f', 'F', 'FALSE', 'false', 'False'];

/** strconv.ParseBool first; then strict / warn / ignore. */
export function validationDirective(flags: Parsed['flags']): FieldValidation {
  const v = str(flags, 'validate') ?? 'strict';
  if (TRUE.includes(v)) return 'Strict';
  if (FALSE.includes(v)) return 'Ignore';
  if (v === 'strict') return 'Strict';
  if (v === 'warn') return 'Warn';
  if (v === 'ignore') return 'Ignore';
  throw new KubectlError(`invalid - validate option ${JSON.stringify(v)}; must be one of: strict (or true), warn, ignore (or false)`);
}

/** `Warning: <text>` lines for the server's warnings not yet shown in this command. */
export function warningLines(env: KubectlEnv, warnings: readonly string[]): string {
  const seen = (env.warnings ??= new Set<string>());
  let out = '';
  for (const w of warnings) {
    if (seen.has(w)) continue;
    seen.add(w);
    out += `Warning: ${w}\n`;
  }
  return out;
}
