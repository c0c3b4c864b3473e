/**
 * A CoreDNS process built from a Corefile (coremain/run.go, core/dnsserver/{register,server}.go):
 * parse → inspect keys → plugin setups in plugin.cfg order → zone/port conflict check → startup
 * lines; queries are routed to the most specific zone's block and run through that block's
 * chain in plugin.cfg order. A failed start gives the single error line and exit status 1; the
 * reload plugin re-reads the Corefile periodically and swaps configurations or keeps the old one.
 */
import { createHash } from 'node:crypto';
import type { Clock } from '../../util/clock.js';
import type { Random } from '../../util/random.js';
import type { ClusterView } from './cluster-view.js';
import { CorefileError, Dispenser } from './corefile/dispenser.js';
import { parseCorefile, serverBlocksJson, type ParseOptions, type ParseResult, type ServerBlock } from './corefile/parser.js';
import { DIRECTIVES, DIRECTIVE_SET } from './directives.js';
import { splitKey, zoneAddrString, type ZoneAddr } from './keys.js';
import { newQuery, replyTo, type DnsMessage, type QType } from './message.js';
import { FatalError, type Client, type Next, type Plugin, type Request, type Result, type SetupContext } from './plugin.js';
import { PLUGINS } from './plugins/registry.js';
import { requestSize, scrub } from './scrub.js';
import type { Transport } from './transport.js';
import { remember } from '../../util/bounded-map.js';

export const COREDNS_VERSION = '1.13.1';
/** `showVersion` second line of the registry.k8s.io/coredns/coredns:v1.13.1 image. */
export const COREDNS_BUILD_LINE = 'linux/amd64, go1.25.2, 1db4568';
export const DEFAULT_CONF = '/etc/coredns/Corefile';
/** register.go DefaultInput: what an empty Corefile loads. */
const DEFAULT_INPUT = '.:53 {\nwhoami\nlog\n}\n';

export interface CoreDnsOptions {
  corefile: string;
  confPath?: string;
  env?: Readonly<Record<string, string>>;
  /** The container's filesystem (/etc/resolv.conf = node's with dnsPolicy Default, /etc/hosts, imports). */
  readFile: (path: string) => string | undefined;
  listFiles?: () => string[];
  view: ClusterView;
  transport: Transport;
  clock: Clock;
  random: Random;
  podIp: string;
}

interface Block {
  addrs: ZoneAddr[];
  plugins: Plugin[];
}

interface Config {
  blocks: Block[];
  hash: string;
  reload?: { intervalMs: number; jitterMs: number };
}

type BuildResult = { ok: true; config: Config } | { ok: false; error: string };

/**
 * What the server reads of its configuration on every kubelet sync (ports, /ready, /health) and
 * every query (the blocks on a port, each block's serving chain). A Config is never changed once
 * built (a reload installs a new one) and a plugin's addresses and `serve` are set by its setup,
 * so these are computed once per installed Config; readiness itself (`ready()`) is asked live.
 */
interface Derived {
  ports: readonly number[];
  health: boolean;
  /** A plugin serves /ready (the ready plugin). */
  readyEndpoint: boolean;
  /** Plugins that report readiness, in block and chain order. */
  reporting: Plugin[];
  /** The blocks listening for DNS on a port, by port (filled as queries arrive). */
  byPort: Map<number, Block[]>;
  /** Each block's serving plugins, in chain order. */
  chains: Map<Block, Plugin[]>;
}

function derivedOf(config: Config | undefined): Derived {
  const blocks = config?.blocks ?? [];
  const plugins = blocks.flatMap((b) => b.plugins);
  const ports = new Set<number>();
  for (const b of blocks) for (const a of b.addrs) ports.add(Number(a.port));
  for (const p of plugins) {
    for (const addr of [p.health?.addr, p.readyAddr, p.prometheusAddr]) {
      if (addr === undefined) continue;
      const port = Number(addr.slice(addr.lastIndexOf(':') + 1));
      if (Number.isFinite(port) && port > 0) ports.add(port);
    }
  }
  return {
    ports: Object.freeze([...ports].sort((a, b) => a - b)),
    health: plugins.some((x) => x.health),
    readyEndpoint: plugins.some((x) => x.readyAddr !== undefined),
    reporting: plugins.filter((p) => p.ready),
    byPort: new Map(),
    chains: new Map(blocks.map((b) => [b, b.plugins.filter((p) => p.serve)])),
  };
}

