/**
 * The Corefile lexer, emulating coredns/caddy v1.1.1 `caddyfile/lexer.go`: whitespace-separated
 * tokens, `#` comments anywhere outside quotes (even mid-word: `errors#x` is `errors`), quoted
 * tokens that may span lines with only `\"` as an escape, `\r` ignored, a leading BOM dropped.
 * Each token remembers the line it started on; error messages quote that line.
 */

export interface Token {
  file: string;
  line: number;
  text: string;
}

export function tokenize(input: string, file: string): Token[] {
  const chars = Array.from(input.startsWith('\uFEFF') ? input.slice(1) : input);
  const tokens: Token[] = [];
  let line = 1;
  let i = 0;
  for (;;) {
    let val = '';
    let started = false;
    let tokenLine = line;
    let comment = false;
    let quoted = false;
    let escaped = false;
    let done = false;
    while (i < chars.length) {
      const ch = chars[i++] as string;
      if (quoted) {
        if (!escaped) {
          if (ch === '\\') {
            escaped = true;
            continue;
          } else if (ch === '"') {
            quoted = false;
            done = true;
            break;
          }
        }
        if (ch === '\n') line++;
        if (escaped && ch !== '"') val += '\\';
        val += ch;
        escaped = false;
        continue;
      }
      if (/\s/u.test(ch)) {
        if (ch === '\r') continue;
        if (ch === '\n') {
          line++;
          comment = false;
        }
        if (val.length > 0) {
          done = true;
          break;
        }
        continue;
      }
      if (ch === '#') comment = true;
      if (comment) continue;
      if (val.length === 0 && !started) {
        tokenLine = line;
        started = true;
        if (ch === '"') {
          quoted = true;
          continue;
        }
      }
      val += ch;
    }
    if (done || val.length > 0) {
      tokens.push({ file, line: tokenLine, text: val });
      continue;
    }
    return tokens;
  }
}
