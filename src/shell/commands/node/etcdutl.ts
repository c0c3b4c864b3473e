/**
 * `etcdutl` v3.6 (etcd-io/etcd etcdutl/etcdutl/snapshot_command.go, etcdutl/snapshot/v3_snapshot.go):
 * works on files, never on a running member. `snapshot status FILE [-w table|json|simple]` reads
 * a snapshot (hash, revision, total keys, total size, storage version); `snapshot restore FILE
 * --data-dir DIR` writes a new data directory (member/snap/db, member/wal) holding the snapshot's
 * cluster state and a new single-member membership from --name, --initial-cluster and
 * --initial-advertise-peer-urls (defaults: default, default=http://localhost:2380). Pointing the
 * etcd static pod at the directory makes etcd serve it (sim/etcd/member.ts).
 * Logs go to stderr in zap's console encoding with RFC 3339 times (etcdutl/etcdutl/common.go GetLogger).
 */
import type { CommandFn, CommandResult } from '../../types.js';
import { clusterId, crc32c, memberId, parseDb, parseInitialCluster, totalKeys, humanizeBytes, byteSize, hexId, STORAGE_VERSION, type EtcdDb } from '../../../sim/etcd/db.js';
import { writeDataDir } from '../../../sim/etcd/member.js';
import { etcdClientVersion, filesOf } from './etcd-client.js';
import { goTable } from './tablewriter.js';
import { ETCDUTL } from './etcd-cli-spec.js';
import { allFlags, find, nameOf, parseFlags, stripFlags, suggestions, usageString } from '../../cobra/command.js';
import { notInstalled } from './host.js';
import { lookupImage } from '../../../sim/images.js';
import type { Pod } from '../../../sim/api/types.js';

const res = (stdout: string, stderr = '', exitCode = 0): CommandResult => ({ stdout, stderr, exitCode });
const exitWith = (msg: string, code: number, stderr = ''): CommandResult => res('', `${stderr}Error: ${msg}\n`, code);

const STRING_FLAGS = ['data-dir', 'wal-dir', 'initial-cluster', 'initial-cluster-token', 'initial-advertise-peer-urls', 'name', 'write-out', 'initial-memory-map-size', 'bump-revision'];
const BOOL_FLAGS = ['skip-hash-check', 'mark-compacted'];

/** zap console line: time, level, caller, message, then the fields as JSON with ": " and ", ". */
function consoleLine(ms: number, caller: string, msg: string, fields: Record<string, unknown>): string {
  const t = new Date(ms).toISOString().replace(/\.\d{3}Z$/, 'Z');
  const body = Object.entries(fields)
    .map(([k, v]) => `${JSON.stringify(k)}: ${Array.isArray(v) ? `[${v.map((x) => JSON.stringify(x)).join(', ')}]` : JSON.stringify(v)}`)
    .join(', ');
  return `${t}\tinfo\t${caller}\t${msg}\t{${body}}\n`;
}

/**
 * cobra v1.9.1 ExecuteC before Run, with etcdutl's settings (etcdutl/ctl.go: cobra's own usage,
 * `{{.UsageString}}` as help template; main.go: any error from Execute is printed again by
 * cobrautl.ExitWithError): an unknown root word is `unknown command` plus `Run 'etcdutl --help'`;
 * a flag error is cobra's `Error: …` with the usage and an empty line, then `Error: …` once more;
 * all of it on stderr, status 1. -h/--help, `help CMD` and a command without Run print the usage.
 */
