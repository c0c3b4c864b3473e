/**
 * The pod commands a container's own script runs (sim/runtime/net-tools.ts): the same busybox
 * wget, nc and nslookup (and curl) that `kubectl exec POD -- wget …` runs, from the same place
 * (the pod's network, its resolv.conf and /etc/hosts), so a helm test pod's `wget NAME:PORT` meets
 * the same Service, DNS and NetworkPolicy as a learner's. What the tool writes (wget's
 * index.html) is returned, not written: the runtime writes it at the script's time. What `why`
 * recorded for the learner's last command is kept.
 */
import type { Cluster } from '../../../sim/cluster.js';
import type { Pod } from '../../../sim/api/types.js';
import type { Vfs } from '../../../sim/node/vfs.js';
import { resolvePath } from '../../../sim/node/vfs.js';
import type { NetToolCall, NetToolPlace, NetTools } from '../../../sim/runtime/net-tools.js';
import type { NetResult } from '../../../sim/runtime/script.js';
import { containerFs } from '../../../sim/runtime/volumes.js';
import type { CommandContext, CommandFn } from '../../types.js';
import { curl } from './curl.js';
import { nc } from './nc.js';
import { nslookup } from './nslookup.js';
import { wget } from './wget.js';

const TOOLS: Record<string, CommandFn> = { curl, nc, nslookup, wget };

/**
 * The container's files as the script sees them (its own earlier writes included), with writes
 * collected instead of made.
 */
export function scriptFs(base: Vfs, call: Pick<NetToolCall, 'readFile'>, written: [string, string][]): Vfs {
  const read = (p: string): string | undefined => call.readFile(resolvePath('/', p));
  const overrides: Partial<Record<keyof Vfs, unknown>> = {
    tryRead: read,
    read: (p: string) => read(p) ?? base.read(p),
    exists: (p: string) => read(p) !== undefined || base.exists(p),
    isFile: (p: string) => read(p) !== undefined || base.isFile(p),
    write: (p: string, content: string) => void written.push([resolvePath('/', p), content]),
    append: (p: string, content: string) => void written.push([resolvePath('/', p), (read(p) ?? '') + content]),
  };
  return new Proxy(base, {
    get(target, prop, receiver) {
      if (typeof prop === 'string' && prop in overrides) return overrides[prop as keyof Vfs];
      const v: unknown = Reflect.get(target, prop, receiver);
      return typeof v === 'function' ? (v as (...a: unknown[]) => unknown).bind(target) : v;
    },
  });
}

export const SCRIPT_NET_TOOLS: NetTools = {
  names: Object.keys(TOOLS),
  run(c: Cluster, place: NetToolPlace, call: NetToolCall): NetResult | undefined {
    const fn = TOOLS[call.argv[0] ?? ''];
    const pod = c.store.get<Pod>('Pod', place.namespace, place.pod);
    if (!fn || !pod) return undefined;
    const files: [string, string][] = [];
    const ctx: CommandContext = {
      argv: call.argv,
      stdin: call.stdin,
      env: {},
      cwd: call.cwd,
      user: 'root',
      fs: scriptFs(containerFs(c, pod, place.container), call, files),
      location: { kind: 'pod', namespace: place.namespace, pod: place.pod, container: place.container },
      now: () => c.now(),
      cluster: c,
    };
    const why = c.state['traffic.why'];
    const r = fn(ctx);
    if (why === undefined) delete c.state['traffic.why'];
    else c.state['traffic.why'] = why;
    if (r instanceof Promise) return undefined;
    const elapsedMs = (r as { advanceMs?: number }).advanceMs ?? 0;
    return { stdout: r.stdout, stderr: r.stderr, exitCode: r.exitCode, elapsedMs, files };
  },
};
