/**
 * `etcdctl` v3.6 (etcd-io/etcd etcdctl/ctlv3): installed on the control-plane node and inside the
 * etcd image. It talks to the running etcd member (sim/etcd/member.ts) over the TLS model in
 * etcd-client.ts, so missing or wrong certificates fail as the real client does: the retry
 * interceptor's warning, then `Error: context deadline exceeded` (client/v3/retry_interceptor.go).
 *
 * Commands: version, member list|add|remove (etcdctl-member.ts), endpoint health|status [--cluster], get [--prefix]
 * [--keys-only] [--count-only] [--print-value-only] [--limit], put, del [--prefix], snapshot save.
 * `snapshot status|restore` were removed in 3.6 (moved to etcdutl): `etcdctl snapshot restore F`
 * prints the snapshot command's usage, as cobra does for a command with no Run, and with
 * `--data-dir` it is cobra's `unknown flag` error. Help, flag errors and unknown commands go
 * through the command tree in etcd-cli-spec.ts (beforeRun), the usage through etcdctl-usage.ts.
 * Output formats: simple (default), table, json for member list and endpoint status.
 *
 * Values under /registry are the API objects; a real API server stores them as protobuf, here
 * as JSON. `del` of a /registry key deletes the object behind the API server's back, as on a real
 * cluster. Real etcdctl waits out its timeouts before failing; the lab answers at once.
 */
import type { CommandFn, CommandResult } from '../../types.js';
import { orderedResult, type Chunk } from '../util.js';
import type { KObject } from '../../../sim/api/types.js';
import { etcdMember, liveDb, raftIndex, type EtcdMemberState } from '../../../sim/etcd/member.js';
import { byteSize, hexId, humanizeBytes, registryKey, serializeDb, serializeSnapshot } from '../../../sim/etcd/db.js';
import { lookupImage } from '../../../sim/images.js';
import { ConfigError, dialError, etcdClientVersion, etcdServerVersion, filesOf, loadTls, parseEndpoint, zapJson, type Files, type TlsOptions } from './etcd-client.js';
import { goTable } from './tablewriter.js';
import { ETCDCTL } from './etcd-cli-spec.js';
import { etcdctlUsage } from './etcdctl-usage.js';
import { allFlags, find, nameOf, parseFlags, stripFlags, suggestions, type CommandPath } from '../../cobra/command.js';
import { memberAdd, memberRemove } from './etcdctl-member.js';
import { fnv, notInstalled } from './host.js';
import type { Cluster } from '../../../sim/cluster.js';

const STRING_FLAGS = ['peer-urls', 'endpoints', 'cacert', 'cert', 'key', 'write-out', 'dial-timeout', 'command-timeout', 'user', 'password', 'discovery-srv', 'limit', 'keepalive-time', 'keepalive-timeout'];
const SHORT: Record<string, string> = { w: 'write-out', d: 'discovery-srv' };
const BOOL_FLAGS = ['insecure-transport', 'insecure-skip-tls-verify', 'insecure-discovery', 'hex', 'debug', 'prefix', 'keys-only', 'count-only', 'print-value-only', 'cluster', 'prev-kv', 'from-key', 'learner'];
const GLOBAL_ENV = ['endpoints', 'cacert', 'cert', 'key', 'write-out', 'dial-timeout', 'command-timeout', 'user', 'password', 'insecure-transport', 'insecure-skip-tls-verify', 'hex', 'debug'];

interface Parsed {
  args: string[];
  flags: Map<string, string>;
  error?: string;
}

function parseArgs(argv: readonly string[], env: Record<string, string>): Parsed {
  const flags = new Map<string, string>();
  const args: string[] = [];
  for (let i = 0; i < argv.length; i++) {
    const a = argv[i]!;
    if (a === '--') {
      args.push(...argv.slice(i + 1));
      break;
    }
    const m = /^--?([^=]+)(?:=(.*))?$/.exec(a);
    if (!m || a === '-') {
      args.push(a);
      continue;
    }
    const name = a.startsWith('--') ? m[1]! : (SHORT[m[1]!] ?? m[1]!);
    if (STRING_FLAGS.includes(name)) {
      const v = m[2] ?? argv[++i];
      if (v === undefined) return { args, flags, error: `flag needs an argument: ${a}` };
      flags.set(name, v);
    } else if (BOOL_FLAGS.includes(name)) flags.set(name, m[2] ?? 'true');
    else return { args, flags, error: a.startsWith('--') ? `unknown flag: --${m[1]}` : `unknown shorthand flag: '${m[1]![0]}' in ${a}` };
  }
  for (const f of GLOBAL_ENV) {
    const v = env[`ETCDCTL_${f.toUpperCase().replace(/-/g, '_')}`];
    if (v !== undefined && !flags.has(f)) flags.set(f, v);
  }
  return { args, flags };
}