const HASHES = new WeakMap<ServerBlock[], string>();

export function corefileHash(blocks: ServerBlock[]): string {
  let hash = HASHES.get(blocks);
  if (hash === undefined) {
    hash = createHash('sha512').update(serverBlocksJson(blocks)).digest('hex');
    HASHES.set(blocks, hash);
  }
  return hash;
}

/**
 * Parses by text that read no other file, warned of nothing and substituted no environment: a
 * parse is a pure function of the text then, and every copy of a cluster (validate's runs, a
 * grader's) rebuilds its CoreDNS servers from the same few Corefiles. The blocks are shared and
 * only read (the plugins' setups read their tokens through a Dispenser).
 */
const PARSES = new Map<string, ParseResult>();
const PARSES_MAX = 64;

function parseCorefileMemo(text: string, file: string, opts: ParseOptions): ParseResult {
  const pure = Object.keys(opts.env ?? {}).length === 0;
  const key = `${opts.validDirectives ? 'v' : '-'}\0${file}\0${text}`;
  const had = pure ? PARSES.get(key) : undefined;
  if (had) return had;
  let outside = false;
  const r = parseCorefile(text, file, {
    ...opts,
    ...(opts.readFile ? { readFile: (p: string) => ((outside = true), opts.readFile!(p)) } : {}),
    ...(opts.listFiles ? { listFiles: () => ((outside = true), opts.listFiles!()) } : {}),
    ...(opts.warn ? { warn: (l: string) => ((outside = true), opts.warn!(l)) } : {}),
  });
  if (pure && !outside) {
    remember(PARSES, key, r, PARSES_MAX);
  }
  return r;
}

/**
 * The container's files as one build reads them: kubeadm's Corefile has both the kubernetes and
 * the forward plugin read /etc/resolv.conf, and each read goes through the container's mounts
 * (every copy of a cluster rebuilds its CoreDNS servers). Nothing writes a file while a build
 * runs, so a second read of a path gives the first's text; once the build is over (`done`) every
 * read goes to the files again, for a plugin that keeps `readFile` to read later.
 */
function readsOfOneBuild(readFile: CoreDnsOptions['readFile']): { readFile: CoreDnsOptions['readFile']; done: () => void } {
  const seen = new Map<string, string | undefined>();
  let building = true;
  return {
    readFile: (p) => {
      if (!building) return readFile(p);
      if (seen.has(p)) return seen.get(p);
      const v = readFile(p);
      seen.set(p, v);
      return v;
    },
    done: () => {
      building = false;
      seen.clear();
    },
  };
}

function build(text: string, opts: CoreDnsOptions, logs: string[]): BuildResult {
  const reads = readsOfOneBuild(opts.readFile);
  try {
    return buildWith(text, { ...opts, readFile: reads.readFile }, logs);
  } finally {
    reads.done();
  }
}

