/**
 * kubectl's JSONPath: a port of k8s.io/client-go/util/jsonpath (parser.go, jsonpath.go) as used by
 * cli-runtime pkg/printers/jsonpath.go (`-o jsonpath=…`, allowMissingKeys on by default) and by
 * custom-columns. Parse errors and evaluation errors carry the upstream wording; `printJsonPath`
 * wraps them the way kubectl prints them (reference §5).
 */
import { marshalCompact, marshalIndent } from './json.js';
import { sortKeys, type Json } from './serialize.js';
import { sortKeysShared } from '../../util/go-json.js';
import { remember } from '../../util/bounded-map.js';
import { deepFreeze } from '../../util/json-copy.js';

type Node =
  | { t: 'text'; text: string }
  | { t: 'list'; nodes: Node[] }
  | { t: 'field'; name: string }
  | { t: 'wildcard' }
  | { t: 'recursive' }
  | { t: 'identifier'; name: string }
  | { t: 'int'; value: number }
  | { t: 'float'; value: number }
  | { t: 'bool'; value: boolean }
  | { t: 'array'; params: [Param, Param, Param] }
  | { t: 'union'; lists: Node[] }
  | { t: 'filter'; left: Node; right: Node; op: string };

interface Param {
  value: number;
  known: boolean;
  derived: boolean;
}

export class JsonPathError extends Error {}

const isSpace = (r: string): boolean => r === ' ' || r === '\t';
const isEndOfLine = (r: string): boolean => r === '\r' || r === '\n';
const isDigit = (r: string): boolean => /^\p{Nd}$/u.test(r);
const isAlphaNumeric = (r: string): boolean => r === '_' || /^[\p{L}\p{Nd}]$/u.test(r);
function isTerminator(r: string): boolean {
  return r === '' || isSpace(r) || isEndOfLine(r) || '.,[]$@{}'.includes(r);
}

/** Go's %#U for an unrecognized character: `U+0027 '''`. */
function goRuneU(r: string): string {
  const cp = r.codePointAt(0)!;
  return `U+${cp.toString(16).toUpperCase().padStart(4, '0')} '${r}'`;
}

/** strconv.UnquoteChar-based unquoting of "…" or '…' (parser.go UnquoteExtend). */
function unquoteExtend(s: string): string {
  if (s.length < 2 || s[0] !== s[s.length - 1] || (s[0] !== '"' && s[0] !== "'")) throw new JsonPathError('invalid syntax');
  const quote = s[0];
  const body = s.slice(1, -1);
  let out = '';
  for (let i = 0; i < body.length; i++) {
    const c = body[i]!;
    if (c === quote) throw new JsonPathError('invalid syntax');
    if (c !== '\\') {
      out += c;
      continue;
    }
    const n = body[++i];
    const simple: Record<string, string> = { a: '\x07', b: '\b', f: '\f', n: '\n', r: '\r', t: '\t', v: '\v', '\\': '\\', "'": "'", '"': '"' };
    if (n !== undefined && simple[n] !== undefined) {
      if ((n === "'" || n === '"') && n !== quote) throw new JsonPathError('invalid syntax');
      out += simple[n];
    } else if (n === 'x' || n === 'u' || n === 'U') {
      const len = n === 'x' ? 2 : n === 'u' ? 4 : 8;
      const hex = body.slice(i + 1, i + 1 + len);
      if (!/^[0-9a-fA-F]+$/.test(hex) || hex.length !== len) throw new JsonPathError('invalid syntax');
      out += String.fromCodePoint(parseInt(hex, 16));
      i += len;
    } else if (n !== undefined && /[0-7]/.test(n)) {
      const oct = body.slice(i, i + 3);
      if (!/^[0-7]{3}$/.test(oct)) throw new JsonPathError('invalid syntax');
      out += String.fromCharCode(parseInt(oct, 8));
      i += 2;
    } else throw new JsonPathError('invalid syntax');
  }
  return out;
}

class Parser {
  private input = '';
  private pos = 0;
  private start = 0;
  private width = 0;
  root: { t: 'list'; nodes: Node[] } = { t: 'list', nodes: [] };

