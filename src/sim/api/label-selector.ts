/**
 * Label selectors as k8s.io/apimachinery v0.35 pkg/labels selector.go Parse and Requirement.Matches
 * read them: the API server for `-l`, kubectl's ParseToLabelSelector, CoreDNS's `labels`, and helm
 * v4.1.4's `list --selector` (pkg/action/list.go filterSelector over a release's labels). Parsing follows the lexer and the recursive-descent parser token by token, so
 * every refusal reads as upstream's (`unable to parse requirement: found 'b', expected: in, notin,
 * =, ==, !=, gt, lt`, `found ',', expected: identifier after ','`), including the field errors of
 * NewRequirement for a bad key or value (pkg/api/validate/content kube.go IsLabelKey,
 * IsLabelValue; field.Error `PATH: Invalid value: "V": DETAIL`, several as `[a, b]`).
 */
import { goQuote } from '../../util/go-quote.js';

type Tok = 'error' | 'eos' | ')' | ',' | '!' | '==' | '=' | '>' | 'id' | 'in' | '<' | '!=' | 'notin' | '(';

export type Op = 'in' | 'notin' | '=' | '==' | '!=' | 'gt' | 'lt' | 'exists' | '!';

export interface Requirement {
  key: string;
  op: Op;
  values: string[];
}

export class SelectorError extends Error {}

/** The literal tokens (string2token). */
const LITERAL: Record<string, Tok> = { ')': ')', ',': ',', '!': '!', '==': '==', '=': '=', '>': '>', in: 'in', '<': '<', '!=': '!=', notin: 'notin', '(': '(' };
const isSpace = (c: string): boolean => c === ' ' || c === '\t' || c === '\r' || c === '\n';
const isSpecial = (c: string): boolean => '=!(),><'.includes(c);

/** Lexer.Lex over the whole input (Parser.scan): each token with its literal, ending with eos. */
function scan(s: string): [Tok, string][] {
  const items: [Tok, string][] = [];
  let pos = 0;
  for (;;) {
    while (pos < s.length && isSpace(s[pos]!)) pos++;
    if (pos >= s.length) {
      items.push(['eos', '']);
      return items;
    }
    if (isSpecial(s[pos]!)) {
      // scanSpecialSymbol: the longest run of symbols that is still a token
      let buf = '';
      let last: [Tok, string] | undefined;
      while (pos < s.length && isSpecial(s[pos]!)) {
        buf += s[pos];
        pos++;
        if (LITERAL[buf] !== undefined) last = [LITERAL[buf]!, buf];
        else if (last) {
          pos--;
          break;
        }
      }
      items.push(last ?? ['error', `error expected: keyword found '${buf}'`]);
      continue;
    }
    let buf = '';
    while (pos < s.length && !isSpecial(s[pos]!) && !isSpace(s[pos]!)) buf += s[pos++];
    items.push([LITERAL[buf] ?? 'id', buf]);
  }
}

const LABEL_KEY_FMT = '([A-Za-z0-9][-A-Za-z0-9_.]*)?[A-Za-z0-9]';
const LABEL_KEY_RE = /^([A-Za-z0-9][-A-Za-z0-9_.]*)?[A-Za-z0-9]$/;
const LABEL_VALUE_RE = /^(([A-Za-z0-9][-A-Za-z0-9_.]*)?[A-Za-z0-9])?$/;
const DNS1123_SUBDOMAIN_FMT = '[a-z0-9]([-a-z0-9]*[a-z0-9])?(\\.[a-z0-9]([-a-z0-9]*[a-z0-9])?)*';
const DNS1123_SUBDOMAIN_RE = /^[a-z0-9]([-a-z0-9]*[a-z0-9])?(\.[a-z0-9]([-a-z0-9]*[a-z0-9])?)*$/;

/** content.RegexError with examples (the `',  or '` spacing is upstream's). */
const regexError = (msg: string, re: string, ...examples: string[]): string => `${msg} (e.g. ${examples.map((e) => `'${e}', `).join(' or ')}regex used for validation is '${re}')`;
const byteLength = (s: string): number => Buffer.byteLength(s, 'utf8');
const KEY_MSG = "must consist of alphanumeric characters, '-', '_' or '.', and must start and end with an alphanumeric character";

