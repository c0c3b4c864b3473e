/**
 * `kubectl port-forward TYPE/NAME [LOCAL:]REMOTE…` (k8s.io/kubectl pkg/cmd/portforward/portforward.go,
 * client-go tools/portforward/portforward.go): pick the pod (a Service's or controller's first pod,
 * polymorphichelpers AttachablePodForObjectFn), translate a Service port to its target port or a
 * named port to its number, require the pod to run, authorize `create pods/portforward`, then
 * listen on each local port at each address (`localhost` is 127.0.0.1 and ::1; `:5000` takes a
 * random local port) and print `Forwarding from 127.0.0.1:8080 -> 80` per listener.
 *
 * kubectl then serves until Ctrl-C. As a background job (`… &`) the listeners stay open on the
 * host where kubectl ran (sim/node/user-sockets.ts) and `curl localhost:8080` reaches the pod
 * (sim/traffic/path.ts) until the job ends (shell/jobs.ts, background-output.ts). In the
 * foreground this terminal cannot wait for Ctrl-C, so the command says so and ends.
 * Texts from the kubectl v1.35.2 binary.
 */
import type { Pod, Service } from '../../../sim/api/types.js';
import { ApiError } from '../../../sim/api/errors.js';
import { bindSocket, collides, userSockets } from '../../../sim/node/user-sockets.js';
import type { ShellResult } from '../../commands/types.js';
import { nodeSockets } from '../../commands/node/sockets.js';
import type { KubectlEnv, Verb } from '../context.js';
import { KubectlError, seeHelp } from '../errors.js';
import { list } from '../flags.js';
import { namespaceOf } from '../target.js';
import { podOfTarget } from '../attachable.js';
import { resolveTypes } from '../resource-args.js';

interface Forward {
  local: number;
  remote: number;
}

/** splitPort: `[LOCAL:]REMOTE`. */
function splitPort(port: string): { local: string; remote: string } {
  const parts = port.split(':');
  return parts.length === 2 ? { local: parts[0]!, remote: parts[1]! } : { local: parts[0]!, remote: parts[0]! };
}

function containerPortByName(pod: Pod, name: string): number {
  for (const c of pod.spec.containers) for (const p of c.ports ?? []) if (p.name === name) return p.containerPort;
  throw new KubectlError(`Pod '${pod.metadata.name}' does not have a named port '${name}'`);
}

/** translateServicePortToTargetPort: the Service port (by number or name) → the pod's port. */
function translateServicePort(ports: string[], svc: Service, pod: Pod): string[] {
  return ports.map((port) => {
    let { local, remote } = splitPort(port);
    let num = /^\d+$/.test(remote) ? Number(remote) : NaN;
    if (Number.isNaN(num)) {
      const named = (svc.spec.ports ?? []).find((p) => p.name === remote);
      if (!named) throw new KubectlError(`Service '${svc.metadata.name}' does not have a named port '${remote}'`);
      num = named.port;
      if (local === remote) local = String(num);
    }
    const sp = (svc.spec.ports ?? []).find((p) => p.port === num);
    if (!sp) throw new KubectlError(`Service ${svc.metadata.name} does not have a service port ${num}`);
    const tp = sp.targetPort;
    const target = tp === undefined || tp === 0 || tp === '' ? num : typeof tp === 'number' ? tp : /^\d+$/.test(tp) ? Number(tp) : containerPortByName(pod, tp);
    remote = String(target);
    return local !== remote ? `${local}:${remote}` : remote;
  });
}

/** convertPodNamedPortToNumber. */
function convertNamedPorts(ports: string[], pod: Pod): string[] {
  return ports.map((port) => {
    const { local, remote } = splitPort(port);
    if (remote === '') throw new KubectlError('remote port cannot be empty');
    const num = /^\d+$/.test(remote) ? remote : String(containerPortByName(pod, remote));
    return local !== remote ? `${local}:${num}` : num;
  });
}

/** checkUDPPorts: a port only UDP serves cannot be forwarded. */
function checkUdp(ports: string[], udpOnly: Set<number>, byName: (name: string) => number): void {
  for (const port of ports) {
    const { remote } = splitPort(port);
    const n = /^\d+$/.test(remote) ? Number(remote) : byName(remote);
    if (udpOnly.has(n)) throw new KubectlError(`UDP protocol is not supported for ${remote}`);
  }
}

