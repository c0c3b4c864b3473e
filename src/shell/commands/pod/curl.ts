/**
 * `curl` 8.x (lib/connect.c, src/tool_operate.c): `-s`, `-S`, `-v`, `-I`, `-m SEC`,
 * `--connect-timeout SEC`, `-o FILE`, `-w '%{http_code}'`, `-H`, `-k`, `--cacert`, `--resolve`.
 * HTTPS to NGINX Gateway Fabric's data plane goes through a TLS handshake (SNI from the URL's host,
 * none for an IP) and curl's certificate checks before the request is served. Errors as curl prints them:
 * `curl: (6) Could not resolve host: x`, `curl: (7) Failed to connect to X port 80 after 0 ms:
 * Couldn't connect to server`, `curl: (28) Connection timed out after N milliseconds`.
 */
import type { CommandContext } from '../../types.js';
import type { ShellResult } from '../types.js';
import { dnsSession, dnsWhy, recordWhy, resolveHost, result, sourceOf, TCP_CONNECT_TIMEOUT_MS } from './net.js';
import { httpRequest, parseUrl } from './http.js';
import { componentAnswer, SSL_HELP, verifyCertificate } from './component-http.js';
import { readCertificatePem } from '../../../sim/pki/x509.js';
import type { Credentials } from '../../../sim/authn.js';

interface Opts {
  silent: boolean;
  showError: boolean;
  verbose: boolean;
  head: boolean;
  maxTimeS?: number;
  output?: string;
  writeOut?: string;
  url?: string;
  /** `-H 'Host: x'`: the Host header the server routes by. */
  hostHeader?: string;
  /** Every other `-H 'Name: value'` (a Gateway's HTTPRoute may match on headers). */
  headers: Record<string, string>;
  /** `-X METHOD`. */
  method?: string;
  /** `-k`/`--insecure`: do not verify the server's certificate. */
  insecure: boolean;
  /** `--cacert FILE`. */
  cacert?: string;
  /** `--cert FILE` (with `--key`): a client certificate. */
  cert?: string;
  /** `--resolve HOST:PORT:ADDR`: where a host and port connect, instead of asking DNS. */
  resolve: string[];
}

/** Short options that take a value: in the same word (`-m2`, `-o/dev/null`) or the next one. */
const SHORT_WITH_VALUE = new Set(['m', 'o', 'w', 'H', 'X', 'd', 'A', 'u', 'e', 'E']);
/** Short switches: curl lets them be bundled (`-sSL`, `-skL`, and with a value last, `-sm2`). */
const SHORT_SWITCHES = new Set(['s', 'S', 'v', 'I', 'k', 'L', 'f', 'i', '4', '6']);

function setValue(o: Opts, flag: string, v: string): void {
  if (flag === 'm' || flag === '--max-time' || flag === '--connect-timeout') o.maxTimeS = Number(v);
  else if (flag === 'o' || flag === '--output') o.output = v;
  else if (flag === 'w' || flag === '--write-out') o.writeOut = v;
  else if (flag === 'H' || flag === '--header') {
    const h = /^\s*([^:\s]+)\s*:\s*(.*?)\s*$/.exec(v);
    if (h && h[1]!.toLowerCase() === 'host') o.hostHeader = h[2] ?? '';
    else if (h) o.headers[h[1]!] = h[2] ?? '';
  } else if (flag === 'X' || flag === '--request') o.method = v || 'GET';
  else if (flag === '--cacert') o.cacert = v;
  else if (flag === '--cert' || flag === 'E') o.cert = v;
  else if (flag === '--resolve') o.resolve.push(v);
}

function setSwitch(o: Opts, ch: string): void {
  if (ch === 's') o.silent = true;
  if (ch === 'S') o.showError = true;
  if (ch === 'v') o.verbose = true;
  if (ch === 'I') o.head = true;
  if (ch === 'k') o.insecure = true;
}

