/**
 * encoding/json's syntax errors (Go src/encoding/json/scanner.go): the message json.Unmarshal
 * returns for text that is not JSON, which kubectl prints as is (e.g. `--override-type=json`).
 * Returns undefined for valid JSON.
 */

/** scanner.go quoteChar: `'x'`, `'\''`, `'"'`, `'\n'`. */
function quoteChar(c: string): string {
  if (c === "'") return `'\\''`;
  if (c === '"') return `'"'`;
  const q = JSON.stringify(c);
  return `'${q.slice(1, -1)}'`;
}

class Syntax extends Error {}

export function goJsonSyntaxError(text: string): string | undefined {
  let i = 0;
  const ws = (): void => {
    while (i < text.length && ' \t\r\n'.includes(text[i]!)) i++;
  };
  const fail = (context: string): never => {
    if (i >= text.length) throw new Syntax('unexpected end of JSON input');
    throw new Syntax(`invalid character ${quoteChar(text[i]!)} ${context}`);
  };
  const str = (): void => {
    i++; // opening quote
    for (;;) {
      if (i >= text.length) fail('');
      const c = text[i]!;
      if (c === '"') {
        i++;
        return;
      }
      if (c < ' ') fail('in string literal');
      if (c === '\\') {
        i++;
        if (i >= text.length) fail('');
        if ('"\\/bfnrt'.includes(text[i]!)) i++;
        else if (text[i] === 'u') {
          i++;
          for (let k = 0; k < 4; k++) {
            if (i >= text.length) fail('');
            if (!/[0-9a-fA-F]/.test(text[i]!)) fail('in \\u hexadecimal character escape');
            i++;
          }
        } else fail('in string escape code');
        continue;
      }
      i++;
    }
  };
  const literal = (word: string): void => {
    for (let k = 0; k < word.length; k++, i++) {
      if (i >= text.length) fail('');
      if (text[i] !== word[k]) fail(`in literal ${word} (expecting ${quoteChar(word[k]!)})`);
    }
  };
  const num = (): void => {
    if (text[i] === '-') {
      i++;
      if (i >= text.length) fail('');
      if (!/[0-9]/.test(text[i]!)) fail('in numeric literal');
    }
    if (text[i] === '0') i++;
    else while (i < text.length && /[0-9]/.test(text[i]!)) i++;
    if (text[i] === '.') {
      i++;
      if (i >= text.length) fail('');
      if (!/[0-9]/.test(text[i]!)) fail('after decimal point in numeric literal');
      while (i < text.length && /[0-9]/.test(text[i]!)) i++;
    }
    if (text[i] === 'e' || text[i] === 'E') {
      i++;
      if (text[i] === '+' || text[i] === '-') i++;
      if (i >= text.length) fail('');
      if (!/[0-9]/.test(text[i]!)) fail('in exponent of numeric literal');
      while (i < text.length && /[0-9]/.test(text[i]!)) i++;
    }
  };
  const value = (): void => {
    ws();
    const c = text[i];
    if (c === '{') {
      i++;
      ws();
      if (text[i] === '}') {
        i++;
        return;
      }
      for (;;) {
        ws();
        if (text[i] !== '"') fail('looking for beginning of object key string');
        str();
        ws();
        if (text[i] !== ':') fail('after object key');
        i++;
        value();
        ws();
        if (text[i] === ',') {
          i++;
          continue;
        }
        if (text[i] === '}') {
          i++;
          return;
        }
        fail('after object key:value pair');
      }
    }
    if (c === '[') {
      i++;
      ws();
      if (text[i] === ']') {
        i++;
        return;
      }
      for (;;) {
        value();
        ws();
        if (text[i] === ',') {
          i++;
          continue;
        }
        if (text[i] === ']') {
          i++;
          return;
        }
        fail('after array element');
      }
    }
    if (c === '"') return str();
    if (c === 't') return literal('true');
    if (c === 'f') return literal('false');
    if (c === 'n') return literal('null');
    if (c === '-' || (c !== undefined && c >= '0' && c <= '9')) return num();
    fail('looking for beginning of value');
  };
  try {
    value();
    ws();
    if (i < text.length) fail('after top-level value');
    return undefined;
  } catch (e) {
    if (e instanceof Syntax) return e.message;
    throw e;
  }
}
