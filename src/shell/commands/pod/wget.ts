/**
 * `wget` — busybox 1.36 (networking/wget.c) inside containers, GNU Wget 1.21 on nodes and the
 * workstation. Busybox: `-q`, `-O FILE|-`, `-T SEC`, `--spider`, `-S`; messages `wget: bad address
 * 'x'`, `wget: can't connect to remote host (IP): Connection refused`, `wget: download timed out`,
 * `wget: server returned error: HTTP/1.1 404 Not Found`. GNU: exit 4 on network failure, 8 on an
 * HTTP error, messages on stderr unless -q.
 *
 * Busybox names the server as the URL wrote it, port included (parse_url keeps `host:port` and
 * xhost2sockaddr parses it): `bad address 'web:80'`, `Connecting to web:80 (10.96.0.10:80)`. That
 * line comes once the name resolved, before the connection is tried (wget.c download_one_url,
 * unless -q), so it precedes a refused or timed-out connect too. Without -O the file is opened
 * O_EXCL (G.o_flags): an existing index.html fails with `wget: can't open 'index.html': File exists`.
 */
import type { CommandContext } from '../../types.js';
import type { ShellResult } from '../types.js';
import { dnsSession, dnsWhy, recordWhy, resolveHost, result, sourceOf, TCP_CONNECT_TIMEOUT_MS } from './net.js';
import { httpRequest, parseUrl } from './http.js';

interface Opts {
  quiet: boolean;
  output?: string;
  timeoutS?: number;
  spider: boolean;
  url?: string;
}

function parse(argv: string[]): Opts | string {
  const o: Opts = { quiet: false, spider: false };
  for (let i = 0; i < argv.length; i++) {
    const a = argv[i]!;
    if (a === '--spider') o.spider = true;
    else if (a === '-O' || a === '--output-document') o.output = argv[++i] ?? '';
    else if (a.startsWith('--output-document=')) o.output = a.slice(18);
    else if (a === '-T' || a === '--timeout') o.timeoutS = Number(argv[++i]);
    else if (a.startsWith('--timeout=')) o.timeoutS = Number(a.slice(10));
    else if (a === '-q' || a === '--quiet') o.quiet = true;
    else if (/^-[qOTS]+/.test(a)) {
      // bundled short options: -qO- , -qO file, -T3
      for (let j = 1; j < a.length; j++) {
        const ch = a[j];
        if (ch === 'q') o.quiet = true;
        else if (ch === 'S') continue;
        else if (ch === 'O' || ch === 'T') {
          const rest = a.slice(j + 1);
          const v = rest !== '' ? rest : argv[++i] ?? '';
          if (ch === 'O') o.output = v;
          else o.timeoutS = Number(v);
          break;
        }
      }
    } else if (a.startsWith('-')) return a;
    else o.url = a;
  }
  return o;
}

