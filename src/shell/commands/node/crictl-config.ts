/**
 * crictl's configuration (cri-tools v1.35, cmd/crictl/main.go and config.go): the runtime endpoint
 * comes from `--runtime-endpoint`/`-r`, else from /etc/crictl.yaml's `runtime-endpoint`; without
 * one crictl warns and tries its default endpoints (containerd's socket first). The image endpoint
 * (`crictl images`) is `--image-endpoint`/`-i`, else the file's `image-endpoint`, else the runtime
 * endpoint. `crictl config --set key=value[,key=value]` and `crictl config key value` rewrite the
 * file with every option, as crictl's config command does (pkg/common/file.go WriteConfig).
 * On these nodes only containerd listens, at /run/containerd/containerd.sock (/var/run is a link to /run).
 */
import type { Host } from '../../../sim/node/host.js';
import { CONTAINERD_ENDPOINT, CONTAINERD_SOCKET, endpointSocket, runtimeDialError } from '../../../sim/node/runtime-health.js';

export const CRICTL_YAML = '/etc/crictl.yaml';
export { CONTAINERD_ENDPOINT };
const DEFAULT_ENDPOINTS = [CONTAINERD_ENDPOINT, 'unix:///run/crio/crio.sock', 'unix:///var/run/cri-dockerd.sock'];

/** The options crictl's config file holds, in the order `crictl config` writes them. */
const KEYS = ['runtime-endpoint', 'image-endpoint', 'timeout', 'debug', 'pull-image-on-create', 'disable-pull-on-run'] as const;
const DEFAULTS: Record<string, string> = { 'runtime-endpoint': '""', 'image-endpoint': '""', timeout: '0', debug: 'false', 'pull-image-on-create': 'false', 'disable-pull-on-run': 'false' };

/** The file's `key: value` pairs, values unquoted. */
export function readCrictlConfig(host: Host): Record<string, string> {
  const out: Record<string, string> = {};
  const text = host.fs.tryRead(CRICTL_YAML) ?? '';
  for (const line of text.split('\n')) {
    const m = /^([a-z-]+):\s*(.*?)\s*$/.exec(line.replace(/\s+#.*$/, ''));
    if (m) out[m[1]!] = m[2]!.replace(/^(["'])(.*)\1$/, '$2');
  }
  return out;
}

export interface Endpoints {
  runtime: string;
  image: string;
  /** crictl's warning when it falls back to its default endpoints. */
  warning: string;
}

/** Global flags crictl takes before the verb; returns the endpoints and the remaining arguments. */
export function resolveEndpoints(host: Host, argv: string[]): { endpoints: Endpoints; rest: string[] } {
  const flags: Record<string, string> = {};
  const rest: string[] = [];
  for (let i = 0; i < argv.length; i++) {
    const a = argv[i]!;
    const m = /^(--runtime-endpoint|-r|--image-endpoint|-i)(?:=(.*))?$/.exec(a);
    if (m && rest.length === 0) {
      const key = m[1] === '-r' || m[1] === '--runtime-endpoint' ? 'runtime-endpoint' : 'image-endpoint';
      flags[key] = m[2] ?? argv[++i] ?? '';
    } else if (a !== '--debug' && a !== '-D') rest.push(a);
  }
  const file = readCrictlConfig(host);
  const runtimeSet = flags['runtime-endpoint'] || file['runtime-endpoint'] || '';
  const imageSet = flags['image-endpoint'] || file['image-endpoint'] || '';
  let warning = '';
  if (!runtimeSet) warning += `WARN[0000] runtime connect using default endpoints: [${DEFAULT_ENDPOINTS.join(' ')}]. As the default settings are now deprecated, you should set the endpoint instead. \n`;
  const runtime = runtimeSet || CONTAINERD_ENDPOINT;
  return { endpoints: { runtime, image: imageSet || runtime, warning }, rest };
}

/** Whether anything listens at the endpoint: containerd's socket, while containerd runs. */
export function endpointUp(endpoint: string): boolean {
  return endpointSocket(endpoint) === CONTAINERD_SOCKET;
}

/** gRPC's dial error for an endpoint nothing listens on. */
export function dialError(api: 'runtime' | 'image', endpoint: string): string {
  return `validate service connection: validate CRI v1 ${api} API for endpoint "${endpoint}": ${runtimeDialError(endpoint)}`;
}

/** `crictl config …`: `--set k=v[,k=v]`, `k v`, `--get k`; returns an error text or the output. */
export function crictlConfig(host: Host, args: string[]): { stdout: string; error?: string } {
  const current = readCrictlConfig(host);
  const sets: [string, string][] = [];
  for (let i = 0; i < args.length; i++) {
    const a = args[i]!;
    if (a === '--get') {
      const k = args[++i] ?? '';
      return { stdout: `${current[k] ?? ''}\n` };
    }
    const set = a === '--set' ? args[++i] : a.startsWith('--set=') ? a.slice(6) : undefined;
    if (set !== undefined) {
      for (const kv of set.split(',')) {
        const eq = kv.indexOf('=');
        if (eq < 0) return { stdout: '', error: `incorrectly specified option: ${kv}` };
        sets.push([kv.slice(0, eq), kv.slice(eq + 1)]);
      }
    } else if (!a.startsWith('-')) {
      sets.push([a, args[++i] ?? '']);
    }
  }
  if (sets.length === 0) {
    return { stdout: KEYS.map((k) => `${k}: ${current[k] ?? DEFAULTS[k]!.replace(/"/g, '')}\n`).join('') };
  }
  for (const [k] of sets) if (!(KEYS as readonly string[]).includes(k)) return { stdout: '', error: `unable to find option "${k}"` };
  const next = { ...current };
  for (const [k, v] of sets) next[k] = v;
  const quote = (k: string, v: string | undefined): string => (k.endsWith('endpoint') ? `"${v ?? ''}"` : (v ?? DEFAULTS[k]!));
  host.fs.write(CRICTL_YAML, KEYS.map((k) => `${k}: ${quote(k, next[k])}\n`).join(''));
  return { stdout: '' };
}
