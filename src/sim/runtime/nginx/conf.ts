/**
 * nginx's configuration reader, the subset a web server task touches: the tokenizer is
 * src/core/ngx_conf_file.c ngx_conf_read_token (quotes, `\` escapes, `#` comments, `${`), the
 * walk is ngx_conf_parse/ngx_conf_handler (a directive is looked up by name, then by the context
 * it appears in, then `;`/`{` termination, then its argument count: the same order, so the same
 * error wins), `include` is ngx_conf_include (a glob expands to sorted names and may match
 * nothing; a plain name must open). The directives the server uses (listen, server_name, root,
 * alias, index, location, return, error_page, try_files, default_type, types, autoindex,
 * server_tokens) build a plain-data model of the http block (NginxHttp), checked as their
 * handlers in src/http/ngx_http_core_module.c, ngx_http.c and ngx_http_rewrite_module.c check them.
 * Every error is nginx's own wording with ` in FILE:LINE` appended as ngx_conf_log_error does.
 * Pure: files come through `ReadConf`, so arbitrary text never throws and includes are bounded.
 */
import { linearRegExp } from '../../../util/regex/index.js';
import { remember } from '../../../util/bounded-map.js';
import { sameItems } from '../../../util/same-items.js';

/** Where an error or directive came from. */
export interface ConfError {
  message: string;
  file?: string;
  line?: number;
}

export function formatConfError(e: ConfError): string {
  return e.file !== undefined ? `${e.message} in ${e.file}:${e.line ?? 0}` : e.message;
}

/** Reading the container's files: text, or the errno name open(2) would fail with. */
export interface ReadConf {
  read(path: string): string | 'ENOENT' | 'EISDIR' | 'EACCES';
  /** Names matching a glob pattern (absolute), sorted as glob(3) sorts them. */
  glob(pattern: string): string[];
}

export interface Listen {
  /** `*` for every IPv4 address, `[::]` for every IPv6 one, else the address as written. */
  addr: string;
  port: number;
  ipv6: boolean;
  defaultServer: boolean;
  /** `0.0.0.0:80` / `[::]:80` as nginx prints a listen address. */
  text: string;
}

export interface ReturnDirective {
  code: number;
  /** Body text (2xx/4xx/5xx) or URL (3xx); undefined for a bare code. */
  text?: string;
}

export interface ErrorPage {
  codes: number[];
  /** `=CODE`: answer with this status; `=` alone: the status of the page's own answer. */
  overwrite?: number | 'page';
  uri: string;
}

/** Settings a level (http, server, location) sets; the request merges them innermost first. */
export interface Settings {
  root?: { path: string; alias: boolean };
  index?: string[];
  errorPages?: ErrorPage[];
  defaultType?: string;
  autoindex?: boolean;
  serverTokens?: 'on' | 'off' | 'build';
  tryFiles?: string[];
  /** The first `return` of the level's rewrite phase (the ones after it never run). */
  ret?: ReturnDirective;
  proxyPass?: string;
}

export interface NginxLocation {
  /** '' prefix, '^~' prefix without regex search, '=' exact, '~' / '~*' regex, '@' named. */
  modifier: '' | '^~' | '=' | '~' | '~*' | '@';
  path: string;
  settings: Settings;
  locations: NginxLocation[];
  file: string;
  line: number;
}

export interface NginxServer {
  listens: Listen[];
  names: string[];
  settings: Settings;
  locations: NginxLocation[];
  file: string;
  line: number;
}

export interface NginxHttp {
  settings: Settings;
  servers: NginxServer[];
  /** Extension → MIME type (the `types` blocks of http, e.g. mime.types). */
  types: Record<string, string>;
}

export interface NginxConf {
  http?: NginxHttp;
  /** `worker_processes` as written (auto when absent: one per CPU). */
  workerProcesses?: string;
  /** Files in the order nginx opened them (`nginx -T` dumps them so). */
  files: { path: string; text: string }[];
  /** Warnings nginx logs while it loads the configuration (`conflicting server name …`). */
  warnings: string[];
}

export type ParseResult = { ok: true; conf: NginxConf } | { ok: false; error: ConfError; files: { path: string; text: string }[] };

/* ------------------------------------------------------------------ tokenizer */

type Token = { kind: 'ok' | 'block' | 'done' | 'eof'; args: string[]; line: number } | { kind: 'error'; message: string; line: number };

/** ngx_conf_read_token over one file's text: one directive (or `}`, or the end) per call. */
export class Tokenizer {
  private pos = 0;
  line = 1;
  constructor(private readonly text: string) {}