function udpOnly(entries: { port: number; protocol: string | undefined }[]): Set<number> {
  const udp = new Set(entries.filter((e) => e.protocol === 'UDP').map((e) => e.port));
  for (const e of entries) if ((e.protocol ?? 'TCP') === 'TCP') udp.delete(e.port);
  return udp;
}

/** Go's strconv.ParseUint(s, 10, 16) errors. */
function parseUint16(s: string): number | string {
  if (!/^\d+$/.test(s)) return `strconv.ParseUint: parsing ${JSON.stringify(s)}: invalid syntax`;
  const n = Number(s);
  return n > 65535 ? `strconv.ParseUint: parsing ${JSON.stringify(s)}: value out of range` : n;
}

/** parsePorts (client-go). */
function parsePorts(ports: string[]): Forward[] {
  return ports.map((p) => {
    const parts = p.split(':');
    let local: string;
    let remote: string;
    if (parts.length === 1) local = remote = parts[0]!;
    else if (parts.length === 2) {
      local = parts[0] === '' ? '0' : parts[0]!;
      remote = parts[1]!;
    } else throw new KubectlError(`invalid port format '${p}'`);
    const l = parseUint16(local);
    if (typeof l === 'string') throw new KubectlError(`error parsing local port '${local}': ${l}`);
    const r = parseUint16(remote);
    if (typeof r === 'string') throw new KubectlError(`error parsing remote port '${remote}': ${r}`);
    if (r === 0) throw new KubectlError('remote port must be > 0');
    return { local: l, remote: r };
  });
}

interface ListenAddress {
  address: string;
  family: 4 | 6;
  /** `all`: localhost's pair, fine while one of them binds; `any`: an explicit address must bind. */
  failureMode: 'all' | 'any';
}

/** parseAddresses: localhost → 127.0.0.1 and ::1; sorted for a stable order. */
function parseAddresses(addresses: string[]): ListenAddress[] {
  const parsed = new Map<string, ListenAddress>();
  for (const a of addresses) {
    if (a === 'localhost') {
      if (!parsed.has('127.0.0.1')) parsed.set('127.0.0.1', { address: '127.0.0.1', family: 4, failureMode: 'all' });
      if (!parsed.has('::1')) parsed.set('::1', { address: '::1', family: 6, failureMode: 'all' });
    } else if (/^(\d{1,3})(\.\d{1,3}){3}$/.test(a) && a.split('.').every((o) => Number(o) <= 255)) parsed.set(a, { address: a, family: 4, failureMode: 'any' });
    else if (/^[0-9a-fA-F:]+$/.test(a) && a.includes(':')) parsed.set(a, { address: a, family: 6, failureMode: 'any' });
    else throw new KubectlError(`${a} is not a valid IP`);
  }
  return [...parsed.values()].sort((x, y) => (x.address < y.address ? -1 : x.address > y.address ? 1 : 0));
}

/** net.JoinHostPort. */
function joinHostPort(host: string, port: number): string {
  return host.includes(':') ? `[${host}]:${port}` : `${host}:${port}`;
}

/** The pod to forward to, and the ports translated for it. */
function resolveTarget(env: KubectlEnv, ns: string, target: string, ports: string[]): { pod: Pod; ports: string[] } {
  const slash = target.indexOf('/');
  const kind = slash < 0 ? 'Pod' : resolveTypes(target.slice(0, slash), env.cluster.discovery(), env.shortNames)[0]!.kind;
  if (kind === 'Service') {
    const svc = env.api.get<Service>('Service', ns, target.slice(slash + 1));
    if (!svc.spec.selector || Object.keys(svc.spec.selector).length === 0) throw new KubectlError(`invalid service '${svc.metadata.name}': Service is defined without a selector`);
    const { pod } = podOfTarget(env, ns, target);
    checkUdp(ports, udpOnly((svc.spec.ports ?? []).map((p) => ({ port: p.port, protocol: p.protocol }))), (n) => {
      const sp = (svc.spec.ports ?? []).find((p) => p.name === n);
      if (!sp) throw new KubectlError(`Service '${svc.metadata.name}' does not have a named port '${n}'`);
      return sp.port;
    });
    return { pod, ports: translateServicePort(ports, svc, pod) };
  }
  const { pod } = podOfTarget(env, ns, target);
  const ctPorts = pod.spec.containers.flatMap((c) => (c.ports ?? []).map((p) => ({ port: p.containerPort, protocol: p.protocol })));
  checkUdp(ports, udpOnly(ctPorts), (n) => containerPortByName(pod, n));
  return { pod, ports: convertNamedPorts(ports, pod) };
}

