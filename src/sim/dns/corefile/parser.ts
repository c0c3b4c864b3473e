/**
 * Corefile → server blocks, emulating coredns/caddy v1.1.1 `caddyfile/parse.go`: keys up to `{`
 * (trailing comma continues), a block without `{` swallows the rest of the file, a directive takes
 * its whole line plus a nested `{…}`, `import` splices snippets `(name)` or files, `{$ENV}`/`{%ENV%}`
 * are substituted. When `validDirectives` is given (server start) an unknown name is
 * `Unknown directive '<name>'`; the reload plugin parses without it.
 */
import { CorefileError, Dispenser } from './dispenser.js';
import { goJsonQuote } from '../../../util/go-json.js';
import { tokenize, type Token } from './lexer.js';

export interface ServerBlock {
  keys: string[];
  /** Directive name → all its tokens (every occurrence, directive names included), in order. */
  tokens: Map<string, Token[]>;
}

export interface ParseOptions {
  /** Known plugin names; omit to skip the check (reload's pre-parse). */
  validDirectives?: ReadonlySet<string>;
  env?: Readonly<Record<string, string>>;
  /** Reads a file relative to nothing: the path is already resolved. Undefined = not found. */
  readFile?: (path: string) => string | undefined;
  /** Paths that exist, for glob imports. */
  listFiles?: () => string[];
  /** Warnings caddy logs while parsing (`[WARNING] No files matching import glob pattern: …`). */
  warn?: (line: string) => void;
}

export type ParseResult = { ok: true; blocks: ServerBlock[] } | { ok: false; error: string };

export function replaceEnvVars(s: string, env: Readonly<Record<string, string>>): string {
  return replaceRefs(replaceRefs(s, '{%', '%}', env), '{$', '}', env);
}

function replaceRefs(input: string, start: string, end: string, env: Readonly<Record<string, string>>): string {
  let s = input;
  let index = s.indexOf(start);
  while (index !== -1) {
    const rel = s.slice(index).indexOf(end);
    if (rel === -1) break;
    const endIndex = rel + index;
    if (endIndex > index + start.length) {
      const ref = s.slice(index, endIndex + end.length);
      s = s.split(ref).join(env[ref.slice(start.length, ref.length - end.length)] ?? '');
    } else return s;
    index = s.indexOf(start);
  }
  return s;
}

class Parser extends Dispenser {
  block: ServerBlock = { keys: [], tokens: new Map() };
  eof = false;
  snippets = new Map<string, Token[]>();
  importCount = 0;

  constructor(
    file: string,
    tokens: Token[],
    private opts: ParseOptions,
  ) {
    super(file, tokens);
  }

  private env(s: string): string {
    return replaceEnvVars(s, this.opts.env ?? {});
  }

  parseAll(): ServerBlock[] {
    const blocks: ServerBlock[] = [];
    while (this.next()) {
      this.block = { keys: [], tokens: new Map() };
      this.begin();
      if (this.block.keys.length > 0) blocks.push(this.block);
    }
    return blocks;
  }