  next(): Token {
    const t = this.text;
    const args: string[] = [];
    let needSpace = false;
    let lastSpace = true;
    let sharp = false;
    let variable = false;
    let quoted = false;
    let sq = false;
    let dq = false;
    let start = this.pos;
    for (;;) {
      if (this.pos >= t.length) {
        if (args.length > 0 || !lastSpace) return { kind: 'error', message: 'unexpected end of file, expecting ";" or "}"', line: this.line };
        return { kind: 'eof', args, line: this.line };
      }
      const ch = t[this.pos++]!;
      if (ch === '\n') {
        this.line++;
        if (sharp) sharp = false;
      }
      if (sharp) continue;
      if (quoted) {
        quoted = false;
        continue;
      }
      if (needSpace) {
        if (ch === ' ' || ch === '\t' || ch === '\r' || ch === '\n') {
          lastSpace = true;
          needSpace = false;
          continue;
        }
        if (ch === ';') return { kind: 'ok', args, line: this.line };
        if (ch === '{') return { kind: 'block', args, line: this.line };
        if (ch === ')') {
          lastSpace = true;
          needSpace = false;
        } else return { kind: 'error', message: `unexpected "${ch}"`, line: this.line };
      }
      if (lastSpace) {
        start = this.pos - 1;
        if (ch === ' ' || ch === '\t' || ch === '\r' || ch === '\n') continue;
        switch (ch) {
          case ';':
          case '{':
            if (args.length === 0) return { kind: 'error', message: `unexpected "${ch}"`, line: this.line };
            return { kind: ch === '{' ? 'block' : 'ok', args, line: this.line };
          case '}':
            if (args.length !== 0) return { kind: 'error', message: 'unexpected "}"', line: this.line };
            return { kind: 'done', args, line: this.line };
          case '#':
            sharp = true;
            continue;
          case '\\':
            quoted = true;
            lastSpace = false;
            continue;
          case '"':
            start++;
            dq = true;
            lastSpace = false;
            continue;
          case "'":
            start++;
            sq = true;
            lastSpace = false;
            continue;
          case '$':
            variable = true;
            lastSpace = false;
            continue;
          default:
            lastSpace = false;
        }
        continue;
      }
      if (ch === '{' && variable) continue;
      variable = false;
      if (ch === '\\') {
        quoted = true;
        continue;
      }
      if (ch === '$') {
        variable = true;
        continue;
      }
      let found = false;
      if (dq) {
        if (ch === '"') {
          dq = false;
          needSpace = true;
          found = true;
        }
      } else if (sq) {
        if (ch === "'") {
          sq = false;
          needSpace = true;
          found = true;
        }
      } else if (ch === ' ' || ch === '\t' || ch === '\r' || ch === '\n' || ch === ';' || ch === '{') {
        lastSpace = true;
        found = true;
      }
      if (found) {
        args.push(unescape(t.slice(start, this.pos - 1)));
        if (ch === ';') return { kind: 'ok', args, line: this.line };
        if (ch === '{') return { kind: 'block', args, line: this.line };
      }
    }
  }
}

/** The word copy of ngx_conf_read_token: `\"`, `\'`, `\\` lose the backslash; `\t` `\r` `\n` become the character. */
function unescape(s: string): string {
  let out = '';
  for (let i = 0; i < s.length; i++) {
    const c = s[i]!;
    if (c === '\\' && i + 1 < s.length) {
      const n = s[i + 1]!;
      if (n === '"' || n === "'" || n === '\\') {
        out += n;
        i++;
        continue;
      }
      if (n === 't' || n === 'r' || n === 'n') {
        out += n === 't' ? '\t' : n === 'r' ? '\r' : '\n';
        i++;
        continue;
      }
    }
    out += c;
  }
  return out;
}

/* ------------------------------------------------------------------ directives */

const MAIN = 1, EVENTS = 2, HTTP = 4, SRV = 8, LOC = 16, UPS = 32, SIF = 64, LIF = 128, LMT = 256, ANY = 0x1ff;

/** Argument counts (ngx_conf_file.h NGX_CONF_TAKE*, 1MORE, 2MORE, FLAG, ANY). */
type Args = number[] | '1more' | '2more' | 'flag' | 'any';

interface Spec {
  ctx: number;
  args: Args;
  block?: boolean;
  /** The block's body is entries for a custom handler (types, map): not directives. */
  raw?: boolean;
  /** A single-value slot: a second one in the same block is `"X" directive is duplicate`. */
  slot?: boolean;
}

const T = (...n: number[]): number[] => n;

/**
 * The directives of the modules the nginx image is built with that tasks write, with their
 * contexts and argument counts as their ngx_command_t entries declare them. A directive not
 * listed is `unknown directive`, as it would be for a module the binary lacks.
 */