  parse(text: string): void {
    this.input = text;
    this.root = { t: 'list', nodes: [] };
    this.pos = 0;
    this.start = 0;
    this.parseText(this.root);
  }

  private consumeText(): string {
    const v = this.input.slice(this.start, this.pos);
    this.start = this.pos;
    return v;
  }

  private next(): string {
    if (this.pos >= this.input.length) {
      this.width = 0;
      return '';
    }
    const cp = this.input.codePointAt(this.pos)!;
    const r = String.fromCodePoint(cp);
    this.width = r.length;
    this.pos += this.width;
    return r;
  }

  private peek(): string {
    const r = this.next();
    this.backup();
    return r;
  }

  private backup(): void {
    this.pos -= this.width;
  }

  private parseText(cur: { nodes: Node[] }): void {
    for (;;) {
      if (this.input.startsWith('{', this.pos)) {
        if (this.pos > this.start) cur.nodes.push({ t: 'text', text: this.consumeText() });
        this.pos += 1;
        this.consumeText();
        const list: { t: 'list'; nodes: Node[] } = { t: 'list', nodes: [] };
        cur.nodes.push(list);
        this.parseInsideAction(list);
        return;
      }
      if (this.next() === '') break;
    }
    if (this.pos > this.start) cur.nodes.push({ t: 'text', text: this.consumeText() });
  }

  private parseInsideAction(cur: { t: 'list'; nodes: Node[] }): void {
    for (;;) {
      const rest = this.input.slice(this.pos);
      if (rest.startsWith('}')) {
        this.pos += 1;
        this.consumeText();
        this.parseText(this.root);
        return;
      }
      if (rest.startsWith('[?(')) {
        this.parseFilter(cur);
        continue;
      }
      if (rest.startsWith('..')) {
        const last = cur.nodes[cur.nodes.length - 1];
        if (last && last.t === 'recursive') throw new JsonPathError('invalid multiple recursive descent');
        this.pos += 2;
        this.consumeText();
        cur.nodes.push({ t: 'recursive' });
        if (isAlphaNumeric(this.peek())) this.parseField(cur);
        continue;
      }
      const r = this.next();
      if (r === '' || isEndOfLine(r)) throw new JsonPathError('unclosed action');
      if (r === ' ' || r === '@' || r === '$') this.consumeText();
      else if (r === '[') this.parseArray(cur);
      else if (r === '"' || r === "'") this.parseQuote(cur, r);
      else if (r === '.') this.parseField(cur);
      else if (r === '+' || r === '-' || isDigit(r)) {
        this.backup();
        this.parseNumber(cur);
      } else if (isAlphaNumeric(r)) {
        this.backup();
        this.parseIdentifier(cur);
      } else throw new JsonPathError(`unrecognized character in action: ${goRuneU(r)}`);
    }
  }

  private parseIdentifier(cur: { nodes: Node[] }): void {
    for (;;) {
      const r = this.next();
      if (isTerminator(r)) {
        this.backup();
        break;
      }
    }
    const value = this.consumeText();
    if (value === 'true' || value === 'false') cur.nodes.push({ t: 'bool', value: value === 'true' });
    else cur.nodes.push({ t: 'identifier', name: value });
  }

  private parseNumber(cur: { nodes: Node[] }): void {
    const r0 = this.peek();
    if (r0 === '+' || r0 === '-') this.next();
    for (;;) {
      const r = this.next();
      if (r !== '.' && !isDigit(r)) {
        this.backup();
        break;
      }
    }
    const value = this.consumeText();
    if (/^[+-]?[0-9]+$/.test(value)) cur.nodes.push({ t: 'int', value: parseInt(value, 10) });
    else if (/^[+-]?([0-9]+\.?[0-9]*|\.[0-9]+)$/.test(value)) cur.nodes.push({ t: 'float', value: parseFloat(value) });
    else throw new JsonPathError(`cannot parse number ${value}`);
  }

