/**
 * `ss` (iproute2 6.1 misc/ss.c) for listening and unconnected sockets: `-t -u -l -n -p -a -4 -6`
 * and their bundles (`-tlnp`, `-tulpn`, `-an`). Columns and spacing follow ss's renderer:
 * Netid (only when several socket types are shown), State, Recv-Q, Send-Q, "Local Address:" right
 * aligned + Port, "Peer Address:" right aligned + Port, Process; widths are the longest token
 * (+ the column's left delimiter), and on a terminal the spare width is spread over the columns
 * (render_calc_width). Without -n, well-known ports print by service name.
 */
import type { CommandFn } from '../../types.js';
import { shellExtras } from '../types.js';
import { hostEnv, notInstalled } from './host.js';
import type { Sock } from './sockets.js';
import { nodeSockets } from './sockets.js';

const SERVICES: Record<string, Record<number, string>> = {
  tcp: { 22: 'ssh', 53: 'domain', 2379: 'etcd-client', 2380: 'etcd-server' },
  udp: { 53: 'domain' },
};

interface Col {
  align: 'left' | 'right';
  header: string;
  ldelim: string;
  disabled: boolean;
}

export const ss: CommandFn = (ctx) => {
  const env = hostEnv(ctx);
  if (!env) return notInstalled(ctx);
  let tcp = false;
  let udp = false;
  let listening = false;
  let all = false;
  let numeric = false;
  let processes = false;
  let family: 4 | 6 | undefined;
  for (const a of ctx.argv.slice(1)) {
    const long: Record<string, string> = { '--tcp': 't', '--udp': 'u', '--listening': 'l', '--all': 'a', '--numeric': 'n', '--processes': 'p', '--ipv4': '4', '--ipv6': '6' };
    const letters = a.startsWith('--') ? long[a] : a.startsWith('-') ? a.slice(1) : undefined;
    if (letters === undefined) {
      return { stdout: '', stderr: a.startsWith('--') ? `ss: unrecognized option '${a}'\n` : `ss: bad filter "${a}"\n`, exitCode: 1 };
    }
    for (const ch of letters) {
      if (ch === 't') tcp = true;
      else if (ch === 'u') udp = true;
      else if (ch === 'l') listening = true;
      else if (ch === 'a') all = true;
      else if (ch === 'n') numeric = true;
      else if (ch === 'p') processes = true;
      else if (ch === '4') family = 4;
      else if (ch === '6') family = 6;
      else if (ch === 'e' || ch === 'o' || ch === 'm' || ch === 'i') continue;
      else return { stdout: '', stderr: `ss: invalid option -- '${ch}'\n`, exitCode: 1 };
    }
  }
  if (!tcp && !udp) tcp = true;
  const multi = tcp && udp;
  // without -l or -a ss shows established sockets only; the simulation has none to list
  const socks = listening || all ? nodeSockets(env.cluster, env.host).filter((s) => ((s.proto === 'tcp' && tcp) || (s.proto === 'udp' && udp)) && (!family || s.family === family)) : [];
  const cols: Col[] = [
    { align: 'left', header: 'Netid', ldelim: '', disabled: !multi },
    { align: 'left', header: 'State', ldelim: ' ', disabled: false },
    { align: 'left', header: 'Recv-Q', ldelim: ' ', disabled: false },
    { align: 'left', header: 'Send-Q', ldelim: ' ', disabled: false },
    { align: 'right', header: 'Local Address:', ldelim: ' ', disabled: false },
    { align: 'left', header: 'Port', ldelim: '', disabled: false },
    { align: 'right', header: 'Peer Address:', ldelim: ' ', disabled: false },
    { align: 'left', header: 'Port', ldelim: '', disabled: false },
    { align: 'left', header: 'Process', ldelim: '', disabled: false },
  ];
  const rows: string[][] = [cols.map((c) => c.header)];
  const ordered = multi ? [...socks.filter((s) => s.proto === 'udp'), ...socks.filter((s) => s.proto === 'tcp')] : socks;
  for (const s of ordered) rows.push(row(s, numeric, processes));
  const screen = shellExtras(ctx).stdoutIsTTY ? Number(ctx.env['COLUMNS'] ?? 80) || 80 : undefined;
  return { stdout: render(cols, rows, screen), stderr: '', exitCode: 0 };
};

function row(s: Sock, numeric: boolean, processes: boolean): string[] {
  const local = s.addr === '*' ? '*' : s.family === 6 ? `[${s.addr}]` : s.addr;
  const port = numeric ? String(s.port) : (SERVICES[s.proto]?.[s.port] ?? String(s.port));
  const peer = s.family === 6 ? (s.addr === '*' ? '*' : '[::]') : '0.0.0.0';
  const users = processes && s.comm ? ` users:(("${s.comm}",pid=${s.pid},fd=${s.fd}))` : '';
  return [s.proto, s.proto === 'tcp' ? 'LISTEN' : 'UNCONN', '0'.padEnd(6), String(s.proto === 'tcp' ? 4096 : 0).padEnd(6), `${local}${s.ifname ? `%${s.ifname}` : ''}:`, port, `${peer}:`, '*', users];
}

/** ss's render(): column widths from the longest token, spare terminal width spread over columns. */
function render(cols: Col[], rows: string[][], screen: number | undefined): string {
  const live = cols.map((c, i) => ({ ...c, i })).filter((c) => !c.disabled);
  const width = new Map<number, number>();
  let first = true;
  for (const c of live) {
    const max = Math.max(...rows.map((r) => r[c.i]!.length));
    const w = !first && max ? max + c.ldelim.length : max;
    width.set(c.i, w);
    if (w) first = false;
  }
  if (screen !== undefined) {
    const total = live.reduce((n, c) => n + (width.get(c.i) ?? 0), 0);
    const withWidth = live.filter((c) => (width.get(c.i) ?? 0) > 0);
    if (total < screen && withWidth.length) {
      const pad = screen - total;
      const spacing = Math.floor(pad / withWidth.length);
      let rem = pad % withWidth.length;
      for (const c of [...withWidth].reverse()) {
        width.set(c.i, width.get(c.i)! + spacing + (rem > 0 ? 1 : 0));
        if (rem > 0) rem--;
      }
    }
  }
  let out = '';
  for (const r of rows) {
    let line = '';
    let started = false;
    for (const c of live) {
      const tok = r[c.i]!;
      const w = width.get(c.i) ?? 0;
      let printed = 0;
      if (started) {
        line += c.ldelim;
        printed = c.ldelim.length;
      }
      started = true;
      if (w && c.align === 'right') {
        const s = w - tok.length - printed;
        if (s > 0) {
          line += ' '.repeat(s);
          printed += s;
        }
      }
      line += tok;
      printed += tok.length;
      if (w && c.align === 'left' && w - printed > 0) line += ' '.repeat(w - printed);
    }
    out += `${line}\n`;
  }
  return out;
}