const DIRECTIVES: Record<string, Spec[]> = {
  // core (src/core/nginx.c, ngx_conf_file.c, ngx_log.c)
  include: [{ ctx: ANY, args: T(1) }],
  user: [{ ctx: MAIN, args: T(1, 2), slot: true }],
  worker_processes: [{ ctx: MAIN, args: T(1), slot: true }],
  worker_rlimit_nofile: [{ ctx: MAIN, args: T(1), slot: true }],
  worker_cpu_affinity: [{ ctx: MAIN, args: '1more' }],
  pid: [{ ctx: MAIN, args: T(1), slot: true }],
  daemon: [{ ctx: MAIN, args: 'flag', slot: true }],
  master_process: [{ ctx: MAIN, args: 'flag', slot: true }],
  env: [{ ctx: MAIN, args: T(1) }],
  load_module: [{ ctx: MAIN, args: T(1) }],
  error_log: [{ ctx: MAIN | HTTP | SRV | LOC, args: '1more' }],
  events: [{ ctx: MAIN, args: T(0), block: true }],
  worker_connections: [{ ctx: EVENTS, args: T(1), slot: true }],
  use: [{ ctx: EVENTS, args: T(1), slot: true }],
  multi_accept: [{ ctx: EVENTS, args: 'flag', slot: true }],
  accept_mutex: [{ ctx: EVENTS, args: 'flag', slot: true }],
  http: [{ ctx: MAIN, args: T(0), block: true }],
  stream: [{ ctx: MAIN, args: T(0), block: true, raw: true }],
  // http core (src/http/ngx_http_core_module.c)
  server: [{ ctx: HTTP, args: T(0), block: true }, { ctx: UPS, args: '1more' }],
  location: [{ ctx: SRV | LOC, args: T(1, 2), block: true }],
  listen: [{ ctx: SRV, args: '1more' }],
  server_name: [{ ctx: SRV, args: '1more' }],
  types: [{ ctx: HTTP | SRV | LOC, args: T(0), block: true, raw: true }],
  default_type: [{ ctx: HTTP | SRV | LOC, args: T(1), slot: true }],
  root: [{ ctx: HTTP | SRV | LOC | LIF, args: T(1) }],
  alias: [{ ctx: LOC, args: T(1) }],
  index: [{ ctx: HTTP | SRV | LOC, args: '1more' }],
  error_page: [{ ctx: HTTP | SRV | LOC | LIF, args: '2more' }],
  try_files: [{ ctx: SRV | LOC, args: '2more' }],
  internal: [{ ctx: LOC, args: T(0) }],
  limit_except: [{ ctx: LOC, args: '1more', block: true }],
  client_max_body_size: [{ ctx: HTTP | SRV | LOC, args: T(1), slot: true }],
  client_body_buffer_size: [{ ctx: HTTP | SRV | LOC, args: T(1), slot: true }],
  client_header_buffer_size: [{ ctx: HTTP | SRV, args: T(1), slot: true }],
  large_client_header_buffers: [{ ctx: HTTP | SRV, args: T(2), slot: true }],
  sendfile: [{ ctx: HTTP | SRV | LOC | LIF, args: 'flag', slot: true }],
  tcp_nopush: [{ ctx: HTTP | SRV | LOC, args: 'flag', slot: true }],
  tcp_nodelay: [{ ctx: HTTP | SRV | LOC, args: 'flag', slot: true }],
  keepalive_timeout: [{ ctx: HTTP | SRV | LOC, args: T(1, 2), slot: true }],
  keepalive_requests: [{ ctx: HTTP | SRV | LOC, args: T(1), slot: true }],
  send_timeout: [{ ctx: HTTP | SRV | LOC, args: T(1), slot: true }],
  server_tokens: [{ ctx: HTTP | SRV | LOC, args: T(1), slot: true }],
  server_names_hash_bucket_size: [{ ctx: HTTP, args: T(1), slot: true }],
  types_hash_max_size: [{ ctx: HTTP | SRV | LOC, args: T(1), slot: true }],
  port_in_redirect: [{ ctx: HTTP | SRV | LOC, args: 'flag', slot: true }],
  absolute_redirect: [{ ctx: HTTP | SRV | LOC, args: 'flag', slot: true }],
  server_name_in_redirect: [{ ctx: HTTP | SRV | LOC, args: 'flag', slot: true }],
  resolver: [{ ctx: HTTP | SRV | LOC, args: '1more' }],
  etag: [{ ctx: HTTP | SRV | LOC, args: 'flag', slot: true }],
  // log, headers, index, autoindex, access, auth, static modules
  log_format: [{ ctx: HTTP, args: '2more' }],
  access_log: [{ ctx: HTTP | SRV | LOC | LIF | LMT, args: '1more' }],
  add_header: [{ ctx: HTTP | SRV | LOC | LIF, args: T(2, 3) }],
  expires: [{ ctx: HTTP | SRV | LOC | LIF, args: T(1, 2), slot: true }],
  autoindex: [{ ctx: HTTP | SRV | LOC, args: 'flag', slot: true }],
  charset: [{ ctx: HTTP | SRV | LOC | LIF, args: T(1), slot: true }],
  allow: [{ ctx: HTTP | SRV | LOC | LMT, args: T(1) }],
  deny: [{ ctx: HTTP | SRV | LOC | LMT, args: T(1) }],
  auth_basic: [{ ctx: HTTP | SRV | LOC | LMT, args: T(1), slot: true }],
  auth_basic_user_file: [{ ctx: HTTP | SRV | LOC | LMT, args: T(1), slot: true }],
  gzip: [{ ctx: HTTP | SRV | LOC | LIF, args: 'flag', slot: true }],
  gzip_types: [{ ctx: HTTP | SRV | LOC, args: '1more' }],
  gzip_min_length: [{ ctx: HTTP | SRV | LOC, args: T(1), slot: true }],
  stub_status: [{ ctx: SRV | LOC, args: T(0, 1) }],
  sub_filter: [{ ctx: HTTP | SRV | LOC, args: T(2) }],
  ssi: [{ ctx: HTTP | SRV | LOC | LIF, args: 'flag', slot: true }],
  // rewrite module
  return: [{ ctx: SRV | SIF | LOC | LIF, args: T(1, 2) }],
  rewrite: [{ ctx: SRV | SIF | LOC | LIF, args: T(2, 3) }],
  set: [{ ctx: SRV | SIF | LOC | LIF, args: T(2) }],
  if: [{ ctx: SRV | LOC, args: '1more', block: true }],
  break: [{ ctx: SRV | SIF | LOC | LIF, args: T(0) }],
  // proxy, fastcgi, upstream, map, limits, ssl, real ip
  proxy_pass: [{ ctx: LOC | LIF | LMT, args: T(1) }],
  proxy_set_header: [{ ctx: HTTP | SRV | LOC, args: T(2) }],
  proxy_http_version: [{ ctx: HTTP | SRV | LOC, args: T(1), slot: true }],
  proxy_read_timeout: [{ ctx: HTTP | SRV | LOC, args: T(1), slot: true }],
  proxy_connect_timeout: [{ ctx: HTTP | SRV | LOC, args: T(1), slot: true }],
  proxy_send_timeout: [{ ctx: HTTP | SRV | LOC, args: T(1), slot: true }],
  proxy_redirect: [{ ctx: HTTP | SRV | LOC, args: T(1, 2) }],
  proxy_buffering: [{ ctx: HTTP | SRV | LOC, args: 'flag', slot: true }],
  fastcgi_pass: [{ ctx: LOC | LIF, args: T(1) }],
  fastcgi_param: [{ ctx: HTTP | SRV | LOC, args: T(2, 3) }],
  fastcgi_index: [{ ctx: HTTP | SRV | LOC, args: T(1), slot: true }],
  upstream: [{ ctx: HTTP, args: T(1), block: true }],
  keepalive: [{ ctx: UPS, args: T(1) }],
  least_conn: [{ ctx: UPS, args: T(0) }],
  ip_hash: [{ ctx: UPS, args: T(0) }],
  zone: [{ ctx: UPS, args: T(1, 2) }],
  map: [{ ctx: HTTP, args: T(2), block: true, raw: true }],
  limit_req_zone: [{ ctx: HTTP, args: '2more' }],
  limit_req: [{ ctx: HTTP | SRV | LOC, args: T(1, 2, 3) }],
  limit_conn_zone: [{ ctx: HTTP, args: T(2) }],
  limit_conn: [{ ctx: HTTP | SRV | LOC, args: T(2) }],
  ssl_certificate: [{ ctx: HTTP | SRV, args: T(1) }],
  ssl_certificate_key: [{ ctx: HTTP | SRV, args: T(1) }],
  ssl_protocols: [{ ctx: HTTP | SRV, args: '1more' }],
  ssl_ciphers: [{ ctx: HTTP | SRV, args: T(1), slot: true }],
  set_real_ip_from: [{ ctx: HTTP | SRV | LOC, args: T(1) }],
  real_ip_header: [{ ctx: HTTP | SRV | LOC, args: T(1), slot: true }],
};

