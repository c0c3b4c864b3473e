/**
 * `netstat` (net-tools 2.10 netstat.c) for the node's sockets: `-t -u -l -n -p -a` bundles
 * (`-tlnp`, `-tulpn`, `-anp`). Rows are printf("%-4s  %6ld %6ld %-23s %-23s %-11s") plus
 * " %-20s" PID/Program name (the name is "<pid>/<argv[0] basename or cmdline>", cut to 19
 * characters as prg_cache stores it).
 */
import type { CommandFn } from '../../types.js';
import { nodeEnv, notInstalled } from './host.js';
import { nodeSockets } from './sockets.js';

const SERVICES: Record<number, string> = { 22: 'ssh', 53: 'domain', 2379: 'etcd-client', 2380: 'etcd-server' };

export const netstat: CommandFn = (ctx) => {
  const env = nodeEnv(ctx);
  if (!env) return notInstalled(ctx);
  let tcp = false;
  let udp = false;
  let listening = false;
  let all = false;
  let numeric = false;
  let prog = false;
  for (const a of ctx.argv.slice(1)) {
    const long: Record<string, string> = { '--tcp': 't', '--udp': 'u', '--listening': 'l', '--all': 'a', '--numeric': 'n', '--program': 'p', '--programs': 'p' };
    const letters = a.startsWith('--') ? long[a] : a.startsWith('-') ? a.slice(1) : undefined;
    if (letters === undefined) return { stdout: '', stderr: `netstat: unrecognized option '${a}'\n`, exitCode: 1 };
    for (const ch of letters) {
      if (ch === 't') tcp = true;
      else if (ch === 'u') udp = true;
      else if (ch === 'l') listening = true;
      else if (ch === 'a') all = true;
      else if (ch === 'n') numeric = true;
      else if (ch === 'p') prog = true;
      else if (ch === 'e' || ch === 'W' || ch === '4') continue;
      else return { stdout: '', stderr: `netstat: invalid option -- '${ch}'\n`, exitCode: 1 };
    }
  }
  if (!tcp && !udp) tcp = udp = true;
  const title = all ? 'Active Internet connections (servers and established)' : listening ? 'Active Internet connections (only servers)' : 'Active Internet connections (w/o servers)';
  let s = `${title}\nProto Recv-Q Send-Q Local Address           Foreign Address         State      ${prog ? ` ${'PID/Program name'.padEnd(20)}` : ''}\n`;
  if (listening || all) {
    const socks = nodeSockets(env.cluster, env.host).filter((x) => (x.proto === 'tcp' && tcp) || (x.proto === 'udp' && udp));
    const ordered = [...socks.filter((x) => x.proto === 'tcp' && x.family === 4), ...socks.filter((x) => x.proto === 'tcp' && x.family === 6), ...socks.filter((x) => x.proto === 'udp')];
    for (const x of ordered) {
      const v6 = x.family === 6;
      const addr = v6 ? (x.addr === '*' || x.addr === '::' ? '::' : x.addr) : x.addr;
      const port = numeric ? String(x.port) : (SERVICES[x.port] ?? String(x.port));
      const local = v6 ? `${addr}:${port}` : `${addr}:${port}`;
      const foreign = v6 ? ':::*' : '0.0.0.0:*';
      const proto = `${x.proto}${v6 ? '6' : ''}`;
      const state = x.proto === 'tcp' ? 'LISTEN' : '';
      const p = x.pid ? `${x.pid}/${x.cmd ?? x.comm ?? ''}`.slice(0, 19) : '-';
      s += `${proto.padEnd(4)}  ${'0'.padStart(6)} ${'0'.padStart(6)} ${local.padEnd(23)} ${foreign.padEnd(23)} ${state.padEnd(11)}${prog ? ` ${p.padEnd(20)}` : ''}\n`;
    }
  }
  return { stdout: s, stderr: '', exitCode: 0 };
};
