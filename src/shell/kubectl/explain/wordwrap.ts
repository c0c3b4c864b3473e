/**
 * github.com/mitchellh/go-wordwrap WrapString, which kubectl's explain template calls through
 * k8s.io/kubectl/pkg/util/term NewWordWrapWriter (`wrap` in pkg/explain/v2/funcs.go): break at
 * whitespace so no line exceeds `limit` runes, keep existing newlines, never split a word (a word
 * longer than the limit gets a line of its own), drop the whitespace where a line is broken.
 */
const NBSP = '\u00a0';

function isSpace(ch: string): boolean {
  // Go unicode.IsSpace.
  return /^[\t\n\v\f\r \u0085\u00a0\u1680\u2000-\u200a\u2028\u2029\u202f\u205f\u3000]$/u.test(ch);
}

export function wrapString(s: string, limit: number): string {
  let out = '';
  let current = 0;
  let word = '';
  let wordLen = 0;
  let space = '';
  let spaceLen = 0;
  for (const ch of s) {
    if (ch === '\n') {
      out += space + word + ch;
      space = '';
      spaceLen = 0;
      word = '';
      wordLen = 0;
      current = 0;
    } else if (isSpace(ch) && ch !== NBSP) {
      if (space.length === 0 || word.length > 0) {
        current += spaceLen + wordLen;
        out += space + word;
        space = '';
        spaceLen = 0;
        word = '';
        wordLen = 0;
      }
      space += ch;
      spaceLen++;
    } else {
      word += ch;
      wordLen++;
      if (current + spaceLen + wordLen > limit && wordLen < limit) {
        out += '\n';
        current = 0;
        space = '';
        spaceLen = 0;
      }
    }
  }
  if (word.length === 0) {
    if (current + spaceLen <= limit) out += space;
  } else {
    out += space + word;
  }
  return out;
}
