/**
 * encoding/json's syntax check (golang src/encoding/json/scanner.go: checkValid and its state
 * functions), for the error texts Go programs print on bad JSON: `invalid character 'b' looking for
 * beginning of object key string`, `unexpected end of JSON input`, `invalid character '1' after
 * top-level value`, …. json.Unmarshal runs this scan over the whole input before decoding, so a
 * syntax error wins over a type error. Works on the UTF-8 bytes, as the scanner does.
 */

/** scanner.go quoteChar: `'\''`, `'"'`, otherwise strconv.Quote's body in single quotes. */
function quoteChar(c: number): string {
  if (c === 0x27) return `'\\''`;
  if (c === 0x22) return `'"'`;
  const named: Record<number, string> = { 7: '\\a', 8: '\\b', 9: '\\t', 10: '\\n', 11: '\\v', 12: '\\f', 13: '\\r', 0x5c: '\\\\' };
  if (named[c] !== undefined) return `'${named[c]}'`;
  if (c < 0x20 || c === 0x7f) return `'\\x${c.toString(16).padStart(2, '0')}'`;
  // a byte ≥ 0x80 is one byte of a UTF-8 sequence: string(rune(c)) quotes as the Latin-1 rune
  if (c >= 0x80) return c <= 0xa0 || c === 0xad ? `'\\u${c.toString(16).padStart(4, '0')}'` : `'${String.fromCharCode(c)}'`;
  return `'${String.fromCharCode(c)}'`;
}

class SyntaxErr extends Error {}

const isSpace = (c: number | undefined): boolean => c === 0x20 || c === 0x09 || c === 0x0a || c === 0x0d;
const isDigit = (c: number | undefined): boolean => c !== undefined && c >= 0x30 && c <= 0x39;
const isHex = (c: number): boolean => isDigit(c) || (c >= 0x61 && c <= 0x66) || (c >= 0x41 && c <= 0x46);

class Scanner {
  private i = 0;
  constructor(private readonly b: Uint8Array) {}

  private peek(): number | undefined {
    return this.b[this.i];
  }
  /** The next byte, or the end-of-input error. */
  private next(): number {
    const c = this.b[this.i];
    if (c === undefined) throw new SyntaxErr('unexpected end of JSON input');
    this.i++;
    return c;
  }
  /**
   * The next byte inside a number or literal: at the end of input checkValid's eof() steps the
   * scanner with a space, so a cut-off `1e+` or `tru` is `invalid character ' ' …`.
   */
  private nextOrSpace(): number {
    const c = this.b[this.i];
    if (c === undefined) return 0x20;
    this.i++;
    return c;
  }
  private fail(c: number, context: string): never {
    throw new SyntaxErr(`invalid character ${quoteChar(c)} ${context}`);
  }
  private skipSpace(): void {
    while (isSpace(this.peek())) this.i++;
  }

  top(): void {
    this.skipSpace();
    this.value();
    this.skipSpace();
    const c = this.peek();
    if (c !== undefined) this.fail(c, 'after top-level value');
  }

  private value(): void {
    this.skipSpace();
    const c = this.next();
    switch (c) {
      case 0x7b: // {
        this.skipSpace();
        if (this.peek() === 0x7d) {
          this.i++;
          return;
        }
        for (;;) {
          this.skipSpace();
          const k = this.next();
          if (k !== 0x22) this.fail(k, 'looking for beginning of object key string');
          this.string();
          this.skipSpace();
          const colon = this.next();
          if (colon !== 0x3a) this.fail(colon, 'after object key');
          this.value();
          this.skipSpace();
          const sep = this.next();
          if (sep === 0x7d) return;
          if (sep !== 0x2c) this.fail(sep, 'after object key:value pair');
        }
      case 0x5b: // [
        this.skipSpace();
        if (this.peek() === 0x5d) {
          this.i++;
          return;
        }
        for (;;) {
          this.value();
          this.skipSpace();
          const sep = this.next();
          if (sep === 0x5d) return;
          if (sep !== 0x2c) this.fail(sep, 'after array element');
        }
      case 0x22:
        return this.string();
      case 0x2d: // -
        if (!isDigit(this.peek())) this.fail(this.nextOrSpace(), 'in numeric literal');
        return this.number(this.next());
      case 0x74:
        return this.literal('true');
      case 0x66:
        return this.literal('false');
      case 0x6e:
        return this.literal('null');
      default:
        if (isDigit(c)) return this.number(c);
        this.fail(c, 'looking for beginning of value');
    }
  }

