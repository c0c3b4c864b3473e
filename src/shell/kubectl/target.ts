/**
 * What the mutating verbs share: the namespace a command works in (-n, else the kubeconfig
 * context's namespace, else `default`), resolving `TYPE NAME…` / `TYPE/NAME` arguments through
 * the resource registry as kubectl resolves them through discovery (cli-runtime resource
 * builder.go), and the "you must provide resources" help text (kubectl cmd/util/helpers.go).
 */
import { resolveResource, type ResourceInfo } from '../../sim/api/registry.js';
import type { KubectlEnv } from './context.js';
import { KubectlError } from './errors.js';
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

export function resolveType(arg: string): ResourceInfo {
  const info = resolveResource(arg);
  if (!info) throw new KubectlError(`the server doesn't have a resource type "${arg}"`);
  return info;
}

export interface Target {
  info: ResourceInfo;
  name: string;
}

/** `deploy web api`, `deploy/web svc/web`: the (type, name) pairs; an empty name list = a type only. */
export function parseTargets(args: readonly string[]): { targets: Target[]; typesOnly: ResourceInfo[] } {
  if (args.length === 0) return { targets: [], typesOnly: [] };
  if (args.some((a) => a.includes('/'))) {
    const targets = args.map((a) => {
      const slash = a.indexOf('/');
      if (slash < 0) throw new KubectlError(`there is no need to specify a resource type as a separate argument when passing arguments in resource/name form (e.g. 'kubectl get resource/<resource_name>' instead of 'kubectl get resource resource/<resource_name>'`);
      return { info: resolveType(a.slice(0, slash)), name: a.slice(slash + 1) };
    });
    return { targets, typesOnly: [] };
  }
  const types = args[0]!.split(',').map(resolveType);
  const names = args.slice(1);
  if (names.length === 0) return { targets: [], typesOnly: types };
  return { targets: types.flatMap((info) => names.map((name) => ({ info, name }))), typesOnly: [] };
}

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
