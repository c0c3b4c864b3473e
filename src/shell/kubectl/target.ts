/**
 * What the mutating verbs share: the namespace a command works in (-n, else the kubeconfig
 * context's namespace, else `default`), their targets from the one resource builder
 * (resource-args.ts), and the "you must provide resources" help text (kubectl cmd/util/helpers.go).
 */
import type { KubectlEnv } from './context.js';
import { str, type Parsed } from './flags.js';
import { effectiveNamespace } from './kubeconfig.js';

export interface Namespace {
  name: string;
  /** -n was given: client-generated objects then carry `metadata.namespace`. */
  explicit: boolean;
}

export function namespaceOf(env: KubectlEnv, p: Parsed, global: Parsed = p): Namespace {
  const flag = str(p.flags, 'namespace') ?? str(global.flags, 'namespace');
  const kubeconfig = str(p.flags, 'kubeconfig') ?? str(global.flags, 'kubeconfig');
  const context = str(p.flags, 'context') ?? str(global.flags, 'context');
  return { name: effectiveNamespace(env.fs, env.env, flag, kubeconfig, context), explicit: flag !== undefined && flag !== '' };
}

export { parseTargets, resolveType, type Target } from './resource-args.js';

export const PROVIDE_RESOURCES =
  "You must provide one or more resources by argument or filename.\nExample resource specifications include:\n   '-f rsrc.yaml'\n   '--filename=rsrc.json'\n   '<resource> <name>'\n   '<resource>'";

/** The first positional argument, skipping values of flags that take one (cobra's subcommand lookup). */
export function firstPositional(argv: readonly string[], valueFlags: ReadonlySet<string>): number {
  for (let i = 0; i < argv.length; i++) {
    const a = argv[i]!;
    if (a === '--') return -1;
    if (!a.startsWith('-') || a === '-') return i;
    if (!a.includes('=') && valueFlags.has(a)) i++;
  }
  return -1;
}