  private parseArray(cur: { nodes: Node[] }): void {
    for (;;) {
      const r = this.next();
      if (r === '' || r === '\n') throw new JsonPathError('unterminated array');
      if (r === ']') break;
    }
    let text = this.consumeText().slice(1, -1);
    if (text === '*') text = ':';
    const strs = text.split(',');
    if (strs.length > 1) {
      const lists = strs.map((s) => parseAction(`[${s.replace(/^ +| +$/g, '')}]`));
      cur.nodes.push({ t: 'union', lists });
      return;
    }
    const dict = /^'([^']*)'$/.exec(text);
    if (dict) {
      cur.nodes.push(...(parseAction(`.${dict[1]!}`) as { nodes: Node[] }).nodes);
      return;
    }
    const m = /^(-?[\d]*)(:-?[\d]*)?(:-?[\d]*)?$/.exec(text);
    if (!m) throw new JsonPathError(`invalid array index ${text}`);
    const raw = [m[1] ?? '', m[2] ?? '', m[3] ?? ''];
    const params: Param[] = [];
    for (let i = 0; i < 3; i++) {
      let v = raw[i]!;
      if (v !== '') {
        if (i > 0) v = v.slice(1);
        if (i > 0 && v === '') params.push({ value: 0, known: false, derived: false });
        else {
          if (!/^[+-]?[0-9]+$/.test(v)) throw new JsonPathError(`array index ${v} is not a number`);
          params.push({ value: parseInt(v, 10), known: true, derived: false });
        }
      } else if (i === 1) params.push({ value: params[0]!.value + 1, known: true, derived: true });
      else params.push({ value: 0, known: false, derived: false });
    }
    cur.nodes.push({ t: 'array', params: [params[0]!, params[1]!, params[2]!] });
  }

  private parseFilter(cur: { nodes: Node[] }): void {
    this.pos += 3;
    this.consumeText();
    let begin = false;
    let end = false;
    let pair = '';
    for (;;) {
      const r = this.next();
      if (r === '' || r === '\n') throw new JsonPathError('unterminated filter');
      if (r === '"' || r === "'") {
        if (!begin) {
          begin = true;
          pair = r;
          continue;
        }
        if (this.input[this.pos - 2] !== '\\' && r === pair) end = true;
      } else if (r === ')') {
        if (begin === end) break;
      }
    }
    if (this.next() !== ']') throw new JsonPathError('unclosed array expect ]');
    const text = this.consumeText().slice(0, -2);
    const m = /^([^!<>=]+)([!<>=]+)(.+?)$/s.exec(text);
    if (!m) cur.nodes.push({ t: 'filter', left: parseAction(text), right: { t: 'list', nodes: [] }, op: 'exists' });
    else cur.nodes.push({ t: 'filter', left: parseAction(m[1]!), right: parseAction(m[3]!), op: m[2]! });
  }

  private parseQuote(cur: { nodes: Node[] }, end: string): void {
    for (;;) {
      const r = this.next();
      if (r === '' || r === '\n') throw new JsonPathError('unterminated quoted string');
      if (r === end && this.input[this.pos - 2] !== '\\') break;
    }
    const value = this.consumeText();
    let s: string;
    try {
      s = unquoteExtend(value);
    } catch (e) {
      throw new JsonPathError(`unquote string ${value} error ${(e as Error).message}`);
    }
    cur.nodes.push({ t: 'text', text: s });
  }

  private parseField(cur: { nodes: Node[] }): void {
    this.consumeText();
    for (;;) {
      const r = this.next();
      if (r === '\\') this.next();
      else if (isTerminator(r)) {
        this.backup();
        break;
      }
    }
    const value = this.consumeText();
    if (value === '*') cur.nodes.push({ t: 'wildcard' });
    else cur.nodes.push({ t: 'field', name: value.replace(/\\/g, '') });
  }
}

/**
 * kubectl explain's jsonPathParse (k8s.io/kubectl pkg/explain/explain.go): `{.IN}` parsed, IN
 * without a trailing '.'; the nodes of its one action, each a field name or, for any other node
 * (recursive descent, identifier, index …), its kind. Parse errors throw JsonPathError.
 */