const MAX_ARGS = 8;

/** ngx_conf_handler's argument check: true when the count (args after the name) fits. */
function argsFit(a: Args, n: number): boolean {
  if (a === 'any') return true;
  if (a === 'flag') return n === 1;
  if (a === '1more') return n >= 1;
  if (a === '2more') return n >= 2;
  return n + 1 <= MAX_ARGS && a.includes(n);
}

/* ------------------------------------------------------------------ walk */

/** nginx's conf prefix (`--conf-path=/etc/nginx/nginx.conf`): where relative includes resolve. */
export const CONF_PREFIX = '/etc/nginx/';
export const CONF_PATH = '/etc/nginx/nginx.conf';
/** Nesting of includes beyond which the simulation stops (nginx would run out of descriptors). */
const MAX_INCLUDE_DEPTH = 32;

class Fail extends Error {
  constructor(readonly error: ConfError) {
    super(error.message);
  }
}

interface Level {
  kind: 'main' | 'events' | 'http' | 'server' | 'location' | 'upstream' | 'if' | 'limit_except';
  ctx: number;
  settings?: Settings;
  server?: NginxServer;
  location?: NginxLocation;
  /** Slot directives already set in this block. */
  seen: Set<string>;
}

interface Walk {
  io: ReadConf;
  conf: NginxConf;
  http?: NginxHttp;
  depth: number;
  /** Variables `set` and `map` define, and the ones `return` texts use (checked once all is read). */
  defined: Set<string>;
  used: string[];
}

const ERRNO: Record<string, string> = { ENOENT: '2: No such file or directory', EACCES: '13: Permission denied', EISDIR: '21: Is a directory' };

/** Parse nginx.conf (and everything it includes) as `nginx` does when it starts, reloads or tests. */
export function parseNginxConf(io: ReadConf, path = CONF_PATH): ParseResult {
  const conf: NginxConf = { files: [], warnings: [] };
  const w: Walk = { io, conf, depth: 0, defined: new Set(), used: [] };
  try {
    const text = io.read(path);
    if (text === 'ENOENT' || text === 'EACCES' || text === 'EISDIR') {
      // ngx_conf_parse's open() failure has no file to point at yet
      throw new Fail({ message: `open() "${path}" failed (${ERRNO[text]})` });
    }
    parseFile(w, path, text, { kind: 'main', ctx: MAIN, seen: new Set() });
    if (w.http) conf.http = w.http;
    // ngx_http_variables_init_vars: a variable nobody defines fails the whole configuration, without a place
    const unknown = w.used.find((v) => !knownVariable(v) && !w.defined.has(v));
    if (unknown !== undefined) throw new Fail({ message: `unknown "${unknown}" variable` });
    conf.warnings.push(...serverNameConflicts(conf.http));
    return { ok: true, conf };
  } catch (e) {
    if (e instanceof Fail) return { ok: false, error: e.error, files: conf.files };
    throw e;
  }
}

/** One parse and the reads it made: the same reads giving the same answers give the same result. */
interface Recorded {
  reads: { glob: boolean; arg: string; out: string | readonly string[] }[];
  result: ParseResult;
}

const RECORDED = new Map<string, Recorded[]>();
const RECORDED_PER_PATH = 16;
const RECORDED_PATHS = 32;

/**
 * parseNginxConf, remembered by what it read: every nginx container parses its configuration
 * (nginx.conf, mime.types and the conf.d includes) when it starts, and a validate run starts the
 * same few configurations thousands of times. A remembered parse is used when every file it read
 * reads the same now (and every glob lists the same names), so an edited include misses. The
 * result is shared: callers only read it.
 */