/** content.IsLabelKey. */
export function labelKeyProblems(value: string): string[] {
  const errs: string[] = [];
  const parts = value.split('/');
  let name: string;
  if (parts.length === 1) name = parts[0]!;
  else if (parts.length === 2) {
    const prefix = parts[0]!;
    name = parts[1]!;
    if (prefix === '') errs.push('prefix part must be non-empty');
    else {
      if (byteLength(prefix) > 253) errs.push('prefix part must be no more than 253 bytes');
      if (!DNS1123_SUBDOMAIN_RE.test(prefix))
        errs.push(`prefix part ${regexError("a lowercase RFC 1123 subdomain must consist of lower case alphanumeric characters, '-' or '.', and must start and end with an alphanumeric character", DNS1123_SUBDOMAIN_FMT, 'example.com')}`);
    }
  } else return [`a valid label key ${regexError(KEY_MSG, LABEL_KEY_FMT, 'MyName', 'my.name', '123-abc')} with an optional DNS subdomain prefix and '/' (e.g. 'example.com/MyName')`];
  if (name === '') errs.push('name part must be non-empty');
  else if (byteLength(name) > 63) errs.push('name part must be no more than 63 bytes');
  if (!LABEL_KEY_RE.test(name)) errs.push(`name part ${regexError(KEY_MSG, LABEL_KEY_FMT, 'MyName', 'my.name', '123-abc')}`);
  return errs;
}

/** content.IsLabelValue. */
export function labelValueProblems(value: string): string[] {
  const errs: string[] = [];
  if (byteLength(value) > 63) errs.push('must be no more than 63 bytes');
  if (!LABEL_VALUE_RE.test(value))
    errs.push(
      regexError("a valid label must be an empty string or consist of alphanumeric characters, '-', '_' or '.', and must start and end with an alphanumeric character", `(${LABEL_KEY_FMT})?`, 'MyValue', 'my_value', '12345'),
    );
  return errs;
}

/** strconv.ParseInt(s, 10, 64) succeeds. */
const isInt64 = (s: string): boolean => /^[+-]?[0-9]+$/.test(s) && BigInt(s) >= -(2n ** 63n) && BigInt(s) < 2n ** 63n;

/** field.ErrorList.ToAggregate().Error(): one message, or `[a, b]` without repeats. */
function aggregate(errs: string[]): string | undefined {
  const uniq = [...new Set(errs)];
  if (uniq.length === 0) return undefined;
  return uniq.length === 1 ? uniq[0] : `[${uniq.join(', ')}]`;
}

const invalid = (path: string, value: string, detail: string): string => `${path}: Invalid value: ${goQuote(value)}: ${detail}`;

/** NewRequirement's checks (the key was validated while parsing it). */
function newRequirement(key: string, op: Op, values: string[]): Requirement {
  const errs: string[] = [];
  const keyErrs = labelKeyProblems(key);
  if (keyErrs.length > 0) errs.push(invalid('key', key, keyErrs.join('; ')));
  if (op === 'gt' || op === 'lt') values.forEach((v, i) => void (!isInt64(v) && errs.push(invalid(`values[${i}]`, v, "for 'Gt', 'Lt' operators, the value must be an integer"))));
  values.forEach((v, i) => {
    const p = labelValueProblems(v);
    if (p.length > 0) errs.push(invalid(`values[${i}][${key}]`, v, p.join('; ')));
  });
  const msg = aggregate(errs);
  if (msg !== undefined) throw new SelectorError(msg);
  return { key, op, values };
}

/** sets.String List(): sorted, without duplicates. */
const sortedSet = (v: Iterable<string>): string[] => [...new Set(v)].sort();