function buildWith(text: string, opts: CoreDnsOptions, logs: string[]): BuildResult {
  const file = opts.confPath ?? DEFAULT_CONF;
  const parseOpts = {
    validDirectives: DIRECTIVE_SET,
    env: opts.env ?? {},
    readFile: opts.readFile,
    listFiles: opts.listFiles ?? ((): string[] => []),
    warn: (l: string): void => void logs.push(l),
  };
  let parsed = parseCorefileMemo(text, file, parseOpts);
  if (!parsed.ok) return { ok: false, error: parsed.error };
  if (parsed.blocks.length === 0) {
    parsed = parseCorefileMemo(DEFAULT_INPUT, file, parseOpts);
    if (!parsed.ok) return { ok: false, error: parsed.error };
  }
  const hash = corefileHash(parsed.blocks);
  const blocks: { sb: ServerBlock; addrs: ZoneAddr[]; plugins: Map<string, Plugin> }[] = [];
  for (const sb of parsed.blocks) {
    const addrs: ZoneAddr[] = [];
    for (const k of sb.keys) {
      const r = splitKey(k);
      if (!r.ok) return { ok: false, error: `error inspecting server blocks: ${r.error}` };
      addrs.push(...r.addrs);
    }
    blocks.push({ sb, addrs, plugins: new Map() });
  }
  for (const dir of DIRECTIVES) {
    for (const b of blocks) {
      const toks = b.sb.tokens.get(dir);
      if (!toks) continue;
      const def = PLUGINS.get(dir);
      const plugins = b.plugins;
      const ctx: SetupContext = {
        handler: (name) => plugins.get(name),
        file,
        zones: b.addrs.map((a) => a.zone),
        readFile: opts.readFile,
        log: (l) => void logs.push(l),
        random: opts.random,
        view: opts.view,
        transport: opts.transport,
        podIp: opts.podIp,
      };
      if (!def) {
        // A plugin compiled into the real binary that this simulator does not emulate. CoreDNS would
        // accept the directive (its own setup may still reject arguments we cannot check), so refusing
        // to start would be wrong; running as if it were absent would be silently wrong. It is
        // accepted and the process log says so, once per block, so a learner is never misled.
        logs.push(`[WARNING] cka-lab simulator: plugin/${dir} is not simulated; the directive is accepted but does nothing`);
        b.plugins.set(dir, { name: dir });
        continue;
      }
      try {
        b.plugins.set(dir, def.setup(new Dispenser(file, toks), ctx));
      } catch (e) {
        if (e instanceof CorefileError) return { ok: false, error: `plugin/${dir}: ${e.message}` };
        throw e;
      }
    }
  }
  for (const b of blocks)
    for (const p of b.plugins.values()) {
      const err = p.startupCheck?.();
      if (err !== undefined) return { ok: false, error: err };
    }
  const seen = new Set<string>();
  for (const b of blocks) {
    for (const a of b.addrs) {
      const key = zoneAddrString(a);
      if (seen.has(key)) return { ok: false, error: `cannot serve ${key} - it is already defined` };
      seen.add(key);
    }
  }
  const config: Config = {
    hash,
    blocks: blocks.map((b) => ({
      addrs: b.addrs,
      plugins: DIRECTIVES.flatMap((d) => {
        const p = b.plugins.get(d);
        return p ? [p] : [];
      }),
    })),
  };
  const reload = config.blocks.flatMap((b) => b.plugins).find((p) => p.reload)?.reload;
  if (reload) config.reload = reload;
  return { ok: true, config };
}

export type StartResult =
  | { ok: true; server: CoreDns }
  | { ok: false; stdout: string; stderr: string; exitCode: 1 };

/** Start a CoreDNS process. On failure: what the container printed before exiting with status 1. */
export function startCoreDns(opts: CoreDnsOptions): StartResult {
  const server = new CoreDns(opts);
  const r = build(opts.corefile, opts, server.logs);
  const text = (lines: string[]): string => lines.map((l) => `${l}\n`).join('');
  if (!r.ok) return { ok: false, stdout: text(server.logs), stderr: `${r.error}\n`, exitCode: 1 };
  server.install(r.config, true);
  const fatal = server.runStartupHooks();
  if (fatal) return { ok: false, stdout: text(server.logs.filter((l) => l !== fatal)), stderr: `${fatal}\n`, exitCode: 1 };
  return { ok: true, server };
}

export class CoreDns {
  /** Everything the process logged, one line per entry (what `kubectl logs` shows). */
  readonly logs: string[] = [];
  private config: Config | undefined;
  /** What the kubelet and every query derive from `config` (derivedOf), computed once per install. */
  private derived: Derived | undefined;
  private lastHash = '';
  private nextReloadCheck = Number.POSITIVE_INFINITY;
  private reloadPeriod = 0;
  /** Set when a loop was detected: the process must exit. */
  fatal: string | undefined;

  constructor(private opts: CoreDnsOptions) {}