  private literal(word: string): void {
    for (let k = 1; k < word.length; k++) {
      const c = this.nextOrSpace();
      if (c !== word.charCodeAt(k)) this.fail(c, `in literal ${word} (expecting '${word[k]}')`);
    }
  }

  /** After the opening quote. */
  private string(): void {
    for (;;) {
      const c = this.next();
      if (c === 0x22) return;
      if (c < 0x20) this.fail(c, 'in string literal');
      if (c !== 0x5c) continue;
      const e = this.next();
      if (e === 0x75) {
        for (let k = 0; k < 4; k++) {
          const h = this.next();
          if (!isHex(h)) this.fail(h, 'in \\u hexadecimal character escape');
        }
      } else if (!'"\\/bfnrt'.includes(String.fromCharCode(e))) this.fail(e, 'in string escape code');
    }
  }

  /** A number whose first digit `first` was read. */
  private number(first: number): void {
    if (first !== 0x30) while (isDigit(this.peek())) this.i++;
    if (this.peek() === 0x2e) {
      this.i++;
      const d = this.nextOrSpace();
      if (!isDigit(d)) this.fail(d, 'after decimal point in numeric literal');
      while (isDigit(this.peek())) this.i++;
    }
    const e = this.peek();
    if (e === 0x65 || e === 0x45) {
      this.i++;
      let d = this.nextOrSpace();
      if (d === 0x2b || d === 0x2d) d = this.nextOrSpace();
      if (!isDigit(d)) this.fail(d, 'in exponent of numeric literal');
      while (isDigit(this.peek())) this.i++;
    }
  }
}

/** checkValid's error text for `text`, or undefined when it is valid JSON. */
export function goJsonSyntaxError(text: string | Uint8Array): string | undefined {
  try {
    new Scanner(typeof text === 'string' ? Buffer.from(text, 'utf8') : text).top();
    return undefined;
  } catch (e) {
    if (e instanceof SyntaxErr) return e.message;
    throw e;
  }
}

/** The JSON kind decode.go names in an UnmarshalTypeError (`cannot unmarshal KIND into Go value of type T`). */
export function jsonKind(v: unknown): string {
  if (Array.isArray(v)) return 'array';
  if (v === null) return 'null';
  if (typeof v === 'object') return 'object';
  return typeof v === 'string' ? 'string' : typeof v === 'number' ? 'number' : 'bool';
}

/**
 * json.Unmarshal of `text` into a Go value of type `into` (`interface {}`, `map[string]interface {}`
 * or `[]interface {}`): the decoded value (null for a JSON null: a nil map or slice), or the
 * error text.
 */
export function goJsonUnmarshal(text: string, into: 'interface {}' | 'map[string]interface {}' | '[]interface {}'): { value?: unknown; error?: string } {
  const syntax = goJsonSyntaxError(text);
  if (syntax !== undefined) return { error: syntax };
  const v: unknown = JSON.parse(text);
  // null sets the target to its zero value: a nil map or slice
  if (v === null) return { value: null };
  const kind = jsonKind(v);
  if (into === 'map[string]interface {}' && kind !== 'object') return { error: `json: cannot unmarshal ${kind} into Go value of type ${into}` };
  if (into === '[]interface {}' && kind !== 'array') return { error: `json: cannot unmarshal ${kind} into Go value of type ${into}` };
  return { value: v };
}