export function parseNginxConfCached(files: ReadConf, path = CONF_PATH): ParseResult {
  const io = readsOnce(files);
  const seen = RECORDED.get(path) ?? [];
  for (const rec of seen) {
    const same = rec.reads.every((r) => (r.glob ? sameItems(io.glob(r.arg), r.out as readonly string[]) : io.read(r.arg) === r.out));
    if (same) return rec.result;
  }
  const reads: Recorded['reads'] = [];
  const recording: ReadConf = {
    read(p) {
      const out = io.read(p);
      reads.push({ glob: false, arg: p, out });
      return out;
    },
    glob(pattern) {
      const out = io.glob(pattern);
      reads.push({ glob: true, arg: pattern, out: [...out] });
      return out;
    },
  };
  const result = parseNginxConf(recording, path);
  if (seen.length >= RECORDED_PER_PATH) seen.shift();
  seen.push({ reads, result });
  // (`nginx -t -c FILE` may name any number of files: keep a few paths, not all)
  remember(RECORDED, path, seen, RECORDED_PATHS);
  return result;
}

/**
 * The files as one call sees them: nothing writes a file while a configuration is checked or
 * parsed, so a second read of a path (or listing of a pattern) answers as the first did. The
 * remembered parses of a path mostly read the same few files (nginx.conf, mime.types, conf.d/),
 * and checking each one read them all again.
 */
function readsOnce(io: ReadConf): ReadConf {
  const reads = new Map<string, string>();
  const globs = new Map<string, string[]>();
  return {
    read(p) {
      let out = reads.get(p);
      if (out === undefined) {
        out = io.read(p);
        reads.set(p, out);
      }
      return out;
    },
    glob(pattern) {
      let out = globs.get(pattern);
      if (out === undefined) {
        out = io.glob(pattern);
        globs.set(pattern, out);
      }
      return [...out];
    },
  };
}

function parseFile(w: Walk, path: string, text: string, level: Level): void {
  w.conf.files.push({ path, text });
  const tk = new Tokenizer(text);
  parseBlock(w, path, tk, level, 'file');
}

function parseBlock(w: Walk, file: string, tk: Tokenizer, level: Level, type: 'file' | 'block'): void {
  for (;;) {
    const t = tk.next();
    if (t.kind === 'error') throw new Fail({ message: t.message, file, line: t.line });
    if (t.kind === 'done') {
      if (type !== 'block') throw new Fail({ message: 'unexpected "}"', file, line: t.line });
      return;
    }
    if (t.kind === 'eof') {
      if (type === 'block') throw new Fail({ message: 'unexpected end of file, expecting "}"', file, line: t.line });
      return;
    }
    directive(w, file, tk, level, t.args, t.kind === 'block', t.line);
  }
}

/** A raw block (types, map): entries terminated by `;`, a nested `{` is an error (ngx_conf_parse's cf->handler branch). */
function rawBlock(file: string, tk: Tokenizer, onEntry: (args: string[], line: number) => void): void {
  for (;;) {
    const t = tk.next();
    if (t.kind === 'error') throw new Fail({ message: t.message, file, line: t.line });
    if (t.kind === 'done') return;
    if (t.kind === 'eof') throw new Fail({ message: 'unexpected end of file, expecting "}"', file, line: t.line });
    if (t.kind === 'block') throw new Fail({ message: 'unexpected "{"', file, line: t.line });
    onEntry(t.args, t.line);
  }
}

function directive(w: Walk, file: string, tk: Tokenizer, level: Level, args: string[], block: boolean, line: number): void {
  const name = args[0]!;
  const at = (message: string): Fail => new Fail({ message, file, line });
  const specs = DIRECTIVES[name];
  if (!specs) throw at(`unknown directive "${name}"`);
  const spec = specs.find((s) => (s.ctx & level.ctx) !== 0);
  if (!spec) throw at(`"${name}" directive is not allowed here`);
  if (!spec.block && block) throw at(`directive "${name}" is not terminated by ";"`);
  if (spec.block && !block) throw at(`directive "${name}" has no opening "{"`);
  if (!argsFit(spec.args, args.length - 1)) throw at(`invalid number of arguments in "${name}" directive`);
  if (spec.args === 'flag' && args[1] !== 'on' && args[1] !== 'off') {
    throw at(`invalid value "${args[1]}" in "${name}" directive, it must be "on" or "off"`);
  }
  if (spec.slot) {
    if (level.seen.has(name)) throw at(`"${name}" directive is duplicate`);
    level.seen.add(name);
  }
  const handler = HANDLERS[name];
  if (handler) handler({ w, file, tk, level, args, line, at, spec });
  else if (spec.block) rawBlock(file, tk, () => {});
}

interface HandlerArgs {
  w: Walk;
  file: string;
  tk: Tokenizer;
  level: Level;
  args: string[];
  line: number;
  at: (message: string) => Fail;
  spec: Spec;
}

/** The settings a directive writes at this level (server-level `if` and location `if` write their own, discarded). */
function settingsOf(level: Level): Settings {
  return (level.settings ??= {});
}