/** curl's command line (src/tool_getparam.c): long options, and short ones bundled as getparameter walks them. */
function parse(argv: string[]): Opts | string {
  const o: Opts = { silent: false, showError: false, verbose: false, head: false, headers: {}, insecure: false, resolve: [] };
  const LONG_VALUE = ['--max-time', '--connect-timeout', '--output', '--write-out', '--header', '--request', '--data', '--user-agent', '--user', '--referer', '--cacert', '--cert', '--key', '--capath', '--resolve'];
  for (let i = 0; i < argv.length; i++) {
    const a = argv[i]!;
    if (LONG_VALUE.includes(a)) setValue(o, a, argv[++i] ?? '');
    else if (a === '--silent') o.silent = true;
    else if (a === '--show-error') o.showError = true;
    else if (a === '--verbose') o.verbose = true;
    else if (a === '--head') o.head = true;
    else if (a === '--insecure') o.insecure = true;
    else if (['--location', '--fail', '--include'].includes(a)) continue;
    else if (a.startsWith('-') && !a.startsWith('--') && a.length > 1) {
      for (let k = 1; k < a.length; k++) {
        const ch = a[k]!;
        if (SHORT_WITH_VALUE.has(ch)) {
          setValue(o, ch, k + 1 < a.length ? a.slice(k + 1) : (argv[++i] ?? ''));
          break;
        }
        if (!SHORT_SWITCHES.has(ch)) return a;
        setSwitch(o, ch);
      }
    } else if (a.startsWith('-')) return a;
    else o.url = a;
  }
  return o;
}

/** What curl presents to a TLS server: `-H 'Authorization: Bearer TOKEN'`, or `--cert FILE`. */
function credentialsOf(ctx: CommandContext, o: Opts): { credentials?: Credentials } {
  const auth = Object.entries(o.headers).find(([k]) => k.toLowerCase() === 'authorization')?.[1];
  const bearer = auth ? /^Bearer\s+(\S+)$/i.exec(auth)?.[1] : undefined;
  if (bearer) return { credentials: { token: bearer } };
  if (o.cert !== undefined) {
    const pem = ctx.fs.tryRead(o.cert.startsWith('/') ? o.cert : `${ctx.cwd.replace(/\/$/, '')}/${o.cert}`);
    if (pem) return { credentials: { clientCertificate: pem } };
  }
  return {};
}

/**
 * The address `--resolve HOST:PORT:ADDR[,ADDR…]` gives `host`:`port` (lib/hostip.c
 * Curl_loadhostpairs; `*` as HOST matches any, a `+` prefix is accepted, ADDR may be bracketed).
 */
function resolveEntry(entries: readonly string[], host: string, port: number): string | undefined {
  for (const e of entries) {
    const m = /^\+?([^:]+):(\d+):(.+)$/.exec(e);
    if (!m || Number(m[2]) !== port || (m[1] !== '*' && m[1]!.toLowerCase() !== host.toLowerCase())) continue;
    return m[3]!.split(',')[0]!.replace(/^\[(.*)\]$/, '$1');
  }
  return undefined;
}

function expand(w: string, code: number): string {
  return w.replace(/%\{http_code\}/g, String(code).padStart(3, '0')).replace(/\\n/g, '\n');
}