/** labels.Parse: the requirements, sorted by key, or the parser's error. */
export function parseSelector(selector: string): Requirement[] {
  const items = scan(selector);
  let pos = 0;
  // in a value position `in` and `notin` are identifiers
  const asValue = (t: Tok): Tok => (t === 'in' || t === 'notin' ? 'id' : t);
  const lookahead = (values: boolean): [Tok, string] => [values ? asValue(items[pos]![0]) : items[pos]![0], items[pos]![1]];
  const consume = (values: boolean): [Tok, string] => {
    const r = lookahead(values);
    pos++;
    return r;
  };

  const parseValues = (): string[] => {
    const [tok, lit] = consume(true);
    if (tok !== '(') throw new SelectorError(`found '${lit}' expected: '('`);
    const [t2, l2] = lookahead(true);
    if (t2 === ')') {
      consume(true);
      return [''];
    }
    if (t2 !== 'id' && t2 !== ',') throw new SelectorError(`found '${l2}', expected: ',', ')' or identifier`);
    const s = new Set<string>();
    for (;;) {
      const [t, l] = consume(true);
      if (t === 'id') {
        s.add(l);
        const [t3, l3] = lookahead(true);
        if (t3 === ',') continue;
        if (t3 === ')') break;
        throw new SelectorError(`found '${l3}', expected: ',' or ')'`);
      } else if (t === ',') {
        if (s.size === 0) s.add('');
        const [t3] = lookahead(true);
        if (t3 === ')') {
          s.add('');
          break;
        }
        if (t3 === ',') s.add('');
      } else throw new SelectorError(`found '${l}', expected: ',', or identifier`);
    }
    if (consume(true)[0] !== ')') throw new SelectorError(`found '${l2}', expected: ')'`);
    return sortedSet(s);
  };

  const parseRequirement = (): Requirement => {
    // parseKeyAndInferOperator
    let [tok, key] = consume(true);
    let op: Op | undefined;
    if (tok === '!') {
      op = '!';
      [tok, key] = consume(true);
    }
    if (tok !== 'id') throw new SelectorError(`found '${key}', expected: identifier`);
    const keyErrs = labelKeyProblems(key);
    if (keyErrs.length > 0) throw new SelectorError(invalid('<nil>', key, keyErrs.join('; ')));
    const [next] = lookahead(true);
    if (next === 'eos' || next === ',') op = op ?? 'exists';
    if (op === 'exists' || op === '!') return newRequirement(key, op, []);
    // parseOperator
    const [t, lit] = consume(false);
    const ops: Partial<Record<Tok, Op>> = { in: 'in', '=': '=', '==': '==', '>': 'gt', '<': 'lt', notin: 'notin', '!=': '!=' };
    const bin = ops[t];
    if (bin === undefined) throw new SelectorError(`found '${lit}', expected: in, notin, =, ==, !=, gt, lt`);
    if (bin === 'in' || bin === 'notin') return newRequirement(key, bin, parseValues());
    // parseExactValue
    const [vt] = lookahead(true);
    if (vt === 'eos' || vt === ',') return newRequirement(key, bin, ['']);
    const [ct, cl] = consume(true);
    if (ct !== 'id') throw new SelectorError(`found '${cl}', expected: identifier`);
    return newRequirement(key, bin, [cl]);
  };

  const reqs: Requirement[] = [];
  for (;;) {
    const [tok, lit] = lookahead(true);
    if (tok === 'eos') break;
    if (tok !== 'id' && tok !== '!') throw new SelectorError(`found '${lit}', expected: !, identifier, or 'end of string'`);
    try {
      reqs.push(parseRequirement());
    } catch (e) {
      if (e instanceof SelectorError) throw new SelectorError(`unable to parse requirement: ${e.message}`);
      throw e;
    }
    const [t, l] = consume(true);
    if (t === 'eos') break;
    if (t !== ',') throw new SelectorError(`found '${l}', expected: ',' or 'end of string'`);
    const [t2, l2] = lookahead(true);
    if (t2 !== 'id' && t2 !== '!') throw new SelectorError(`found '${l2}', expected: identifier after ','`);
  }
  return reqs.sort((a, b) => (a.key < b.key ? -1 : a.key > b.key ? 1 : 0));
}

/** Requirement.Matches over a release's labels; every requirement must hold. */
export function selectorMatches(reqs: readonly Requirement[], labels: Readonly<Record<string, string>>): boolean {
  const has = (k: string): boolean => Object.prototype.hasOwnProperty.call(labels, k);
  return reqs.every((r) => {
    switch (r.op) {
      case 'in':
      case '=':
      case '==':
        return has(r.key) && r.values.includes(labels[r.key]!);
      case 'notin':
      case '!=':
        return !has(r.key) || !r.values.includes(labels[r.key]!);
      case 'exists':
        return has(r.key);
      case '!':
        return !has(r.key);
      case 'gt':
      case 'lt': {
        if (!has(r.key) || !isInt64(labels[r.key]!)) return false;
        const v = BigInt(labels[r.key]!);
        const w = BigInt(r.values[0]!);
        return r.op === 'gt' ? v > w : v < w;
      }
    }
    return false;
  });
}