const HANDLERS: Record<string, (h: HandlerArgs) => void> = {
  include: ({ w, level, args, at }) => {
    const target = args[1]!.startsWith('/') ? args[1]! : `${CONF_PREFIX}${args[1]!}`;
    if (w.depth >= MAX_INCLUDE_DEPTH) throw at(`open() "${target}" failed (24: Too many open files)`);
    // ngx_conf_include: a name without glob characters must open; a glob may match nothing
    const names = /[*?[]/.test(target) ? w.io.glob(target) : [target];
    for (const n of names) {
      const text = w.io.read(n);
      if (text === 'ENOENT' || text === 'EACCES' || text === 'EISDIR') {
        if (text === 'EISDIR') continue;
        throw at(`open() "${n}" failed (${ERRNO[text]})`);
      }
      w.depth++;
      try {
        parseFile(w, n, text, level);
      } finally {
        w.depth--;
      }
    }
  },
  worker_processes: ({ w, args }) => {
    w.conf.workerProcesses = args[1]!;
  },
  events: ({ w, file, tk }) => parseBlock(w, file, tk, { kind: 'events', ctx: EVENTS, seen: new Set() }, 'block'),
  http: ({ w, file, tk, at }) => {
    if (w.http) throw at('"http" directive is duplicate');
    const http: NginxHttp = { settings: {}, servers: [], types: {} };
    w.http = http;
    parseBlock(w, file, tk, { kind: 'http', ctx: HTTP, settings: http.settings, seen: new Set() }, 'block');
  },
  types: ({ w, file, tk, level }) => {
    // ngx_http_core_type: every word after the type is an extension; a later entry replaces an earlier one
    const table: Record<string, string> = {};
    rawBlock(file, tk, (entry) => {
      for (const ext of entry.slice(1)) table[ext.toLowerCase()] = entry[0]!;
    });
    if (level.kind === 'http' && w.http) Object.assign(w.http.types, table);
  },
  server: ({ w, file, tk, level, args, line, at }) => {
    if (level.kind === 'upstream') {
      if (args.length < 2) throw at('invalid number of arguments in "server" directive');
      return;
    }
    const server: NginxServer = { listens: [], names: [], settings: {}, locations: [], file, line };
    parseBlock(w, file, tk, { kind: 'server', ctx: SRV, settings: server.settings, server, seen: new Set() }, 'block');
    // ngx_http_core_server: a server without listen listens on *:80 (or *:8000 when not root)
    if (server.listens.length === 0) server.listens.push({ addr: '*', port: 80, ipv6: false, defaultServer: false, text: '0.0.0.0:80' });
    if (server.names.length === 0) server.names.push('');
    w.http?.servers.push(server);
  },
  listen: (h) => listenDirective(h),
  server_name: ({ level, args }) => {
    level.server?.names.push(...args.slice(1).map((n) => n.toLowerCase()));
  },
  location: (h) => locationDirective(h),
  root: (h) => rootDirective(h, false),
  alias: (h) => rootDirective(h, true),
  index: ({ level, args, at }) => {
    for (const v of args.slice(1)) {
      if (v === '') throw at(`index "${v}" in "index" directive is invalid`);
    }
    const s = settingsOf(level);
    s.index = [...(s.index ?? []), ...args.slice(1)];
  },
  default_type: ({ level, args }) => {
    settingsOf(level).defaultType = args[1]!;
  },
  autoindex: ({ level, args }) => {
    settingsOf(level).autoindex = args[1] === 'on';
  },
  server_tokens: ({ level, args, at }) => {
    const v = args[1]!;
    if (v !== 'on' && v !== 'off' && v !== 'build') throw at(`invalid value "${v}" in "server_tokens" directive, it must be "on", "off" or "build"`);
    settingsOf(level).serverTokens = v;
  },
  try_files: ({ level, args, at }) => {
    const s = settingsOf(level);
    if (s.tryFiles) throw at('"try_files" directive is duplicate');
    const last = args[args.length - 1]!;
    if (/^=/.test(last) && !/^=\d+$/.test(last)) throw at(`invalid code "${last.slice(1)}"`);
    s.tryFiles = args.slice(1);
  },
  proxy_pass: ({ level, args, at }) => {
    const s = settingsOf(level);
    if (s.proxyPass !== undefined) throw at('"proxy_pass" directive is duplicate');
    if (!/^https?:\/\//i.test(args[1]!) && !args[1]!.includes('$')) throw at(`invalid URL prefix in "${args[1]}"`);
    s.proxyPass = args[1]!;
  },
  error_page: (h) => errorPageDirective(h),
  return: (h) => returnDirective(h),
  if: ({ w, file, tk, level }) => {
    // the rewrite module's `if`: its body is a location-like block; conditions are not evaluated here
    parseBlock(w, file, tk, { kind: 'if', ctx: level.kind === 'server' ? SIF : LIF, settings: {}, seen: new Set() }, 'block');
  },
  set: ({ w, args, at }) => {
    if (!args[1]!.startsWith('$')) throw at(`invalid variable name "${args[1]}"`);
    w.defined.add(args[1]!.slice(1));
  },
  map: ({ w, file, tk, args, at }) => {
    if (!args[2]!.startsWith('$')) throw at(`invalid variable name "${args[2]}"`);
    w.defined.add(args[2]!.slice(1));
    rawBlock(file, tk, () => {});
  },
  limit_except: ({ w, file, tk }) => parseBlock(w, file, tk, { kind: 'limit_except', ctx: LMT, seen: new Set() }, 'block'),
  upstream: ({ w, file, tk }) => parseBlock(w, file, tk, { kind: 'upstream', ctx: UPS, seen: new Set() }, 'block'),
};

/** ngx_http_core_root: root and alias share one slot. */
function rootDirective({ level, args, at }: HandlerArgs, alias: boolean): void {
  const s = settingsOf(level);
  const name = alias ? 'alias' : 'root';
  if (s.root) {
    if (s.root.alias === alias) throw at(`"${name}" directive is duplicate`);
    throw at(`"${name}" directive is duplicate, "${s.root.alias ? 'alias' : 'root'}" directive was specified earlier`);
  }
  if (alias && level.location?.modifier === '@') throw at(`"alias" directive cannot be used inside the named location`);
  // ngx_conf_full_name: a relative root is below the prefix (/etc/nginx/ for this build: --prefix=/etc/nginx)
  const v = args[1]!;
  const path = v.startsWith('/') || v.startsWith('$') ? v : `${CONF_PREFIX}${v}`;
  s.root = { path: path.length > 1 && !alias ? path.replace(/\/+$/, '') : path, alias };
}

/** ngx_http_core_listen with ngx_parse_url (src/core/ngx_inet.c): address, port, parameters. */
function listenDirective({ w, level, args, at }: HandlerArgs): void {
  const raw = args[1]!;
  const parsed = parseListenAddr(raw);
  if ('err' in parsed) throw at(`${parsed.err} in "${raw}" of the "listen" directive`);
  let defaultServer = false;
  const LISTEN_FLAGS = ['bind', 'ssl', 'http2', 'quic', 'proxy_protocol', 'reuseport', 'deferred'];
  const LISTEN_KEYS = ['backlog', 'rcvbuf', 'sndbuf', 'ipv6only', 'so_keepalive', 'setfib', 'fastopen', 'accept_filter'];
  for (const p of args.slice(2)) {
    if (p === 'default_server' || p === 'default') defaultServer = true;
    else if (LISTEN_FLAGS.includes(p)) continue;
    else if (LISTEN_KEYS.some((k) => p.startsWith(`${k}=`))) continue;
    else throw at(`invalid parameter "${p}"`);
  }
  const server = level.server;
  if (!server) return;
  const l: Listen = { ...parsed, defaultServer };
  // ngx_http.c ngx_http_add_addresses: the same address twice in one server
  if (server.listens.some((x) => x.text === l.text)) throw at(`a duplicate listen ${l.text}`);
  if (defaultServer) {
    const other = w.http?.servers.some((s) => s.listens.some((x) => x.text === l.text && x.defaultServer));
    if (other) throw at(`a duplicate default server for ${l.text}`);
  }
  server.listens.push(l);
}

/** ngx_parse_url for a listen address: `80`, `*:80`, `127.0.0.1:8080`, `[::]:80`, `localhost`, `unix:/path`. */
export function parseListenAddr(raw: string): Omit<Listen, 'defaultServer'> | { err: string } {
  if (raw.startsWith('unix:')) {
    if (raw.length === 5) return { err: 'no path in the unix domain socket' };
    return { addr: raw, port: 0, ipv6: false, text: raw };
  }
  const port = (p: string): number | undefined => (/^\d+$/.test(p) && Number(p) >= 1 && Number(p) <= 65535 ? Number(p) : undefined);
  if (raw.startsWith('[')) {
    const m = /^\[([0-9a-fA-F:.]*)\](?::(.*))?$/.exec(raw);
    if (!m) return { err: 'invalid host' };
    const p = m[2] === undefined ? 80 : port(m[2]);
    if (p === undefined) return { err: 'invalid port' };
    const addr = m[1] === '::' || m[1] === '' ? '[::]' : `[${m[1]}]`;
    return { addr, port: p, ipv6: true, text: `${addr}:${p}` };
  }
  const colon = raw.lastIndexOf(':');
  let host = colon >= 0 ? raw.slice(0, colon) : raw;
  let p: number | undefined = 80;
  if (colon >= 0) {
    p = port(raw.slice(colon + 1));
    if (p === undefined) return { err: 'invalid port' };
  } else if (/^\d+$/.test(raw)) {
    p = port(raw);
    if (p === undefined) return { err: 'invalid port' };
    host = '*';
  }
  if (host === '*' || host === '') return { addr: '*', port: p, ipv6: false, text: `0.0.0.0:${p}` };
  if (host === 'localhost') host = '127.0.0.1';
  if (!/^\d{1,3}(\.\d{1,3}){3}$/.test(host) || host.split('.').some((o) => Number(o) > 255)) return { err: 'host not found' };
  return { addr: host === '0.0.0.0' ? '*' : host, port: p, ipv6: false, text: `${host}:${p}` };
}

/** ngx_http_core_location: modifiers, then the block in location context; named and exact locations cannot nest. */
function locationDirective({ w, file, tk, level, args, line, at }: HandlerArgs): void {
  let modifier: NginxLocation['modifier'] = '';
  let path: string;
  if (args.length === 3) {
    const m = args[1]!;
    if (m !== '=' && m !== '~' && m !== '~*' && m !== '^~') throw at(`invalid location modifier "${m}"`);
    modifier = m;
    path = args[2]!;
  } else {
    const v = args[1]!;
    if (v.startsWith('=') && v.length > 1) [modifier, path] = ['=', v.slice(1)];
    else if (v.startsWith('^~') && v.length > 2) [modifier, path] = ['^~', v.slice(2)];
    else if (v.startsWith('~*') && v.length > 2) [modifier, path] = ['~*', v.slice(2)];
    else if (v.startsWith('~') && v.length > 1) [modifier, path] = ['~', v.slice(1)];
    else if (v.startsWith('@')) [modifier, path] = ['@', v];
    else path = v;
  }
  if (modifier === '~' || modifier === '~*') {
    if (compileLocationRegex(path, modifier === '~*') === undefined) throw at(`pcre2_compile() failed: invalid pattern in "${path}"`);
  }
  const parent = level.location;
  if (parent) {
    if (parent.modifier === '=') throw at(`location "${path}" cannot be inside the exact location "${parent.path}"`);
    if (parent.modifier === '@') throw at(`location "${path}" cannot be inside the named location "${parent.path}"`);
    if (modifier === '@') throw at(`named location "${path}" can be on the server level only`);
    if ((modifier === '' || modifier === '^~' || modifier === '=') && (parent.modifier === '' || parent.modifier === '^~') && !path.startsWith(parent.path)) {
      throw at(`location "${path}" is outside location "${parent.path}"`);
    }
  }
  const loc: NginxLocation = { modifier, path, settings: {}, locations: [], file, line };
  parseBlock(w, file, tk, { kind: 'location', ctx: LOC, settings: loc.settings, location: loc, ...(level.server ? { server: level.server } : {}), seen: new Set() }, 'block');
  const siblings = parent ? parent.locations : level.server?.locations;
  if (!siblings) return;
  // ngx_http_init_locations: two exact or two plain prefix locations with the same name (ngx_log_error: this location's file and line)
  const dup = siblings.find((s) => s.path === path && ((s.modifier === '=' && modifier === '=') || (isPrefix(s.modifier) && isPrefix(modifier)) || (s.modifier === '@' && modifier === '@')));
  if (dup && w.http) throw new Fail({ message: `duplicate location "${path}"`, file, line });
  siblings.push(loc);
}

function isPrefix(m: NginxLocation['modifier']): boolean {
  return m === '' || m === '^~';
}

/** A location regex (PCRE in nginx; the simulation's linear engine, JavaScript syntax). Undefined when it does not compile. */
export function compileLocationRegex(src: string, caseless: boolean): RegExp | undefined {
  try {
    return linearRegExp(src, caseless ? 'i' : '');
  } catch {
    return undefined;
  }
}

/** ngx_http_core_error_page: codes 300–599, optional `=CODE` / `=`, then the URI. */
function errorPageDirective({ level, args, at }: HandlerArgs): void {
  const uri = args[args.length - 1]!;
  let overwrite: ErrorPage['overwrite'];
  const codes: number[] = [];
  for (const v of args.slice(1, -1)) {
    if (v.startsWith('=')) {
      if (v === '=') overwrite = 'page';
      else {
        const n = /^=\d+$/.test(v) ? Number(v.slice(1)) : NaN;
        if (!(n >= 0 && n <= 999)) throw at(`invalid value "${v}"`);
        overwrite = n;
      }
      continue;
    }
    if (!/^\d+$/.test(v)) throw at(`invalid value "${v}"`);
    const n = Number(v);
    if (n < 300 || n > 599) throw at(`value "${v}" must be between 300 and 599`);
    codes.push(n);
  }
  const s = settingsOf(level);
  s.errorPages = [...(s.errorPages ?? []), { codes, ...(overwrite !== undefined ? { overwrite } : {}), uri }];
}

/** ngx_http_rewrite_return: `return CODE [TEXT]`, `return URL` (302); a code above 999 is invalid. */
function returnDirective({ w, level, args, at }: HandlerArgs): void {
  const v = args[1]!;
  let ret: ReturnDirective;
  if (/^\d+$/.test(v)) {
    const code = Number(v);
    if (code > 999) throw at(`invalid return code "${v}"`);
    ret = args.length === 3 ? { code, text: args[2]! } : { code };
  } else if (args.length === 2 && /^(https?:\/\/|\$scheme)/.test(v)) ret = { code: 302, text: v };
  else throw at(`invalid return code "${v}"`);
  if (ret.text !== undefined) w.used.push(...variablesIn(ret.text));
  const s = settingsOf(level);
  s.ret ??= ret;
}

/** Names of the variables a complex value refers to (`$name`, `${name}`; `$1` captures excluded). */
export function variablesIn(text: string): string[] {
  const out: string[] = [];
  for (const m of text.matchAll(/\$(?:\{([A-Za-z0-9_]+)\}|([A-Za-z_][A-Za-z0-9_]*))/g)) out.push(m[1] ?? m[2]!);
  return out;
}

/** Variables of the http core module and the modules in the image (ngx_http_variables.c ngx_http_core_variables), and the prefixed families. */
const KNOWN_VARIABLES = new Set(
  ('uri request_uri host hostname scheme request_method server_port server_name server_addr remote_addr remote_port args query_string ' +
    'document_root document_uri request status time_local time_iso8601 msec nginx_version pid realpath_root request_filename content_type ' +
    'content_length binary_remote_addr https is_args connection connection_requests request_id server_protocol body_bytes_sent bytes_sent ' +
    'proxy_add_x_forwarded_for proxy_host proxy_port remote_user request_time request_length request_body upstream_addr upstream_status limit_rate ' +
    'date_local date_gmt proxy_protocol_addr realip_remote_addr tcpinfo_rtt').split(' '),
);

function knownVariable(v: string): boolean {
  return KNOWN_VARIABLES.has(v) || /^(http|arg|cookie|sent_http|upstream_http|upstream_cookie|sent_trailer)_/.test(v);
}

/** ngx_http_server_names' warning: the same name on the same address in two servers; the later one is ignored. */
function serverNameConflicts(http: NginxHttp | undefined): string[] {
  if (!http) return [];
  const seen = new Map<string, NginxServer>();
  const out: string[] = [];
  for (const s of http.servers) {
    for (const l of s.listens) {
      for (const n of s.names) {
        if (n === '') continue;
        const k = `${l.text} ${n}`;
        const first = seen.get(k);
        if (first && first !== s) out.push(`conflicting server name "${n}" on ${l.text}, ignored`);
        else seen.set(k, s);
      }
    }
  }
  return out;
}

/** Tokenize without building anything (tests, `nginx -T` callers that only need to split). */
export function tokenize(text: string): Token[] {
  const tk = new Tokenizer(text);
  const out: Token[] = [];
  for (let i = 0; i < 100_000; i++) {
    const t = tk.next();
    out.push(t);
    if (t.kind === 'eof' || t.kind === 'error') break;
  }
  return out;
}