export function explainPathNodes(input: string): ({ field: string } | { other: string })[] {
  const p = new Parser();
  p.parse(`{.${input.endsWith('.') ? input.slice(0, -1) : input}}`);
  if (p.root.nodes.length !== 1) throw new JsonPathError('must pass in 1 jsonpath string');
  const list = p.root.nodes[0]!;
  return (list.t === 'list' ? list.nodes : []).map((n) => (n.t === 'field' ? { field: n.name } : { other: n.t }));
}

/** parser.go parseAction: parse `{text}` and return the inner list. */
function parseAction(text: string): Node {
  const p = new Parser();
  p.parse(`{${text}}`);
  return p.root.nodes[0]!;
}

// ---------------------------------------------------------------------------------------------
// Evaluation

type Value = Json;

/** Go type names as reflect prints them for unstructured data. */
function goType(v: Value): string {
  if (v === null) return 'interface {}';
  if (Array.isArray(v)) return '[]interface {}';
  if (typeof v === 'object') return 'map[string]interface {}';
  if (typeof v === 'string') return 'string';
  if (typeof v === 'boolean') return 'bool';
  return Number.isInteger(v) ? 'int64' : 'float64';
}

/** Go %#v of unstructured data (used in the debugging part of execution errors). */
export function goSyntax(v: Value): string {
  if (v === null) return 'interface {}(nil)';
  if (typeof v === 'string') return JSON.stringify(v);
  if (typeof v === 'number' || typeof v === 'boolean') return String(v);
  if (Array.isArray(v)) return `[]interface {}{${v.map(goSyntax).join(', ')}}`;
  return `map[string]interface {}{${Object.keys(v)
    .sort()
    .map((k) => `${JSON.stringify(k)}:${goSyntax(v[k]!)}`)
    .join(', ')}}`;
}

interface Block {
  kind: 'text' | 'action' | 'range';
  text?: string;
  action?: Node[];
  body?: Block[];
}

class Evaluator {
  constructor(private readonly allowMissingKeys: boolean) {}

  walk(values: Value[], node: Node): Value[] {
    switch (node.t) {
      case 'list': {
        let cur = values;
        for (const n of node.nodes) cur = this.walk(cur, n);
        return cur;
      }
      case 'text':
        return [node.text];
      case 'int':
      case 'float':
        return [node.value];
      case 'bool':
        return [node.value];
      case 'field': {
        const out: Value[] = [];
        for (const v of values) {
          if (v !== null && typeof v === 'object' && !Array.isArray(v) && Object.prototype.hasOwnProperty.call(v, node.name)) out.push(v[node.name]!);
        }
        if (out.length === 0 && !this.allowMissingKeys) throw new JsonPathError(`${node.name} is not found`);
        return out;
      }
      case 'wildcard': {
        const out: Value[] = [];
        for (const v of values) {
          if (Array.isArray(v)) out.push(...v);
          else if (v !== null && typeof v === 'object') for (const k of Object.keys(v).sort()) out.push(v[k]!);
        }
        return out;
      }
      case 'recursive':
        return this.recursive(values);
      case 'identifier':
        if (node.name === 'range' || node.name === 'end') return values;
        throw new JsonPathError(`unrecognized identifier ${node.name}`);
      case 'array':
        return this.array(values, node.params);
      case 'union': {
        const out: Value[] = [];
        for (const l of node.lists) out.push(...this.walk(values, l));
        return out;
      }
      case 'filter':
        return this.filter(values, node);
    }
  }

  private recursive(values: Value[]): Value[] {
    const result: Value[] = [];
    for (const v of values) {
      if (v === null) continue;
      let children: Value[] = [];
      if (Array.isArray(v)) children = v;
      else if (typeof v === 'object') children = Object.keys(v).sort().map((k) => v[k]!);
      else if (typeof v === 'string') children = [...Buffer.from(v, 'utf8')]; // reflect Index on a string yields bytes
      if (children.length !== 0) {
        result.push(v);
        result.push(...this.recursive(children));
      }
    }
    return result;
  }