const res = (stdout: string, stderr = '', exitCode = 0): CommandResult => ({ stdout, stderr, exitCode });


/** `Error: …` as cobrautl.ExitWithError prints it. */
const exitWith = (msg: string, code: number, stderr = ''): CommandResult => res('', `${stderr}Error: ${msg}\n`, code);

/** The gRPC method each command calls (for the retry interceptor's warning). */
const METHOD: Record<string, string> = {
  'member list': '/etcdserverpb.Cluster/MemberList',
  'member add': '/etcdserverpb.Cluster/MemberAdd',
  'member remove': '/etcdserverpb.Cluster/MemberRemove',
  'endpoint status': '/etcdserverpb.Maintenance/Status',
  get: '/etcdserverpb.KV/Range',
  put: '/etcdserverpb.KV/Put',
  del: '/etcdserverpb.KV/DeleteRange',
  'endpoint health': '/etcdserverpb.KV/Range',
};

/** The address grpc's resolver shows as the target (etcd-endpoints://0xc000…/host:port). */
function target(ep: string, c: Cluster): string {
  return `etcd-endpoints://0xc000${(fnv(`${ep}/${c.now()}`) & 0xfffff).toString(16).padStart(5, '0')}0/${ep.replace(/^https?:\/\//, '')}`;
}

function retryWarning(c: Cluster, ep: string, method: string, err: string, version: string): string {
  return zapJson(c.now(), 'warn', `v3@v${version}/retry_interceptor.go:65`, 'retrying of unary invoker failed', { target: target(ep, c), method, attempt: 0, error: `rpc error: code = DeadlineExceeded desc = latest balancer error: last connection error: connection error: desc = "${err}"` }, 'etcd-client');
}

/** etcdctl's API version (api/version: the major.minor of the etcd version). */
const apiVersion = (version: string): string => version.split('.').slice(0, 2).join('.');

/** The help of the etcdctl that runs here: its header names the client's own version (etcdClientVersion). */
const usageOf =
  (version: string) =>
  (p: CommandPath, helpFlag = true): string =>
    etcdctlUsage(p, version, apiVersion(version), helpFlag);

/**
 * What cobra (v1.9.1 command.go ExecuteC) does before a command's Run: Find (the root's legacyArgs
 * refuses a word that names no command, with suggestions), ParseFlags (an error prints `Error: …`,
 * then the usage, then an empty line, and etcdctl exits 1: SilenceUsage is not set and etcd's usage
 * function writes to stdout itself), the help flag and commands without Run (the usage, status 0),
 * and the help command (`help CMD…`). Undefined when the command runs.
 */
