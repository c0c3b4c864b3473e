/**
 * `crictl` (cri-tools v1.35, cmd/crictl): `ps [-a] [-q] [--name RE]`, `pods [-q]`, `images`,
 * `logs [--tail N] ID`, `inspect ID`. Tables use crictl's display (text/tabwriter minwidth 20,
 * tabwidth 1, padding 3, ' ') with its columns: CONTAINER IMAGE CREATED STATE NAME ATTEMPT POD ID
 * POD NAMESPACE for ps, POD ID CREATED STATE NAME NAMESPACE ATTEMPT RUNTIME for pods. IDs are cut
 * to 13 characters (getTruncatedID); IMAGE is the truncated image id, as the kubelet records it;
 * CREATED is go-units HumanDuration + " ago". Rows are newest first.
 *
 * Containers come from the static pods runtime (src/sim/controllers/static-pods.ts: exited
 * control-plane containers and their logs) and from the pods the kubelet runs on this node.
 */
import type { CommandFn, CommandResult } from '../../types.js';
import type { Cluster } from '../../../sim/cluster.js';
import type { Host } from '../../../sim/node/host.js';
import type { Pod } from '../../../sim/api/types.js';
import { pulledImages, sandboxCreatedAt, staticPods } from '../../../sim/node/runtime.js';
import { tabwrite } from '../../printers/tabwriter.js';
import { hexFrom, isRoot, nodeEnv, notInstalled, unitsHumanDuration } from './host.js';
import { CRICTL_YAML, crictlConfig, dialError, endpointUp, resolveEndpoints } from './crictl-config.js';
import { LinearRegExp } from '../../../util/regex/index.js';
import { podLogs } from '../../../sim/runtime/logs/index.js';

export interface CriContainer {
  id: string;
  image: string;
  imageId: string;
  created: number;
  state: 'Running' | 'Exited' | 'Created';
  name: string;
  attempt: number;
  podId: string;
  pod: string;
  namespace: string;
  /** A static pod's lines; a kubelet-run container's come from its pod (`from`), read when asked. */
  logs: string[];
  from?: { pod: Pod; previous: boolean };
  exitCode?: number;
}

export interface CriSandbox {
  id: string;
  created: number;
  ready: boolean;
  name: string;
  namespace: string;
  uid: string;
  ip?: string;
}

const CRICTL_TAB = { minwidth: 20, tabwidth: 1, padding: 3, padchar: ' ' };

export function imageId(ref: string): string {
  return hexFrom(`image/${ref}`, 64);
}

/** A pod's sandbox ID; a reboot took the old sandboxes, and the kubelet made new ones. */
/** The lines of a kubelet-run container's log (the kubelet's /containerLogs text). */
function podLogLines(c: Cluster, pod: Pod, container: string, previous: boolean): string[] {
  const text = podLogs(c, pod, container, previous);
  return text === '' ? [] : text.replace(/\n$/, '').split('\n');
}

export function sandboxId(host: Host, ns: string, name: string, uid: string): string {
  const boot = host.data.state.reboots ? `/boot${host.data.state.reboots}` : '';
  return hexFrom(`sandbox/${host.name}/${ns}/${name}/${uid}${boot}`, 64);
}