  private array(values: Value[], ps: [Param, Param, Param]): Value[] {
    const result: Value[] = [];
    for (const v of values) {
      if (v === null) continue;
      if (!Array.isArray(v)) throw new JsonPathError(`${goType(v)} is not array or slice`);
      const len = v.length;
      const p0 = { ...ps[0] };
      const p1 = { ...ps[1] };
      if (!p0.known) p0.value = 0;
      if (p0.value < 0) p0.value += len;
      if (!p1.known) p1.value = len;
      if (p1.value < 0 || (p1.value === 0 && p1.derived)) p1.value += len;
      if (p1.value === p0.value) continue;
      if (p0.value >= len || p0.value < 0) throw new JsonPathError(`array index out of bounds: index ${p0.value}, length ${len}`);
      if (p1.value > len || p1.value < 0) throw new JsonPathError(`array index out of bounds: index ${p1.value - 1}, length ${len}`);
      if (p0.value > p1.value) throw new JsonPathError(`starting index ${p0.value} is greater than ending index ${p1.value}`);
      const slice = v.slice(p0.value, p1.value);
      if (ps[2].known) {
        if (ps[2].value <= 0) throw new JsonPathError(`step must be > 0`);
        for (let i = 0; i < slice.length; i += ps[2].value) result.push(slice[i]!);
      } else result.push(...slice);
    }
    return result;
  }

  private filter(values: Value[], node: { left: Node; right: Node; op: string }): Value[] {
    const results: Value[] = [];
    for (const v of values) {
      if (v === null) continue;
      if (!Array.isArray(v)) throw new JsonPathError(`${goType(v)} is not array or slice`);
      for (const item of v) {
        const lefts = this.walk([item], node.left);
        if (lefts.length === 0) continue;
        if (lefts.length > 1) throw new JsonPathError('can only compare one element at a time');
        const left = lefts[0]!;
        let pass = false;
        if (node.op === 'exists') pass = true;
        else {
          const rights = this.walk([item], node.right);
          if (rights.length === 0) continue;
          if (rights.length > 1) throw new JsonPathError('can only compare one element at a time');
          pass = compare(node.op, left, rights[0]!);
        }
        if (pass) results.push(item);
      }
    }
    return results;
  }
}

function compare(op: string, a: Value, b: Value): boolean {
  if (typeof a !== typeof b || a === null || b === null || typeof a === 'object') {
    if (op === '==' || op === '!=') {
      if (a === null || b === null || typeof a === 'object' || typeof b === 'object' || typeof a !== typeof b)
        throw new JsonPathError('incompatible types for comparison');
    }
    throw new JsonPathError('incompatible types for comparison');
  }
  switch (op) {
    case '==':
      return a === b;
    case '!=':
      return a !== b;
    case '<':
      return a < b;
    case '>':
      return a > b;
    case '<=':
      return a <= b;
    case '>=':
      return a >= b;
  }
  throw new JsonPathError(`unrecognized filter operator ${op}`);
}

/** Group the flat root list into text, action and range blocks (jsonpath.go FindResults' loop). */
function blocks(nodes: Node[], i: { n: number }, inRange: boolean): Block[] {
  const out: Block[] = [];
  while (i.n < nodes.length) {
    const node = nodes[i.n++]!;
    if (node.t === 'text') {
      out.push({ kind: 'text', text: node.text });
      continue;
    }
    if (node.t !== 'list') continue;
    const first = node.nodes[0];
    if (first?.t === 'identifier' && first.name === 'range') {
      out.push({ kind: 'range', action: node.nodes.slice(1), body: blocks(nodes, i, true) });
      continue;
    }
    if (first?.t === 'identifier' && first.name === 'end') {
      if (!inRange) throw new JsonPathError('not in range, nothing to end');
      return out;
    }
    out.push({ kind: 'action', action: node.nodes });
  }
  return out;
}

/**
 * One result as text (client-go util/jsonpath jsonpath.go evalToText): a JSON null prints as
 * `null` (real kubectl v1.35.2: `-o jsonpath='{.status.conditions[0].lastProbeTime}'` of a
 * kubelet condition), objects and lists as compact JSON.
 */
function printValue(v: Value): string {
  if (v === null) return 'null';
  if (typeof v === 'object') return marshalCompact(v);
  if (typeof v === 'number') return Number.isInteger(v) ? String(v) : String(v);
  return String(v);
}