/** A free port from the kernel's ephemeral range (net.ipv4.ip_local_port_range 32768–60999). */
function randomPort(env: KubectlEnv, taken: (port: number) => boolean): number {
  const size = 60999 - 32768 + 1;
  const start = env.cluster.random.int(size);
  // the kernel walks the range from a random offset; a full range is EADDRINUSE like any bind
  for (let i = 0; i < size; i++) {
    const p = 32768 + ((start + i) % size);
    if (!taken(p)) return p;
  }
  return 32768 + start;
}

export const portForwardVerb: Verb = {
  name: 'port-forward',
  run(inv, env): ShellResult {
    const p = inv.parsed;
    if (p.args.length < 2) throw new KubectlError('TYPE/NAME and list of ports are required for port-forward', seeHelp('port-forward'));
    const ns = namespaceOf(env, p).name;
    const { pod: picked, ports } = resolveTarget(env, ns, p.args[0]!, p.args.slice(1));
    const pod = env.api.get<Pod>('Pod', ns, picked.metadata.name);
    if (pod.status?.phase !== 'Running') throw new KubectlError(`unable to forward port because pod is not running. Current status=${pod.status?.phase ?? 'Pending'}`);
    const addresses = parseAddresses(list(p.flags, 'address').length ? list(p.flags, 'address') : ['localhost']);
    const forwards = parsePorts(ports);
    try {
      env.api.authorize({ verb: 'create', group: '', resource: 'pods', subresource: 'portforward', name: pod.metadata.name, namespace: ns });
    } catch (e) {
      if (e instanceof ApiError) throw new KubectlError(`error upgrading connection: ${e.message}`);
      throw e;
    }
    const host = env.host ? env.cluster.host(env.host) : undefined;
    const pid = env.background?.pid ?? 0;
    // what already listens there: the learner's other processes, and the host's own daemons (sshd…)
    const bound = host ? [...userSockets(host), ...nodeSockets(env.cluster, host).filter((s) => s.proto === 'tcp').map((s) => ({ address: s.addr === '*' ? '::' : s.addr, port: s.port }))] : [];
    const opened: { address: string; port: number; remote: number }[] = [];
    let stdout = '';
    let stderr = '';
    for (const f of forwards) {
      const errors: string[] = [];
      const ok = { all: 0, any: 0 };
      const failed = { all: 0, any: 0 };
      const taken = (port: number, address?: string): boolean => [...bound, ...opened].some((s) => s.port === port && (address === undefined || collides(s.address, address)));
      if (f.local === 0) f.local = randomPort(env, (port) => taken(port));
      for (const a of addresses) {
        if (taken(f.local, a.address)) {
          errors.push(`unable to create listener: Error listen tcp${a.family} ${joinHostPort(a.address, f.local)}: bind: address already in use`);
          failed[a.failureMode]++;
          continue;
        }
        opened.push({ address: a.address, port: f.local, remote: f.remote });
        ok[a.failureMode]++;
        stdout += `Forwarding from ${joinHostPort(a.address, f.local)} -> ${f.remote}\n`;
      }
      if ((ok.all === 0 && failed.all > 0) || failed.any > 0) stderr += `Unable to listen on port ${f.local}: Listeners failed to create with the following errors: [${errors.join(' ')}]\n`;
    }
    if (!forwards.some((f) => opened.some((o) => o.port === f.local))) {
      return { stdout, stderr: `${stderr}error: unable to listen on any of the requested ports: [${forwards.map((f) => `{${f.local} ${f.remote}}`).join(' ')}]\n`, exitCode: 1 };
    }
    const uid = pod.metadata.uid ?? '';
    const podRef = { namespace: ns, pod: pod.metadata.name, uid };
    if (!env.background || !host) {
      // kubectl serves until Ctrl-C; a terminal that waits for it here would never come back
      stderr += 'cka-lab: kubectl port-forward serves until Ctrl-C, which this terminal cannot send while it waits: run it in the background (append &), use it, then end it with kill %1\n';
      return { stdout, stderr, exitCode: 0 };
    }
    const cmdline = env.background.argv.join(' ');
    for (const o of opened) bindSocket(host, { address: o.address, port: o.port, pid, comm: 'kubectl', cmdline, started: env.cluster.now(), forward: { ...podRef, port: o.remote } });
    return { stdout, stderr, exitCode: 0, keeps: { kind: 'port-forward', host: host.name, pod: { namespace: ns, name: pod.metadata.name, uid } } };
  },
};