function beforeRun(argv: readonly string[]): CommandResult | undefined {
  const { path, rest } = find(ETCDUTL, argv);
  const cmd = path[path.length - 1]!;
  const words = stripFlags(rest, allFlags(path));
  if (path.length === 1 && words.length > 0) {
    const msg = `unknown command "${words[0]}" for "etcdutl"${suggestions(path, words[0]!)}`;
    return res('', `Error: ${msg}\nRun 'etcdutl --help' for usage.\nError: ${msg}\n`, 1);
  }
  const parsed = parseFlags(rest, allFlags(path));
  if ('error' in parsed) return res('', `Error: ${parsed.error}\n${usageString(path)}\nError: ${parsed.error}\n`, 1);
  const help = parsed.values.get('help');
  if ((help && help[help.length - 1] !== 'false') || cmd.run === 'none') return res(usageString(path));
  if (path.length === 2 && nameOf(cmd) === 'help') {
    const topic = find(ETCDUTL, parsed.args);
    if (topic.path.length === 1 && stripFlags(topic.rest, allFlags(topic.path)).length > 0)
      // the root's usage without -h: cobra adds the help flag only to a command it executes
      return res('', `Unknown help topic [${parsed.args.map((a) => `\`${a}\``).join(' ')}]\n${usageString(topic.path).replace(/^ {2}-h, --help +help for etcdutl\n/m, '')}`);
    return res(usageString(topic.path));
  }
  return undefined;
}

export const etcdutl: CommandFn = (ctx) => {
  const c = ctx.cluster;
  if (!c) return notInstalled(ctx);
  if (ctx.location.kind === 'node' && c.host(ctx.location.host)?.data.role !== 'control-plane') return notInstalled(ctx);
  if (ctx.location.kind === 'pod') {
    const loc = ctx.location;
    const ct = c.store.get<Pod>('Pod', loc.namespace, loc.pod)?.spec.containers.find((x) => x.name === loc.container);
    if (!ct || !lookupImage(ct.image)?.tools.includes('etcdctl')) return notInstalled(ctx);
  }
  const files = filesOf(ctx, c);
  if (!files) return notInstalled(ctx);
  const early = beforeRun(ctx.argv.slice(1));
  if (early) return early;
  const flags = new Map<string, string>();
  const args: string[] = [];
  const argv = ctx.argv.slice(1);
  for (let i = 0; i < argv.length; i++) {
    const a = argv[i]!;
    const m = /^--?([^=]+)(?:=(.*))?$/.exec(a);
    if (!m) {
      args.push(a);
      continue;
    }
    const name = m[1] === 'w' ? 'write-out' : m[1]!;
    if (STRING_FLAGS.includes(name)) {
      const v = m[2] ?? argv[++i];
      if (v === undefined) return exitWith(`flag needs an argument: ${a}`, 1);
      flags.set(name, v);
    } else if (BOOL_FLAGS.includes(name)) flags.set(name, m[2] ?? 'true');
    else return exitWith(a.startsWith('--') ? `unknown flag: ${a.split('=')[0]}` : `unknown shorthand flag: '${m[1]![0]}' in ${a}`, 1);
  }
  const [cmd, sub, ...rest] = args;
  if (cmd === 'version') return res(`etcdutl version: ${etcdClientVersion(ctx, c)}\nAPI version: 3.6\n`);
  if (cmd !== 'snapshot' || (sub !== 'status' && sub !== 'restore')) return res('', `cka-lab: etcdutl ${cmd ?? ''} is not simulated; snapshot status and snapshot restore are\n`, 1);
  if (sub === 'status') {
    if (rest.length !== 1) return exitWith('snapshot status requires exactly one argument', 128);
    const text = files.read(rest[0]!);
    if (text === undefined) return exitWith(`stat ${rest[0]}: no such file or directory`, 1);
    const parsed = parseDb(text);
    if (!parsed.ok) return exitWith(parsed.error, 1);
    const row = [crc32c(parsed.body).toString(16), String(parsed.db.revision), String(totalKeys(parsed.db)), humanizeBytes(byteSize(text)), STORAGE_VERSION];
    const format = flags.get('write-out') ?? 'simple';
    if (format === 'table') return res(goTable(['hash', 'revision', 'total keys', 'total size', 'version'], [row]));
    if (format === 'json') return res(`${JSON.stringify({ hash: crc32c(parsed.body), revision: parsed.db.revision, totalKey: totalKeys(parsed.db), totalSize: byteSize(text), version: STORAGE_VERSION })}\n`);
    return res(`${row.join(', ')}\n`);
  }
  // restore
  if (rest.length !== 1) return exitWith('snapshot restore requires exactly one argument', 128);
  const name = flags.get('name') ?? 'default';
  const peerURLs = (flags.get('initial-advertise-peer-urls') ?? 'http://localhost:2380').split(',');
  const token = flags.get('initial-cluster-token') ?? 'etcd-cluster';
  const initial = parseInitialCluster(flags.get('initial-cluster') ?? `${name}=http://localhost:2380`);
  const dataDir = (flags.get('data-dir') ?? `${name}.etcd`).replace(/\/+$/, '');
  const walDir = flags.get('wal-dir') ?? `${dataDir}/member/wal`;
  const snapDir = `${dataDir}/member/snap`;
  // VerifyBootstrap: this member's peer URLs must be in --initial-cluster under its name
  const mine = initial.filter((m) => m.name === name).map((m) => m.url);
  if (mine.length === 0) return exitWith(`couldn't find local name "${name}" in the initial cluster configuration`, 1);
  const [a, b] = [mine.sort().join(','), [...peerURLs].sort().join(',')];
  if (a !== b) return exitWith(`--initial-cluster has ${name}=${a} but missing from --initial-advertise-peer-urls=${peerURLs.join(',')} ("${a}"(resolved from "${a}") != "${b}"(resolved from "${b}"))`, 1);
  if (files.exists(dataDir) && (!files.isDir(dataDir) || files.list(dataDir).length > 0)) return exitWith(`data-dir "${dataDir}" not empty or could not be read`, 1);
  const text = files.read(rest[0]!);
  const now = c.now();
  const fields = { path: rest[0], 'wal-dir': walDir, 'data-dir': dataDir, 'snap-dir': snapDir, 'initial-memory-map-size': 10737418240 };
  let stderr = consoleLine(now, 'snapshot/v3_snapshot.go:305', 'restoring snapshot', fields);
  if (text === undefined) return exitWith(`open ${rest[0]}: no such file or directory`, 1, stderr);
  const parsed = parseDb(text);
  if (!parsed.ok) return exitWith(parsed.error, 1, stderr);
  if (flags.get('skip-hash-check') !== 'true') {
    if (!parsed.hasChecksum) return exitWith('snapshot missing hash but --skip-hash-check=false', 1, stderr);
    if (!parsed.checksumOk) return exitWith('expected sha256 of the snapshot does not match its contents', 1, stderr);
  }
  const members = initial.map((m) => ({ id: memberId([m.url], token), name: m.name, peerURLs: [m.url], clientURLs: [] as string[] }));
  const cid = clusterId(members.map((m) => m.id));
  const db: EtcdDb = { clusterId: cid, members, revision: parsed.db.revision, store: parsed.db.store };
  for (const m of members)
    stderr += consoleLine(now, 'membership/cluster.go:423', 'added member', { 'cluster-id': cid, 'local-member-id': '0', 'added-peer-id': hexId(m.id), 'added-peer-peer-urls': m.peerURLs, 'added-peer-is-learner': false });
  const host = c.host(files.node);
  if (!host) return notInstalled(ctx);
  // the data directory as the command sees it: a container path under a hostPath mount lands on the node
  if (ctx.location.kind === 'node') writeDataDir(host, resolve(ctx.cwd, dataDir), db);
  else {
    files.mkdir(`${dataDir}/member/snap`);
    files.mkdir(`${dataDir}/member/wal`);
    const tmp = writeViaFiles(db);
    for (const [rel, body] of Object.entries(tmp)) files.write(`${dataDir}/${rel}`, body, 0o600);
  }
  stderr += consoleLine(now, 'snapshot/v3_snapshot.go:333', 'restored snapshot', fields);
  return res('', stderr);
};

function resolve(cwd: string, p: string): string {
  return p.startsWith('/') ? p : `${cwd.replace(/\/$/, '')}/${p}`;
}

/** The files of a data directory (for a container's view, where writeDataDir's host is not at hand). */
function writeViaFiles(db: EtcdDb): Record<string, string> {
  const fake: Record<string, string> = {};
  const shim = { fs: { mkdir: () => {}, write: (p: string, t: string) => void (fake[p.replace(/^\/x\//, '')] = t) } };
  writeDataDir(shim as unknown as Parameters<typeof writeDataDir>[0], '/x', db);
  return fake;
}