export interface JsonPathOptions {
  /** --allow-missing-template-keys (default true). */
  allowMissingKeys?: boolean;
  /** -o jsonpath-as-json: print all results as one indented JSON array. */
  outputJson?: boolean;
}

/** A parsed template; parse errors are thrown as JsonPathError with upstream wording. */
export class JsonPath {
  private readonly tree: Block[];

  constructor(readonly template: string) {
    const p = new Parser();
    p.parse(template);
    this.tree = blocks(p.root.nodes, { n: 0 }, false);
    // read-only from here on (the evaluator copies what it adjusts): parsedJsonPath shares it
    deepFreeze(this.tree);
  }

  /**
   * FindResults flattened, for custom-columns (missing keys allowed): the values of the first
   * action group; `[]` when nothing matched.
   */
  results(data: unknown): Value[] {
    const ev = new Evaluator(true);
    const first = this.tree[0];
    if (!first) return [];
    if (first.kind === 'text') return [first.text ?? ''];
    if (first.kind === 'action') return ev.walk([sortKeysShared(data)], { t: 'list', nodes: first.action ?? [] });
    return [];
  }

  /** Execute against plain JSON data; throws JsonPathError on evaluation errors. */
  execute(data: unknown, o: JsonPathOptions = {}): string {
    const ev = new Evaluator(o.allowMissingKeys !== false);
    const groups: Value[][] = [];
    const run = (bs: Block[], cur: Value): void => {
      for (const b of bs) {
        if (b.kind === 'text') groups.push([b.text ?? '']);
        else if (b.kind === 'action') groups.push(ev.walk([cur], { t: 'list', nodes: b.action ?? [] }));
        else for (const item of ev.walk([cur], { t: 'list', nodes: b.action ?? [] })) run(b.body ?? [], item);
      }
    };
    // the walk only reads: the sorted copy of a frozen (stored) object is shared (util/go-json.ts)
    run(this.tree, sortKeysShared(data));
    if (o.outputJson === true) return groups.map((g) => `${marshalIndent(g)}\n`).join('');
    return groups.map((g) => g.map(printValue).join(' ')).join('');
  }
}

export type JsonPathResult = { ok: true; text: string } | { ok: false; error: string };

const PARSED = new Map<string, JsonPath>();

/**
 * `new JsonPath(template)`, remembered by the template: the parsed tree is a function of the text
 * alone, and a JsonPath only reads it (frozen), so one instance serves every execution. A
 * validate run prints the same few templates in each copy of its state (2,107 parses of 465
 * templates), and the grader's resource checks the same ones at every grade. A template that does
 * not parse is not kept: it throws afresh each time. Bounded.
 */
export function parsedJsonPath(template: string): JsonPath {
  return PARSED.get(template) ?? remember(PARSED, template, new JsonPath(template), 256);
}

/** The parse error of a template (kubectl's text without `error: `), or undefined when it parses. */
export function jsonPathParseError(template: string): string | undefined {
  try {
    parsedJsonPath(template);
    return undefined;
  } catch (e) {
    return `error parsing jsonpath ${template}, ${(e as Error).message}`;
  }
}

/**
 * `kubectl get … -o jsonpath=TEMPLATE` for one object (or the List document): returns the text
 * (no newline added) or the kubectl error line without the `error: ` prefix.
 */
export function printJsonPath(template: string, data: unknown, o: JsonPathOptions = {}): JsonPathResult {
  let jp: JsonPath;
  try {
    jp = parsedJsonPath(template);
  } catch (e) {
    return { ok: false, error: `error parsing jsonpath ${template}, ${(e as Error).message}` };
  }
  try {
    return { ok: true, text: jp.execute(data, o) };
  } catch (e) {
    const msg =
      `Error executing template: ${(e as Error).message}. Printing more information for debugging the template:\n` +
      `\ttemplate was:\n\t\t${template}\n` +
      `\tobject given to jsonpath engine was:\n\t\t${goSyntax(sortKeys(data))}\n\n`;
    return { ok: false, error: `error executing jsonpath ${JSON.stringify(template)}: ${msg}` };
  }
}