  install(config: Config, startup: boolean): void {
    this.config = config;
    this.derived = undefined;
    this.lastHash = config.hash;
    if (startup) {
      const lines: string[] = [];
      const byPort = new Map<string, string[]>();
      for (const b of config.blocks)
        for (const a of b.addrs) {
          const prefix = a.transport === 'dns' ? '' : `${a.transport}://`;
          const list = byPort.get(`${prefix}|${a.port}`) ?? [];
          list.push(a.zone);
          byPort.set(`${prefix}|${a.port}`, list);
        }
      for (const [k, zones] of [...byPort.entries()].sort()) {
        const [prefix, port] = k.split('|');
        for (const z of [...zones].sort()) lines.push(`${prefix ?? ''}${z}:${port ?? ''}`);
      }
      this.logs.push(...lines);
      if (config.reload) this.logs.push(`[INFO] plugin/reload: Running configuration SHA512 = ${config.hash}`);
      this.logs.push(`CoreDNS-${COREDNS_VERSION}`, COREDNS_BUILD_LINE);
    }
    if (config.reload) {
      const j = config.reload.jitterMs;
      this.reloadPeriod = config.reload.intervalMs + (j > 0 ? this.opts.random.int(j) - j / 2 : 0);
      this.nextReloadCheck = this.opts.clock.now() + this.reloadPeriod;
    } else this.nextReloadCheck = Number.POSITIVE_INFINITY;
  }

  /** Runs onStartup hooks (loop's probe); returns the fatal line if the process must exit. */
  runStartupHooks(): string | undefined {
    for (const b of this.config?.blocks ?? [])
      for (const p of b.plugins)
        p.onStartup?.((name, type) => {
          this.query(newQuery(this.opts.random.int(65536), name, type), { ip: '127.0.0.1', port: 32768 + this.opts.random.int(28000), proto: 'udp' });
        });
    return this.fatal;
  }

  /** The configuration currently serving (for tests and the runtime's status). */
  configHash(): string {
    return this.config?.hash ?? '';
  }

  /** Effective reload check period in ms (interval ± jitter/2), 0 without reload. */
  reloadPeriodMs(): number {
    return this.config?.reload ? this.reloadPeriod : 0;
  }

  /**
   * Called by the runtime whenever time has passed, with the Corefile as currently mounted in the
   * container. Performs the reload plugin's check if its period elapsed.
   */
  maybeReload(corefile: string): void {
    const now = this.opts.clock.now();
    if (!this.config?.reload || now < this.nextReloadCheck) return;
    this.nextReloadCheck = now + this.reloadPeriod;
    const file = this.opts.confPath ?? DEFAULT_CONF;
    const parsed = parseCorefileMemo(corefile, file, { env: this.opts.env ?? {}, readFile: this.opts.readFile });
    if (!parsed.ok) {
      this.logs.push(`[WARNING] plugin/reload: Corefile parse failed: ${parsed.error}`);
      return;
    }
    const hash = corefileHash(parsed.blocks);
    if (hash === this.lastHash) return;
    this.lastHash = hash;
    this.logs.push('[INFO] Reloading');
    const r = build(corefile, { ...this.opts, corefile }, this.logs);
    if (!r.ok) {
      const err = `starting with listener file descriptors: ${r.error}`;
      this.logs.push(`[ERROR] Restart failed: ${err}`, `[ERROR] plugin/reload: Corefile changed but reload failed: ${err}`);
      return;
    }
    this.install(r.config, false);
    this.logs.push(`[INFO] plugin/reload: Running configuration SHA512 = ${hash}`, '[INFO] Reloading complete');
    this.runStartupHooks();
  }

  /** /health (health plugin's listener): 200 OK while running. undefined if no health plugin. */
  health(): { status: number; body: string } | undefined {
    if (!this.view().health) return undefined;
    return { status: 200, body: 'OK' };
  }

  /** /ready: 200 OK when every readiness-reporting plugin is ready, else 503 with their names. */
  ready(): { status: number; body: string } | undefined {
    const d = this.view();
    if (!d.readyEndpoint) return undefined;
    const notReady = [...new Set(d.reporting.filter((p) => p.ready && !p.ready()).map((p) => p.name))].sort();
    if (notReady.length === 0) return { status: 200, body: 'OK' };
    return { status: 503, body: `${notReady.join(',')}\n` };
  }

