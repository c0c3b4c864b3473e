/**
 * Running one `create <generator>` subcommand: cobra's flag parsing and required-flag check,
 * NAME from the arguments (`exactly one NAME is required, got N`), --dry-run and -o handling,
 * then the API call with the generator's error prefix (k8s.io/kubectl pkg/cmd/create/*.go
 * Complete/Validate/Run).
 */
import { ApiError } from '../../../../sim/api/errors.js';
import type { KObject } from '../../../../sim/api/types.js';
import type { CommandResult } from '../../../types.js';
import type { KubectlEnv } from '../../context.js';
import { klogWarning, parseDryRun } from '../../dry-run.js';
import { errorResult, KubectlError, seeHelp } from '../../errors.js';
import { bool, str, type Parsed, checkRequired } from '../../flags.js';
import { checkOutput, printObject, withTemplateFlag } from '../../printobj.js';
import { resolvePath } from '../../../../sim/node/vfs.js';
import { namespaceOf } from '../../target.js';
import { Streams } from '../../streams.js';
import { lastAppliedAnnotate } from '../../last-applied.js';
import type { Generator } from './types.js';
import { validationDirective, warningLines } from '../../validate.js';


export async function runGenerator(gen: Generator, p: Parsed, env: KubectlEnv): Promise<CommandResult> {
  checkRequired(p, gen.required ?? []);
  const dry = parseDryRun(p.flags);
  const output = withTemplateFlag(str(p.flags, 'output'), str(p.flags, 'template'));
  checkOutput(output);
  if (p.args.length !== 1) throw new KubectlError(`exactly one NAME is required, got ${p.args.length}`, seeHelp(gen.path));
  const ns = namespaceOf(env, p);
  const warnings: string[] = [];
  const obj = gen.build({ env, name: p.args[0]!, ns, p, warnings });
  let stderr = dry.warning ? klogWarning(env.cluster.now(), dry.warning) : '';
  stderr += warnings.join('');
  if (bool(p.flags, 'save-config')) lastAppliedAnnotate(obj);
  let shown: KObject = obj;
  if (dry.mode !== 'client') {
    const toSend = structuredClone(obj);
    if (!toSend.metadata.namespace) toSend.metadata.namespace = ns.name;
    const serverWarnings: string[] = [];
    try {
      shown = env.api.create(toSend, { dryRun: dry.mode === 'server', fieldValidation: validationDirective(p.flags), warnings: serverWarnings });
      stderr += warningLines(env, serverWarnings);
    } catch (e) {
      stderr += warningLines(env, serverWarnings);
      if (e instanceof ApiError && gen.errorPrefix !== undefined) return { stdout: '', stderr: `${stderr}error: ${gen.errorPrefix}${e.message}\n`, exitCode: 1 };
      const r = errorResult(e, gen.path);
      return { ...r, stderr: stderr + r.stderr };
    }
  }
  const readFile = (f: string): string | undefined => env.fs.tryRead(resolvePath(env.cwd, f));
  try {
    const stdout = printObject(shown, { output, operation: 'created', dryRun: dry.mode, generated: dry.mode === 'client', allowMissingKeys: p.flags['allow-missing-template-keys'] !== false, readFile });
    // the warnings were written before the printer ran
    const io = new Streams();
    io.err(stderr);
    io.out(stdout);
    return io.result(0);
  } catch (e) {
    const r = errorResult(e, gen.path);
    return { ...r, stderr: stderr + r.stderr };
  }
}