function beforeRun(argv: readonly string[], version: string): CommandResult | undefined {
  const usage = usageOf(version);
  const { path, rest } = find(ETCDCTL, argv);
  const cmd = path[path.length - 1]!;
  const words = stripFlags(rest, allFlags(path));
  if (path.length === 1 && words.length > 0)
    return res('', `Error: unknown command "${words[0]}" for "etcdctl"${suggestions(path, words[0]!)}
Run 'etcdctl --help' for usage.
`, 1);
  const parsed = parseFlags(rest, allFlags(path));
  if ('error' in parsed)
    return orderedResult(
      [
        { stream: 'stderr', text: `Error: ${parsed.error}\n` },
        { stream: 'stdout', text: usage(path) },
        { stream: 'stderr', text: '\n' },
      ],
      1,
    );
  const help = parsed.values.get('help');
  if ((help && help[help.length - 1] !== 'false') || cmd.run === 'none') return res(usage(path));
  if (path.length === 2 && nameOf(cmd) === 'help') {
    const topic = find(ETCDCTL, parsed.args);
    if (topic.path.length === 1 && stripFlags(topic.rest, allFlags(topic.path)).length > 0)
      return orderedResult([
        { stream: 'stderr', text: `Unknown help topic [${parsed.args.map((a) => `\`${a}\``).join(' ')}]\n` },
        { stream: 'stdout', text: usage(topic.path, false) },
      ]);
    return res(usage(topic.path));
  }
  return undefined;
}

/** Whether etcdctl exists where the command runs: the control-plane node, or a container of the etcd image. */
function installed(ctx: Parameters<CommandFn>[0]): boolean {
  const c = ctx.cluster;
  if (!c) return false;
  if (ctx.location.kind === 'node') return c.host(ctx.location.host)?.data.role === 'control-plane';
  if (ctx.location.kind === 'pod') {
    const loc = ctx.location;
    const pod = c.store.get<KObject & { spec: { containers: { name: string; image: string }[] } }>('Pod', loc.namespace, loc.pod);
    const ct = pod?.spec.containers.find((x) => x.name === loc.container);
    return !!ct && !!lookupImage(ct.image)?.tools.includes('etcdctl');
  }
  return false;
}

export const etcdctl: CommandFn = (ctx) => {
  const c = ctx.cluster;
  if (!c || !installed(ctx)) return notInstalled(ctx);
  const files = filesOf(ctx, c);
  if (!files) return notInstalled(ctx);
  const version = etcdClientVersion(ctx, c);
  const early = beforeRun(ctx.argv.slice(1), version);
  if (early) return early;
  const p = parseArgs(ctx.argv.slice(1), ctx.env);
  if (p.error) return exitWith(p.error, 1);
  const [cmd, sub] = p.args;
  if (cmd === undefined) return res(usageOf(version)([ETCDCTL]));
  if (cmd === 'version') return res(`etcdctl version: ${version}\nAPI version: ${apiVersion(version)}\n`);
  const words = cmd === 'member' || cmd === 'endpoint' || cmd === 'snapshot' ? `${cmd} ${sub ?? ''}` : cmd;
  if (!['member list', 'member add', 'member remove', 'endpoint health', 'endpoint status', 'get', 'put', 'del', 'snapshot save'].includes(words))
    return res('', `Error: unknown command "${cmd}" for "etcdctl"\nRun 'etcdctl --help' for usage.\n`, 1);
  const format = p.flags.get('write-out') ?? 'simple';
  if (!['simple', 'table', 'json', 'fields', 'protobuf'].includes(format)) return exitWith('unsupported output format', 4);
  const opts: TlsOptions = {
    ...(p.flags.get('cacert') ? { cacert: p.flags.get('cacert')! } : {}),
    ...(p.flags.get('cert') ? { cert: p.flags.get('cert')! } : {}),
    ...(p.flags.get('key') ? { key: p.flags.get('key')! } : {}),
    insecureSkipVerify: p.flags.get('insecure-skip-tls-verify') === 'true',
    insecureTransport: p.flags.get('insecure-transport') !== 'false',
  };
  let tls;
  try {
    tls = loadTls(files, ctx.user, opts);
  } catch (e) {
    if (e instanceof ConfigError) return exitWith(e.message, 128);
    throw e;
  }
  const endpoints = (p.flags.get('endpoints') ?? '127.0.0.1:2379').split(',').filter(Boolean);
  const errors = endpoints.map((ep) => dialError(c, files, parseEndpoint(ep), tls, opts));
  const member = etcdMember(c);
  const rest = p.args.slice(cmd === 'member' || cmd === 'endpoint' || cmd === 'snapshot' ? 2 : 1);

  if (words === 'snapshot save') {
    if (rest.length !== 1) return exitWith('snapshot save expects one argument <filename>', 128);
    if (endpoints.length !== 1) return exitWith(`snapshot must be requested to one selected node, not multiple [${endpoints.join(' ')}]`, 5);
    return snapshotSave(c, files, endpoints[0]!, rest[0]!, errors[0], version);
  }
  if (words === 'endpoint health') return endpointHealth(c, endpoints, errors, format, version);
  // every other command is one unary call through the balancer: it succeeds if any endpoint answers
  const okIndex = errors.findIndex((e) => e === undefined);
  if (okIndex < 0 || !member) return exitWith('context deadline exceeded', 1, retryWarning(c, endpoints[endpoints.length - 1]!, METHOD[words]!, errors[errors.length - 1]!, version));
  if (words === 'member list') return memberList(member, format);
  if (words === 'member add') return memberAdd(c, member, rest, p.flags, format);
  if (words === 'member remove') return memberRemove(member, rest);
  if (words === 'endpoint status') {
    const eps = p.flags.get('cluster') === 'true' ? member.members.flatMap((m) => m.clientURLs) : endpoints.filter((_, i) => errors[i] === undefined);
    return endpointStatus(c, member, eps, format);
  }
  if (words === 'get') return get(c, member, rest, p.flags);
  if (words === 'put') {
    if (rest.length < 2) return exitWith('put command needs 1 argument and input from stdin or 2 arguments', 128);
    if (rest[0]!.startsWith('/registry/')) return res('OK\n');
    (member.extraKeys ??= {})[rest[0]!] = rest[1]!;
    return res('OK\n');
  }
  return del(c, member, rest, p.flags);
};

function memberList(m: EtcdMemberState, format: string): CommandResult {
  const rows = m.members.map((x) => [hexId(x.id), x.name ? 'started' : 'unstarted', x.name, x.peerURLs.join(','), x.clientURLs.join(','), x.isLearner ? 'true' : 'false']);
  if (format === 'table') return res(goTable(['ID', 'Status', 'Name', 'Peer Addrs', 'Client Addrs', 'Is Learner'], rows));
  if (format === 'json')
    return res(`${JSON.stringify({ header: { cluster_id: Number(BigInt(`0x${m.clusterId}`) & 0x1fffffffffffffn), member_id: Number(BigInt(`0x${m.localId}`) & 0x1fffffffffffffn), raft_term: m.term }, members: m.members.map((x) => ({ ID: Number(BigInt(`0x${x.id}`) & 0x1fffffffffffffn), name: x.name, peerURLs: x.peerURLs, clientURLs: x.clientURLs, ...(x.isLearner ? { isLearner: true } : {}) })) })}\n`);
  return res(rows.map((r) => `${r.join(', ')}\n`).join(''));
}

/** A plausible round-trip time for a local proposal, stable for the same state. */
function took(c: Cluster, ep: string): string {
  const us = 3000 + (fnv(`${ep}/${c.now()}`) % 12000);
  return `${(us / 1000).toFixed(6).replace(/0+$/, '')}ms`;
}

function endpointHealth(c: Cluster, endpoints: string[], errors: (string | undefined)[], format: string, version: string): CommandResult {
  const rows = endpoints.map((ep, i) => ({ ep, health: errors[i] === undefined, took: took(c, ep), error: errors[i] === undefined ? '' : 'context deadline exceeded' }));
  // the checks run (and warn) first; the results are printed after all of them (ctlv3/command/ep_command.go epHealthCommandFunc)
  const chunks: Chunk[] = [];
  for (const [i, r] of rows.entries()) if (!r.health) chunks.push({ stream: 'stderr', text: retryWarning(c, r.ep, METHOD['endpoint health']!, errors[i]!, version) });
  if (format === 'table') chunks.push({ stream: 'stdout', text: goTable(['endpoint', 'health', 'took', 'error'], rows.map((r) => [r.ep, String(r.health), r.took, r.error])) });
  else
    for (const r of rows) {
      if (r.health) chunks.push({ stream: 'stdout', text: `${r.ep} is healthy: successfully committed proposal: took = ${r.took}\n` });
      else chunks.push({ stream: 'stderr', text: `${r.ep} is unhealthy: failed to commit proposal: ${r.error}\n` });
    }
  if (rows.some((r) => !r.health)) return orderedResult([...chunks, { stream: 'stderr', text: 'Error: unhealthy cluster\n' }], 1);
  return orderedResult(chunks);
}

function endpointStatus(c: Cluster, m: EtcdMemberState, endpoints: string[], format: string): CommandResult {
  const db = liveDb(c)!;
  const body = byteSize(serializeDb(db));
  const page = (n: number): number => Math.ceil(n / 4096) * 4096;
  const inUse = page(body);
  const size = page(Math.ceil(body * 1.6));
  const idx = raftIndex(c, m);
  const rows = endpoints.map((ep) => [ep, hexId(m.localId), etcdServerVersion(c), '3.6.0', humanizeBytes(size), humanizeBytes(inUse), `${Math.floor(100 - (inUse * 100) / size)}%`, humanizeBytes(2147483648), 'true', 'false', String(m.term), String(idx), String(idx), '', '', 'false']);
  if (format === 'table')
    return res(goTable(['endpoint', 'ID', 'version', 'storage version', 'db size', 'in use', 'percentage not in use', 'quota', 'is leader', 'is learner', 'raft term', 'raft index', 'raft applied index', 'errors', 'downgrade target version', 'downgrade enabled'], rows));
  return res(rows.map((r) => `${r.join(', ')}\n`).join(''));
}

/** The key space: /registry objects plus keys put by hand, in byte order. */
function keyspace(c: Cluster, m: EtcdMemberState): Map<string, string> {
  const all: [string, string][] = [];
  for (const kind of c.store.kinds()) for (const o of c.store.list(kind)) all.push([registryKey(o), JSON.stringify(o)]);
  for (const [k, v] of Object.entries(m.extraKeys ?? {})) all.push([k, v]);
  all.sort((a, b) => (a[0] < b[0] ? -1 : a[0] > b[0] ? 1 : 0));
  return new Map(all);
}

function selectKeys(space: Map<string, string>, key: string, flags: Map<string, string>): string[] {
  const keys = [...space.keys()];
  if (flags.get('prefix') === 'true') return keys.filter((k) => k.startsWith(key));
  if (flags.get('from-key') === 'true') return keys.filter((k) => k >= key);
  return keys.filter((k) => k === key);
}

function get(c: Cluster, m: EtcdMemberState, rest: string[], flags: Map<string, string>): CommandResult {
  if (rest.length === 0) return exitWith('get command needs one argument as key and an optional argument as range_end', 128);
  const space = keyspace(c, m);
  let keys = selectKeys(space, rest[0]!, flags);
  if (flags.get('count-only') === 'true') return res(`${keys.length}\n`);
  const limit = Number(flags.get('limit') ?? 0);
  if (limit > 0) keys = keys.slice(0, limit);
  let out = '';
  for (const k of keys) {
    if (flags.get('print-value-only') === 'true') out += `${space.get(k)}\n`;
    else if (flags.get('keys-only') === 'true') out += `${k}\n\n`;
    else out += `${k}\n${space.get(k)}\n`;
  }
  return res(out);
}

function del(c: Cluster, m: EtcdMemberState, rest: string[], flags: Map<string, string>): CommandResult {
  if (rest.length === 0) return exitWith('del command needs one argument as key and an optional argument as range_end', 128);
  const space = keyspace(c, m);
  const keys = selectKeys(space, rest[0]!, flags);
  const byKey = new Map<string, KObject>();
  for (const kind of c.store.kinds()) for (const o of c.store.list(kind)) byKey.set(registryKey(o), o);
  for (const k of keys) {
    const o = byKey.get(k);
    if (o) c.store.remove(o.kind, o.metadata.namespace, o.metadata.name);
    else delete m.extraKeys?.[k];
  }
  return res(`${keys.length}\n`);
}

function snapshotSave(c: Cluster, files: Files, endpoint: string, path: string, err: string | undefined, version: string): CommandResult {
  const part = `${path}.part`;
  const dir = part.includes('/') ? part.slice(0, part.lastIndexOf('/')) || '/' : '.';
  if (!files.isDir(dir)) return exitWith(`could not open ${part} (open ${part}: no such file or directory)`, 5);
  const now = c.now();
  let stderr = zapJson(now, 'info', 'snapshot/v3_snapshot.go:83', 'created temporary db file', { path: part });
  if (err) return exitWith('context deadline exceeded', 5, stderr + retryWarning(c, endpoint, '/etcdserverpb.Maintenance/Snapshot', err, version));
  const db = liveDb(c)!;
  const text = serializeSnapshot(db);
  files.write(path, text, 0o600);
  stderr += zapJson(now, 'info', `v3@v${version}/maintenance.go:236`, 'opened snapshot stream; downloading', {}, 'client');
  stderr += zapJson(now, 'info', 'snapshot/v3_snapshot.go:96', 'fetching snapshot', { endpoint });
  stderr += zapJson(now, 'info', `v3@v${version}/maintenance.go:302`, 'completed snapshot read; closing', {}, 'client');
  stderr += zapJson(now, 'info', 'snapshot/v3_snapshot.go:111', 'fetched snapshot', { endpoint, size: humanizeBytes(byteSize(text)), took: took(c, `${endpoint}/snapshot`).replace('ms', '') + 'ms', 'etcd-version': etcdServerVersion(c) });
  stderr += zapJson(now, 'info', 'snapshot/v3_snapshot.go:121', 'saved', { path });
  // snapshot_command.go snapshotSaveCommandFunc prints its two lines after SaveWithVersion has logged
  return orderedResult([
    { stream: 'stderr', text: stderr },
    { stream: 'stdout', text: `Snapshot saved at ${path}\nServer version ${etcdServerVersion(c)}\n` },
  ]);
}