export function wget(ctx: CommandContext): ShellResult {
  const c = ctx.cluster;
  const busybox = ctx.location.kind === 'pod';
  const o = parse(ctx.argv.slice(1));
  if (typeof o === 'string') return result('', busybox ? `wget: unrecognized option '${o.replace(/^-+/, '')}'\n` : `wget: invalid option -- '${o.replace(/^-+/, '')}'\n`, busybox ? 1 : 2);
  if (!o.url || !c) return result('', busybox ? 'BusyBox v1.36.1 (2023-05-18 22:34:17 UTC) multi-call binary.\n\nUsage: wget [-cqS] [--spider] [-O FILE] [-o LOGFILE] [--header STR]\n\t[--post-data STR | --post-file FILE] [-Y on/off]\n\t[-P DIR] [-U AGENT] [-T SEC] URL...\n' : 'wget: missing URL\n', 1);
  const url = parseUrl(o.url);
  if (!url) return result('', `wget: bad address '${o.url}'\n`, 1);
  const dns = dnsSession(ctx, c);
  const r = resolveHost(ctx, dns, url.host);
  const why = [`$ ${ctx.argv.join(' ')}`, ...(url.host === (r.ok ? r.ip : '') ? [] : dnsWhy(dns))];
  if (!r.ok) {
    recordWhy(c, 'wget', [...why, `name ${url.host} did not resolve (${r.reason})`]);
    return busybox
      ? result('', `wget: bad address '${url.authority}'\n`, 1, r.elapsedMs)
      : result('', o.quiet ? '' : `--${ts(c.now())}--  ${o.url}\nResolving ${url.host} (${url.host})... failed: ${r.reason === 'NXDOMAIN' ? 'Name or service not known' : 'Temporary failure in name resolution'}.\nwget: unable to resolve host address ‘${url.host}’\n`, 4, r.elapsedMs);
  }
  const { conn, response } = httpRequest(c, sourceOf(ctx), r.ip, url.port, url.path, url.host);
  recordWhy(c, 'wget', [...why, ...conn.trace]);
  const hostport = `${r.ip}:${url.port}`;
  const progress = busybox && !o.quiet ? `Connecting to ${url.authority} (${hostport})\n` : '';
  if (!conn.ok) {
    if (conn.error === 'refused') {
      return busybox
        ? result('', `${progress}wget: can't connect to remote host (${r.ip}): Connection refused\n`, 1, r.elapsedMs)
        : result('', o.quiet ? '' : `--${ts(c.now())}--  ${o.url}\nConnecting to ${url.host === r.ip ? hostport : `${url.host} (${url.host})|${hostport}`}... failed: Connection refused.\n`, 4, r.elapsedMs);
    }
    if (busybox) {
      if (o.timeoutS !== undefined) return result('', `${progress}wget: download timed out\n`, 1, r.elapsedMs + o.timeoutS * 1000);
      return result('', `${progress}wget: can't connect to remote host (${r.ip}): Connection timed out\n`, 1, r.elapsedMs + TCP_CONNECT_TIMEOUT_MS);
    }
    const t = o.timeoutS !== undefined ? o.timeoutS * 1000 : 900_000;
    return result('', o.quiet ? '' : `--${ts(c.now())}--  ${o.url}\nConnecting to ${hostport}... failed: Connection timed out.\n`, 4, r.elapsedMs + Math.min(t, TCP_CONNECT_TIMEOUT_MS));
  }
  if (!response) return busybox ? result('', `${progress}wget: error getting response: Connection reset by peer\n`, 1) : result('', '', 4);
  if (response.status !== 200) {
    return busybox
      ? result('', `${progress}wget: server returned error: HTTP/1.1 ${response.status} ${response.reason}\n`, 1, r.elapsedMs)
      : result('', o.quiet ? '' : `--${ts(c.now())}--  ${o.url}\nConnecting to ${hostport}... connected.\nHTTP request sent, awaiting response... ${response.status} ${response.reason}\n${ts(c.now())} ERROR ${response.status}: ${response.reason}.\n\n`, 8, r.elapsedMs);
  }
  if (o.spider) return result('', busybox ? (o.quiet ? '' : `${progress}remote file exists\n`) : '', 0, r.elapsedMs);
  const len = Buffer.byteLength(response.body);
  if (o.output === '-') {
    const tail = busybox && !o.quiet ? `writing to stdout\n` : '';
    const done = busybox && !o.quiet ? `-                    100% |********************************|   ${len}  0:00:00 ETA\nwritten to stdout\n` : '';
    return result(response.body, `${progress}${tail}${done}`, 0, r.elapsedMs);
  }
  const file = o.output ?? (url.path.split('/').pop() || 'index.html');
  const path = file.startsWith('/') ? file : `${ctx.cwd.replace(/\/$/, '')}/${file}`;
  if (!busybox && !o.output && ctx.fs.exists(path)) return result('', '', 0);
  if (busybox && !o.output && ctx.fs.exists(path)) return result('', `${progress}wget: can't open '${file}': File exists\n`, 1, r.elapsedMs);
  ctx.fs.write(path, response.body);
  const msg = busybox && !o.quiet ? `${progress}saving to '${file}'\n${file.padEnd(20).slice(0, 20)} 100% |********************************|   ${len}  0:00:00 ETA\n'${file}' saved\n` : '';
  return result('', msg, 0, r.elapsedMs);
}

function ts(ms: number): string {
  return new Date(ms).toISOString().replace('T', ' ').slice(0, 19);
}