  /** TCP/UDP ports the process listens on (53, 8080, 8181, 9153 with kubeadm's Corefile). */
  listeningPorts(): readonly number[] {
    return this.view().ports;
  }

  private view(): Derived {
    return (this.derived ??= derivedOf(this.config));
  }

  /**
   * Serve one query arriving on `port` (server.go ServeDNS). Returns the reply, or undefined when
   * no reply is sent (the process died of a loop).
   */
  query(msg: DnsMessage, client: Client, port = 53, depth = 0): DnsMessage | undefined {
    return this.serve(msg, client, port, depth).reply;
  }

  /** Like query, also reporting the simulated time the server spent (forward timeouts). */
  serve(msg: DnsMessage, client: Client, port = 53, depth = 0): { reply?: DnsMessage; elapsedMs: number } {
    const elapsed = { ms: 0 };
    if (this.fatal) return { elapsedMs: 0 };
    const q = msg.question[0];
    if (!q) return { reply: replyTo(msg, 'SERVFAIL'), elapsedMs: 0 };
    if (q.class !== 'IN') return { reply: replyTo(msg, 'REFUSED'), elapsedMs: 0 };
    const qname = q.name.toLowerCase();
    const d = this.view();
    let blocks = d.byPort.get(port);
    if (!blocks) {
      blocks = (this.config?.blocks ?? []).filter((b) => b.addrs.some((a) => a.port === String(port) && a.transport === 'dns'));
      d.byPort.set(port, blocks);
    }
    const zoneOf = (name: string): Block | undefined =>
      (blocks as Block[]).find((b) => b.addrs.some((a) => a.zone === name && a.port === String(port)));
    let block: Block | undefined;
    let name = qname;
    for (;;) {
      block = zoneOf(name);
      if (block || name === '.') break;
      const dot = name.indexOf('.');
      name = dot === -1 || dot === name.length - 1 ? '.' : name.slice(dot + 1);
    }
    const chain = block ? d.chains.get(block) : undefined;
    if (!chain || chain.length === 0) return { reply: replyTo(msg, 'REFUSED'), elapsedMs: 0 };
    const at = (i: number): Next | undefined => {
      const p = chain[i];
      if (!p?.serve) return undefined;
      const serve = p.serve.bind(p);
      return (req: Request): Result => serve(req, at(i + 1) ?? ((): Result => ({ rcode: 'SERVFAIL', error: `plugin/${p.name}: no next plugin found` })));
    };
    const req: Request = {
      msg,
      client,
      now: this.opts.clock.now(),
      elapsed,
      depth,
      self: (m: DnsMessage, c: Client): DnsMessage | undefined => {
        if (depth >= 8) return undefined;
        const r = this.serve(m, c, 53, depth + 1);
        elapsed.ms += r.elapsedMs;
        return r.reply;
      },
      // plugin/pkg/upstream Lookup: the question goes through this server again with an OPT of
      // the client's size and DO bit (SetEdns0(state.Size(), state.Do())), so its reply is cut to
      // what the client can take and may come back truncated.
      lookup: (n: string, t: QType): DnsMessage => {
        const sub = newQuery(this.opts.random.int(65536), n, t, { udpSize: requestSize(req.msg, client.proto), do: req.msg.edns?.do ?? false });
        const r = depth < 8 ? this.serve(sub, client, port, depth + 1) : { elapsedMs: 0 };
        elapsed.ms += r.elapsedMs;
        return r.reply ?? replyTo(sub, 'SERVFAIL');
      },
    };
    let res: Result;
    try {
      res = (at(0) as Next)(req);
    } catch (e) {
      if (e instanceof FatalError) {
        this.fatal = e.line;
        this.logs.push(e.line);
        return { elapsedMs: elapsed.ms };
      }
      throw e;
    }
    if (res.reply) return { reply: scrub(res.reply, req.msg, client.proto, client.ip), elapsedMs: elapsed.ms };
    if (res.dropped) return { elapsedMs: elapsed.ms };
    return { reply: replyTo(msg, res.rcode === 'NOERROR' ? 'SERVFAIL' : res.rcode), elapsedMs: elapsed.ms };
  }
}
