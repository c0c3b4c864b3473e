/**
 * The contract between the server and its plugins (coredns `plugin/plugin.go`): a setup function
 * reads its tokens through a Dispenser and either throws a CorefileError (the server prefixes
 * `plugin/<name>: `) or returns a plugin; a plugin with `serve` takes part in the chain and either
 * answers (writes a reply) or calls `next`.
 */
import type { Random } from '../../util/random.js';
import type { ClusterView } from './cluster-view.js';
import type { Dispenser } from './corefile/dispenser.js';
import type { DnsMessage, QType, Rcode } from './message.js';
import type { Proto, Transport } from './transport.js';

export interface SetupContext {
  /** The -conf path, for messages. */
  file: string;
  /** Zones of the server block (absolute, lower case), in key order. */
  zones: string[];
  /** Files inside the CoreDNS container (/etc/resolv.conf is the node's, /etc/hosts). */
  readFile(path: string): string | undefined;
  /** Log lines a setup writes (`[WARNING] plugin/hosts: File does not exist: …`). */
  log(line: string): void;
  random: Random;
  view: ClusterView;
  transport: Transport;
  /** The CoreDNS pod's own IP (source of forwarded queries, NS glue). */
  podIp: string;
  /**
   * dnsserver.GetConfig(c).Handler(name): another plugin of the same server block. Only valid once
   * every setup has run (upstream calls it from OnStartup), so plugins keep the function, not its result.
   */
  handler(name: string): Plugin | undefined;
}

/** k8s_external's Externaler (plugin/k8s_external/external.go), implemented by the kubernetes plugin. */
export interface Externaler {
  /** Services (host, port, SRV target path) matching the query below `zone`, and the rcode when none match. */
  external(qname: string, qtype: QType, zone: string, headless: boolean): { services: ExternalService[]; rcode: Rcode };
  /** ExternalAddress: the addresses of the Service(s) that front CoreDNS itself. */
  externalAddress(headless: boolean): string[];
  externalSerial(): number;
  ttl(): number;
}

/** msg.Service as k8s_external sees it: `key` labels name the SRV target (svc.ns or endpoint.svc.ns). */
export interface ExternalService {
  host: string;
  port: number;
  key: string[];
}

export interface Client {
  ip: string;
  port: number;
  proto: Proto;
}

export interface Request {
  msg: DnsMessage;
  client: Client;
  /** Simulated time of arrival, ms. */
  now: number;
  /** Simulated time the chain spent (forward timeouts add to it), ms. */
  elapsed: { ms: number };
  /** Runs a query through this same server (upstream.Lookup of the kubernetes plugin). */
  lookup(name: string, type: QType): DnsMessage;
  /** Depth of nested self-queries, to bound loops. */
  depth: number;
  /** Delivers a query to this same process on :53 (forwarding to 127.0.0.x / the pod's own IP). */
  self(msg: DnsMessage, client: Client): DnsMessage | undefined;
}

export interface Result {
  rcode: Rcode;
  /** The reply if a plugin wrote one (plugin.ClientWrite). */
  reply?: DnsMessage;
  error?: string;
  /** The plugin chose to send nothing (acl drop): the client sees no reply at all. */
  dropped?: boolean;
}

export type Next = (req: Request) => Result;

export interface Plugin {
  name: string;
  serve?(req: Request, next: Next): Result;
  /** Readiness for /ready (kubernetes: informers synced). */
  ready?(): boolean;
  /** reload settings (only the reload plugin). */
  reload?: { intervalMs: number; jitterMs: number };
  /** health settings. */
  health?: { addr: string; lameduckMs: number };
  readyAddr?: string;
  prometheusAddr?: string;
  /** The debug plugin's flag on this server block. */
  debug?: boolean;
  /** Started after the server is up (loop's probe). */
  onStartup?(probe: (name: string, type: QType) => void): void;
  /**
   * c.OnStartup callbacks that can fail the start (k8s_external looking up the kubernetes plugin):
   * the error text, as plugin.Error formats it, or undefined.
   */
  startupCheck?(): string | undefined;
  /** The kubernetes plugin's Externaler and AutoPather, for k8s_external and autopath. */
  externaler?: Externaler;
  /** kubernetes AutoPath: the search path of the pod that sent the query, sentinel '' last; undefined = none. */
  autoPath?(qname: string, clientIp: string): string[] | undefined;
}

export interface PluginDef {
  name: string;
  setup(d: Dispenser, ctx: SetupContext): Plugin;
}

/** plugin.ErrOnce. */
export const ERR_ONCE = 'this plugin can only be used once per Server Block';

/** A fatal condition at run time (loop detected): the process exits with this log line. */
export class FatalError extends Error {
  constructor(public line: string) {
    super(line);
    this.name = 'FatalError';
  }
}

/** plugin.NextOrFailure. */
export function nextOrFailure(name: string, next: Next | undefined, req: Request): Result {
  if (next) return next(req);
  return { rcode: 'SERVFAIL', error: `plugin/${name}: no next plugin found` };
}

/** Parse a Go duration ("5s", "1m30s", "500ms"); undefined if malformed. */
export function parseGoDuration(s: string): number | undefined {
  if (s === '0') return 0;
  const re = /(\d+(?:\.\d+)?)(ns|us|\u00b5s|ms|s|m|h)/gy;
  let total = 0;
  let matched = 0;
  let m: RegExpExecArray | null;
  while ((m = re.exec(s)) !== null) {
    const v = Number(m[1]);
    const unit = m[2];
    const mult = unit === 'h' ? 3600000 : unit === 'm' ? 60000 : unit === 's' ? 1000 : unit === 'ms' ? 1 : unit === 'ns' ? 1e-6 : 1e-3;
    total += v * mult;
    matched = re.lastIndex;
  }
  if (matched !== s.length || s.length === 0) return undefined;
  return total;
}

/** plugin/pkg/fall: fallthrough zones (no args = every zone). */
export function fallZones(args: string[]): string[] {
  return args.length === 0 ? ['.'] : args.map(normalizeZone);
}

/** Longest zone in `zones` that contains `name` (plugin.Zones.Matches), or undefined. */
export function matchZone(zones: readonly string[], name: string): string | undefined {
  const n = name.toLowerCase();
  let best: string | undefined;
  for (const z of zones) {
    const zz = z.toLowerCase();
    if (zz === '.' || n === zz || n.endsWith(`.${zz}`) || (zz !== '.' && `${n}.` === zz)) {
      if (best === undefined || zz.length > best.length) best = zz;
    }
  }
  return best;
}

/** Normalize zone arguments the way plugin.Host(...).NormalizeExact does (lower case, absolute). */
export function normalizeZone(z: string): string {
  const lower = z.toLowerCase();
  return lower.endsWith('.') ? lower : `${lower}.`;
}