  private begin(): void {
    if (this.tokens.length === 0) return;
    this.addresses();
    if (this.eof) return;
    const keys = this.block.keys;
    const k0 = keys[0];
    if (keys.length === 1 && k0 !== undefined && k0.startsWith('(') && k0.endsWith(')')) {
      const name = k0.slice(1).replace(/\)$/, '');
      if (this.snippets.has(name)) throw this.err(`redeclaration of previously declared snippet ${name}`);
      this.snippets.set(name, this.snippetTokens());
      this.block.keys = [];
      return;
    }
    this.blockContents();
  }

  private addresses(): void {
    let expectingAnother = false;
    for (;;) {
      let tkn = this.env(this.val());
      if (tkn === 'import' && this.isNewLine()) {
        this.doImport();
        continue;
      }
      if (tkn === '{') {
        if (expectingAnother) throw this.err(`Expected another address but had '${tkn}' - check for extra comma`);
        break;
      }
      if (tkn !== '') {
        if (tkn.endsWith(',')) {
          tkn = tkn.slice(0, -1);
          expectingAnother = true;
        } else expectingAnother = false;
        this.block.keys.push(tkn);
      }
      const hasNext = this.next();
      if (expectingAnother && !hasNext) throw this.eofErr();
      if (!hasNext) {
        this.eof = true;
        break;
      }
      if (!expectingAnother && this.isNewLine()) break;
    }
  }

  private snippetTokens(): Token[] {
    if (this.val() !== '{') throw this.syntaxErr('{');
    let count = 1;
    const out: Token[] = [];
    while (this.next()) {
      if (this.val() === '}') {
        count--;
        if (count === 0) break;
      }
      if (this.val() === '{') count++;
      const t = this.tokens[this.cursor];
      if (t) out.push(t);
    }
    if (count !== 0) throw this.syntaxErr('}');
    return out;
  }

  private blockContents(): void {
    const opened = this.val() === '{';
    if (!opened) this.cursor--;
    this.directives();
    if (opened && this.val() !== '}') throw this.syntaxErr('}');
  }

  private directives(): void {
    while (this.next()) {
      if (this.val() === '}') break;
      if (this.val() === 'import') {
        this.doImport();
        this.cursor--;
        continue;
      }
      this.directive();
    }
  }

  private directive(): void {
    const dir = this.env(this.val());
    let nesting = 0;
    const valid = this.opts.validDirectives;
    if (valid && !valid.has(dir)) throw this.err(`Unknown directive '${dir}'`);
    const list = this.block.tokens.get(dir) ?? [];
    this.block.tokens.set(dir, list);
    const first = this.tokens[this.cursor];
    if (first) list.push({ ...first });
    while (this.next()) {
      if (this.val() === '{') nesting++;
      else if (this.isNewLine() && nesting === 0) {
        this.cursor--;
        break;
      } else if (this.val() === '}' && nesting > 0) nesting--;
      else if (this.val() === '}' && nesting === 0) throw this.err("Unexpected '}' because no matching opening brace");
      const t = this.tokens[this.cursor];
      if (t) list.push({ ...t, text: this.env(t.text) });
    }
    if (nesting > 0) throw this.eofErr();
  }

  private doImport(): void {
    if (!this.nextArg()) throw this.argErr();
    const pattern = this.env(this.val());
    if (pattern === '') throw this.err('Import requires a non-empty filepath');
    if (this.nextArg()) throw this.err('Import takes only one argument (glob pattern or file)');
    const before = this.tokens.slice(0, this.cursor - 1);
    const after = this.tokens.slice(this.cursor + 1);
    let imported: Token[] = [];
    const snippet = this.snippets.get(pattern);
    if (snippet) imported = snippet;
    else {
      // relative to the file of the token being processed (parse.go doImport: p.Dispenser.File())
      const from = this.fileName();
      const dir = from.includes('/') ? from.slice(0, from.lastIndexOf('/') + 1) : '';
      const full = pattern.startsWith('/') ? pattern : `${dir}${pattern}`;
      let matches: string[];
      if (/[*?[\]]/.test(full)) {
        const re = globToRegExp(full);
        matches = (this.opts.listFiles?.() ?? []).filter((f) => re.test(f)).sort();
        if (matches.length === 0) this.opts.warn?.(`[WARNING] No files matching import glob pattern: ${pattern}`);
      } else {
        matches = this.opts.readFile?.(full) !== undefined ? [full] : [];
        if (matches.length === 0) throw this.err(`File to import not found: ${pattern}`);
      }
      for (const m of matches) imported = imported.concat(tokenize(this.opts.readFile?.(m) ?? '', m));
    }
    this.importCount++;
    if (this.importCount > 10000) throw this.err('Too many imports (import cycle?)');
    this.tokens = [...before, ...imported, ...after];
    this.cursor--;
  }
}

function globToRegExp(glob: string): RegExp {
  let re = '^';
  for (const ch of glob) {
    if (ch === '*') re += '[^/]*';
    else if (ch === '?') re += '[^/]';
    else re += ch.replace(/[.+^${}()|\\[\]]/g, '\\$&');
  }
  return new RegExp(`${re}$`);
}

/** Parse a Corefile. `file` is the `-conf` path used in error messages (`/etc/coredns/Corefile`). */
export function parseCorefile(text: string, file: string, opts: ParseOptions = {}): ParseResult {
  // the main file's tokens carry no file name (dispenser.go NewDispenser: allTokens leaves
  // Token.File empty; only doSingleImport tacks on the imported file's path): errors name `file`
  // through Dispenser.File, and the reload plugin's JSON has `"File":""` for them
  const p = new Parser(file, tokenize(text, ''), opts);
  try {
    return { ok: true, blocks: p.parseAll() };
  } catch (e) {
    if (e instanceof CorefileError) return { ok: false, error: e.message };
    throw e;
  }
}

/**
 * JSON of the server blocks as Go's encoding/json writes `[]caddyfile.ServerBlock` (map keys sorted),
 * which the reload plugin hashes with SHA512 (plugin/reload/reload.go parse + hook). A token of the
 * main file has `"File":""`, an imported one its file's absolute path (coredns/caddy
 * caddyfile/parse.go doSingleImport), so kubeadm's default Corefile hashes to the 591cf328…
 * that real CoreDNS pods log.
 */
export function serverBlocksJson(blocks: ServerBlock[]): string {
  const q = (s: string): string => goJsonQuote(s);
  const parts = blocks.map((b) => {
    const keys = `[${b.keys.map(q).join(',')}]`;
    const dirs = [...b.tokens.keys()].sort();
    const toks = dirs
      .map((d) => `${q(d)}:[${(b.tokens.get(d) ?? []).map((t) => `{"File":${q(t.file)},"Line":${t.line},"Text":${q(t.text)}}`).join(',')}]`)
      .join(',');
    return `{"Keys":${keys},"Tokens":{${toks}}}`;
  });
  return `[${parts.join(',')}]`;
}