/** Containers and sandboxes the runtime on this node knows about. */
export function runtimeState(c: Cluster, host: Host): { containers: CriContainer[]; sandboxes: CriSandbox[] } {
  const containers: CriContainer[] = [];
  const sandboxes: CriSandbox[] = [];
  for (const r of Object.values(staticPods(c)[host.name] ?? {})) {
    // a pod whose image does not pull has its sandbox and no container
    if (!r.name || (!r.containerId && !r.pull)) continue;
    const podName = `${r.name}-${host.name}`;
    const podId = sandboxId(host, r.namespace, podName, r.hash);
    sandboxes.push({ id: podId, created: r.since, ready: true, name: podName, namespace: r.namespace, uid: r.hash });
    if (!r.running && !r.exited) continue;
    containers.push({
      id: r.containerId,
      image: r.image,
      imageId: imageId(r.image),
      created: r.since,
      state: r.running ? 'Running' : 'Exited',
      name: r.name,
      attempt: r.restarts,
      podId,
      pod: podName,
      namespace: r.namespace,
      logs: r.logs,
      ...(r.running ? {} : { exitCode: 1 }),
    });
  }
  for (const p of c.store.list<Pod>('Pod')) {
    if (p.spec.nodeName !== host.name || p.metadata.annotations?.['kubernetes.io/config.mirror']) continue;
    const at = sandboxCreatedAt(c, p.metadata.uid ?? '');
    if (at === undefined) continue;
    const ns = p.metadata.namespace ?? 'default';
    const uid = p.metadata.uid ?? '';
    const podId = sandboxId(host, ns, p.metadata.name, uid);
    sandboxes.push({ id: podId, created: Number(at), ready: !p.metadata.deletionTimestamp, name: p.metadata.name, namespace: ns, uid, ...(p.status?.podIP ? { ip: p.status.podIP } : {}) });
    p.spec.containers.forEach((ct, i) => {
      const cs = p.status?.containerStatuses?.find((s) => s.name === ct.name) ?? p.status?.containerStatuses?.[i];
      if (!cs) return;
      const run = cs.state.running;
      const term = cs.state.terminated ?? cs.lastState?.terminated;
      const idOf = (x: string | undefined): string => (x ?? '').replace(/^containerd:\/\//, '');
      const base = { image: ct.image, imageId: imageId(ct.image), name: ct.name, podId, pod: p.metadata.name, namespace: ns, logs: [] as string[] };
      if (run && cs.containerID) containers.push({ ...base, id: idOf(cs.containerID), created: Date.parse(run.startedAt ?? '') || Number(at), state: 'Running', attempt: cs.restartCount, from: { pod: p, previous: false } });
      if (term && (term.containerID || cs.containerID) && !(run && idOf(term.containerID) === idOf(cs.containerID)))
        containers.push({
          ...base,
          id: idOf(term.containerID) || hexFrom(`ctr/${uid}/${ct.name}/${cs.restartCount}`, 64),
          created: Date.parse(term.startedAt ?? '') || Number(at),
          state: 'Exited',
          attempt: Math.max(0, cs.restartCount - (run ? 1 : 0)),
          exitCode: term.exitCode,
          // the terminated instance is the current one until the kubelet starts the next
          from: { pod: p, previous: !cs.state.terminated },
        });
    });
  }
  containers.sort((a, b) => b.created - a.created || a.name.localeCompare(b.name));
  sandboxes.sort((a, b) => b.created - a.created || a.name.localeCompare(b.name));
  return { containers, sandboxes };
}

function fatal(msg: string): CommandResult {
  return { stdout: '', stderr: `FATA[0000] ${msg}\n`, exitCode: 1 };
}

function table(rows: string[][]): string {
  return tabwrite(rows.map((r) => `${r.join('\t')}\n`).join(''), CRICTL_TAB);
}

function find(list: { id: string }[], prefix: string): { id: string } | undefined | 'ambiguous' {
  const hits = list.filter((x) => x.id.startsWith(prefix));
  if (hits.length > 1 && !hits.some((h) => h.id === prefix)) return 'ambiguous';
  return hits.find((h) => h.id === prefix) ?? hits[0];
}

export const crictl: CommandFn = (ctx) => {
  const env = nodeEnv(ctx);
  if (!env) return notInstalled(ctx);
  const { endpoints, rest: args } = resolveEndpoints(env.host, ctx.argv.slice(1));
  const verb = args.shift();
  if (!verb || verb === '--help' || verb === '-h' || verb === 'help')
    return { stdout: 'NAME:\n   crictl - client for CRI\n\nUSAGE:\n   crictl [global options] command [command options]\n\nCOMMANDS:\n   config              Get and set crictl client configuration options\n   images, image, img  List images\n   inspect             Display the status of one or more containers\n   logs                Fetch the logs of a container\n   pods                List pods\n   ps                  List containers\n', stderr: '', exitCode: 0 };
  if (verb === 'config') {
    if (!isRoot(ctx) && args.some((a) => !a.startsWith('--get'))) return fatal(`open ${CRICTL_YAML}: permission denied`);
    const r = crictlConfig(env.host, args);
    return r.error ? fatal(r.error) : { stdout: r.stdout, stderr: '', exitCode: 0 };
  }
  const warned = (res: CommandResult): CommandResult => ({ ...res, stderr: endpoints.warning + res.stderr });
  if (!isRoot(ctx))
    return warned(fatal(`validate service connection: validate CRI v1 runtime API for endpoint "${endpoints.runtime}": rpc error: code = Unavailable desc = connection error: desc = "transport: Error while dialing: dial unix ${endpoints.runtime.replace(/^unix:\/\//, '')}: connect: permission denied"`));
  if (!endpointUp(endpoints.runtime)) return warned(fatal(dialError('runtime', endpoints.runtime)));
  if (['images', 'image', 'img'].includes(verb) && !endpointUp(endpoints.image)) return warned(fatal(dialError('image', endpoints.image)));
  // a stopped containerd removed its socket; `images` dials only the image service (image.go getImageService)
  if (!env.host.unitActive('containerd')) return warned(fatal(['images', 'image', 'img'].includes(verb) ? dialError('image', endpoints.image) : dialError('runtime', endpoints.runtime)));
  return warned(run(ctx, env, verb, args));
};

function run(ctx: Parameters<CommandFn>[0], env: NonNullable<ReturnType<typeof nodeEnv>>, verb: string, args: string[]): CommandResult {
  const now = ctx.now();
  const st = runtimeState(env.cluster, env.host);
  const ago = (t: number): string => `${unitsHumanDuration(now - t)} ago`;
  switch (verb) {
    case 'ps': {
      let all = false;
      let quiet = false;
      let name: RegExp | undefined;
      let state: string | undefined;
      for (let i = 0; i < args.length; i++) {
        const a = args[i]!;
        if (a === '-a' || a === '--all') all = true;
        else if (a === '-q' || a === '--quiet') quiet = true;
        else if (a === '-aq' || a === '-qa') all = quiet = true;
        else if (a === '--name') name = new LinearRegExp(args[++i] ?? '', '', 're2');
        else if (a.startsWith('--name=')) name = new LinearRegExp(a.slice(7), '', 're2');
        else if (a === '--state' || a === '-s') state = (args[++i] ?? '').toLowerCase();
        else return fatal(`flag provided but not defined: ${a.replace(/=.*/, '')}`);
      }
      let list = st.containers.filter((x) => (state ? x.state.toLowerCase() === state : all || x.state === 'Running'));
      if (name) list = list.filter((x) => name!.test(x.name));
      if (quiet) return { stdout: list.map((x) => `${x.id}\n`).join(''), stderr: '', exitCode: 0 };
      const rows = [['CONTAINER', 'IMAGE', 'CREATED', 'STATE', 'NAME', 'ATTEMPT', 'POD ID', 'POD', 'NAMESPACE']];
      for (const x of list) rows.push([x.id.slice(0, 13), x.imageId.slice(0, 13), ago(x.created), x.state, x.name, String(x.attempt), x.podId.slice(0, 13), x.pod, x.namespace]);
      return { stdout: table(rows), stderr: '', exitCode: 0 };
    }
    case 'pods': {
      const quiet = args.includes('-q') || args.includes('--quiet');
      if (quiet) return { stdout: st.sandboxes.map((x) => `${x.id}\n`).join(''), stderr: '', exitCode: 0 };
      const rows = [['POD ID', 'CREATED', 'STATE', 'NAME', 'NAMESPACE', 'ATTEMPT', 'RUNTIME']];
      for (const x of st.sandboxes) rows.push([x.id.slice(0, 13), ago(x.created), x.ready ? 'Ready' : 'NotReady', x.name, x.namespace, '0', '(default)']);
      return { stdout: table(rows), stderr: '', exitCode: 0 };
    }
    case 'images':
    case 'image':
    case 'img': {
      const refs = [...new Set([...st.containers.map((x) => x.image), 'registry.k8s.io/pause:3.10.1', ...pulledImages(env.host)])].sort();
      const rows = [['IMAGE', 'TAG', 'IMAGE ID', 'SIZE']];
      for (const ref of refs) {
        const at = ref.lastIndexOf(':');
        const [repo, tag] = at > ref.lastIndexOf('/') ? [ref.slice(0, at), ref.slice(at + 1)] : [ref, 'latest'];
        rows.push([repo.includes('/') ? repo : `docker.io/library/${repo}`, tag, imageId(ref).slice(0, 13), humanSize(imageSize(repo))]);
      }
      return { stdout: table(rows), stderr: '', exitCode: 0 };
    }
    case 'logs': {
      let tail: number | undefined;
      let id: string | undefined;
      for (let i = 0; i < args.length; i++) {
        const a = args[i]!;
        if (a === '--tail') tail = Number(args[++i]);
        else if (a.startsWith('--tail=')) tail = Number(a.slice(7));
        else if (a === '-f' || a === '--follow' || a === '-t' || a === '--timestamps') continue;
        else id = a;
      }
      if (!id) return fatal('ID cannot be empty');
      const c = find(st.containers, id);
      if (c === 'ambiguous') return fatal(`failed to get container status: rpc error: code = NotFound desc = an error occurred when try to find container "${id}": ambiguous ID`);
      if (!c) return fatal(`rpc error: code = NotFound desc = an error occurred when try to find container "${id}": not found`);
      const cc = c as CriContainer;
      let lines = cc.from ? podLogLines(env.cluster, cc.from.pod, cc.name, cc.from.previous) : cc.logs;
      if (tail !== undefined && tail >= 0) lines = lines.slice(-tail || lines.length);
      if (tail === 0) lines = [];
      // crictl logs replays both streams: the components' klog lines were written to stderr, a
      // container program's lines to stdout
      const text = lines.map((l) => `${l}\n`).join('');
      const stderr = !cc.from || lines.every((l) => /^[IWEF]\d{4} \d\d:\d\d:\d\d\.\d{6} /.test(l));
      return { stdout: stderr ? '' : text, stderr: stderr ? text : '', exitCode: 0 };
    }
    case 'inspect': {
      const id = args.find((a) => !a.startsWith('-'));
      if (!id) return fatal('ID cannot be empty');
      const c = find(st.containers, id);
      if (!c || c === 'ambiguous') return fatal(`getting the status of the container "${id}": get container status: rpc error: code = NotFound desc = an error occurred when try to find container "${id}": not found`);
      return { stdout: `${JSON.stringify(inspectJson(c as CriContainer), null, 2)}\n`, stderr: '', exitCode: 0 };
    }
    default:
      return { stdout: '', stderr: `No help topic for '${verb}'\n`, exitCode: 3 };
  }
}

/** Approximate compressed sizes of the images a kubeadm node pulls; others get a stable size in 10-99 MB. */
const IMAGE_SIZES: Record<string, number> = {
  'registry.k8s.io/pause': 320_368,
  'registry.k8s.io/etcd': 22_868_000,
  'registry.k8s.io/kube-apiserver': 27_350_000,
  'registry.k8s.io/kube-controller-manager': 24_990_000,
  'registry.k8s.io/kube-scheduler': 19_320_000,
  'registry.k8s.io/kube-proxy': 26_170_000,
  'registry.k8s.io/coredns/coredns': 22_380_000,
  'docker.io/calico/node': 159_200_000,
  'docker.io/calico/cni': 94_500_000,
  'docker.io/calico/kube-controllers': 35_500_000,
};

export function imageSize(repo: string): number {
  return IMAGE_SIZES[repo] ?? 10_000_000 + (parseInt(imageId(repo).slice(0, 6), 16) % 90_000_000);
}

/** go-units HumanSizeWithPrecision(size, 3): decimal units, 3 significant digits ("320kB", "27.4MB", "159MB"). */
export function humanSize(bytes: number): string {
  const units = ['B', 'kB', 'MB', 'GB', 'TB'];
  let v = bytes;
  let i = 0;
  while (v >= 1000 && i < units.length - 1) {
    v /= 1000;
    i++;
  }
  return `${Number(v.toPrecision(3))}${units[i]}`;
}

function inspectJson(c: CriContainer): unknown {
  const iso = (t: number): string => new Date(t).toISOString().replace(/\.\d{3}Z$/, '.000000000Z');
  return {
    status: {
      id: c.id,
      metadata: { attempt: c.attempt, name: c.name },
      state: `CONTAINER_${c.state.toUpperCase()}`,
      createdAt: iso(c.created),
      startedAt: iso(c.created),
      finishedAt: c.state === 'Exited' ? iso(c.created) : '0001-01-01T00:00:00Z',
      exitCode: c.exitCode ?? 0,
      image: { annotations: {}, image: c.image, runtimeHandler: '', userSpecifiedImage: '' },
      imageRef: `sha256:${c.imageId}`,
      reason: c.state === 'Exited' ? 'Error' : '',
      message: '',
      labels: {
        'io.kubernetes.container.name': c.name,
        'io.kubernetes.pod.name': c.pod,
        'io.kubernetes.pod.namespace': c.namespace,
      },
      logPath: `/var/log/pods/${c.namespace}_${c.pod}_${c.podId.slice(0, 32)}/${c.name}/${c.attempt}.log`,
    },
    info: { sandboxID: c.podId, pid: c.state === 'Running' ? 1000 + (parseInt(c.id.slice(0, 4), 16) % 9000) : 0 },
  };
}