export function curl(ctx: CommandContext): ShellResult {
  const c = ctx.cluster;
  const o = parse(ctx.argv.slice(1));
  if (typeof o === 'string') return result('', `curl: option ${o}: is unknown\ncurl: try 'curl --help' or 'curl --manual' for more information\n`, 2);
  if (!o.url || !c) return result('', "curl: try 'curl --help' or 'curl --manual' for more information\n", 2);
  const url = parseUrl(o.url);
  if (!url) return result('', `curl: (3) URL rejected: Malformed input to a URL function\n`, 3);
  const err = (code: number, msg: string, adv: number, w = 0): ShellResult =>
    result(o.writeOut !== undefined ? expand(o.writeOut, w) : '', !o.silent || o.showError ? `curl: (${code}) ${msg}\n` : '', code, adv);
  const dns = dnsSession(ctx, c);
  const pinned = resolveEntry(o.resolve, url.host, url.port);
  const r = pinned !== undefined ? { ok: true as const, ip: pinned, elapsedMs: 0 } : resolveHost(ctx, dns, url.host);
  const why = [`$ ${ctx.argv.join(' ')}`, ...(r.ok && r.ip === url.host ? [] : dnsWhy(dns))];
  if (!r.ok) {
    recordWhy(c, 'curl', [...why, `name ${url.host} did not resolve (${r.reason})`]);
    return err(6, `Could not resolve host: ${url.host}`, r.elapsedMs);
  }
  const tlsReq = { scheme: url.scheme, host: url.host, path: `${url.path}${url.query}`, insecure: o.insecure, ...(o.cacert !== undefined ? { cacert: o.cacert } : {}), fs: ctx.fs, cwd: ctx.cwd };
  const isIp = /^[\d.]+$/.test(url.host) || url.host.includes(':');
  const { conn, response: site, tlsFailure } = httpRequest(c, sourceOf(ctx), r.ip, url.port, url.path, o.hostHeader ?? url.host, {
    method: o.method ?? (o.head ? 'HEAD' : 'GET'),
    headers: o.headers,
    ...(url.query.length > 1 ? { query: url.query.slice(1) } : {}),
    // curl sends no SNI for an IP address (lib/vtls/openssl.c: SSL_set_tlsext_host_name only for a name)
    ...(url.scheme === 'https' ? { tls: { sni: isIp ? undefined : url.host, verify: (pem: string) => verifyCertificate(readCertificatePem(pem), 'SSL certificate problem: unable to get local issuer certificate', tlsReq, c.now()) } } : {}),
  });
  recordWhy(c, 'curl', [...why, ...conn.trace]);
  // curl 8 brackets an IPv6 address in its connect lines (lib/connect.c, Curl_addr2string)
  const shown = r.ip.includes(':') ? `[${r.ip}]` : r.ip;
  const verbose = o.verbose ? `*   Trying ${shown}:${url.port}...\n` : '';
  if (!conn.ok) {
    // an unreachable network fails at once, as a refused connection does
    if (conn.error === 'refused' || conn.error === 'no-route') return { ...err(7, `Failed to connect to ${url.host} port ${url.port} after 0 ms: Couldn't connect to server`, r.elapsedMs), stderr: `${verbose}${!o.silent || o.showError ? `curl: (7) Failed to connect to ${url.host} port ${url.port} after 0 ms: Couldn't connect to server\n` : ''}` };
    if (o.maxTimeS !== undefined) {
      const ms = Math.round(o.maxTimeS * 1000) + 1;
      return err(28, `Connection timed out after ${ms} milliseconds`, r.elapsedMs + ms);
    }
    return err(28, `Failed to connect to ${url.host} port ${url.port} after ${TCP_CONNECT_TIMEOUT_MS} ms: Couldn't connect to server`, r.elapsedMs + TCP_CONNECT_TIMEOUT_MS);
  }
  if (tlsFailure) {
    const shown = !o.silent || o.showError;
    return { ...err(tlsFailure.curlError, tlsFailure.message, r.elapsedMs), stderr: `${verbose}${shown ? `curl: (${tlsFailure.curlError}) ${tlsFailure.message}\n${tlsFailure.sslHelp ? SSL_HELP : ''}` : ''}` };
  }
  const component = componentAnswer(c, conn, { ...tlsReq, ...credentialsOf(ctx, o) });
  if (component && 'curlError' in component) {
    const shown = !o.silent || o.showError;
    return { ...err(component.curlError, component.message, r.elapsedMs), stderr: shown ? `curl: (${component.curlError}) ${component.message}\n${component.sslHelp ? SSL_HELP : ''}` : '' };
  }
  const response = component?.response ?? site;
  if (!response) return err(52, 'Empty reply from server', r.elapsedMs);
  const headers = `HTTP/1.1 ${response.status} ${response.reason}\r\n${response.server ? `Server: ${response.server}\r\n` : ''}Content-Type: ${response.contentType ?? 'text/html'}\r\nContent-Length: ${Buffer.byteLength(response.body)}\r\nConnection: keep-alive\r\n${response.location ? `Location: ${response.location}\r\n` : ''}\r\n`;
  const body = o.head ? headers : response.body;
  const v = o.verbose ? `${verbose}* Connected to ${url.host} (${r.ip}) port ${url.port}\n> ${o.head ? 'HEAD' : 'GET'} ${url.path} HTTP/1.1\n> Host: ${o.hostHeader ?? `${url.host.includes(':') ? `[${url.host}]` : url.host}${url.port === (url.scheme === 'https' ? 443 : 80) ? '' : `:${url.port}`}`}\n> User-Agent: curl/8.14.1\n> Accept: */*\n> \n${headers.split('\r\n').filter((l) => l !== '').map((l) => `< ${l}\n`).join('')}< \n` : '';
  const wout = o.writeOut !== undefined ? expand(o.writeOut, response.status) : '';
  if (o.output !== undefined && o.output !== '-') {
    const path = o.output.startsWith('/') ? o.output : `${ctx.cwd.replace(/\/$/, '')}/${o.output}`;
    if (o.output !== '/dev/null') ctx.fs.write(path, body);
    return result(wout, v, 0, r.elapsedMs);
  }
  return result(`${body}${wout}`, v, 0, r.elapsedMs);
}
