/**
 * The parser of Go's text/template (golang src/text/template/parse/parse.go, node.go): builds the
 * node tree of a template and its `{{define}}`/`{{block}}` sub-templates. Errors are parse.go's:
 * `template: NAME:LINE: MESSAGE` (`function "foo" not defined`, `unexpected EOF`,
 * `unexpected "}" in operand`, `undefined variable "$x"`, `missing value for command`, …).
 */
import { type Item, type ItemType, itemString, lex } from './lex.js';
import { goQuote } from '../../util/go-quote.js';

export type Node =
  | ListNode
  | TextNode
  | ActionNode
  | PipeNode
  | CommandNode
  | { type: 'identifier'; pos: number; name: string }
  | VariableNode
  | { type: 'dot'; pos: number }
  | { type: 'nil'; pos: number }
  | FieldNode
  | ChainNode
  | { type: 'bool'; pos: number; value: boolean }
  | NumberNode
  | { type: 'string'; pos: number; quoted: string; text: string }
  | BranchNode
  | TemplateNode
  | { type: 'break'; pos: number; line: number }
  | { type: 'continue'; pos: number; line: number }
  | { type: 'end'; pos: number }
  | { type: 'else'; pos: number; line: number };

export interface ListNode {
  type: 'list';
  pos: number;
  nodes: Node[];
}
export interface TextNode {
  type: 'text';
  pos: number;
  text: string;
}
export interface ActionNode {
  type: 'action';
  pos: number;
  line: number;
  pipe: PipeNode;
}
export interface PipeNode {
  type: 'pipe';
  pos: number;
  line: number;
  isAssign: boolean;
  decl: VariableNode[];
  cmds: CommandNode[];
}
export interface CommandNode {
  type: 'command';
  pos: number;
  args: Node[];
}
export interface VariableNode {
  type: 'variable';
  pos: number;
  ident: string[];
}
export interface FieldNode {
  type: 'field';
  pos: number;
  ident: string[];
}
export interface ChainNode {
  type: 'chain';
  pos: number;
  node: Node;
  field: string[];
}
export interface NumberNode {
  type: 'number';
  pos: number;
  text: string;
  /** int literal (Go `int`), else float64. */
  isInt: boolean;
  value: number;
}
export interface BranchNode {
  type: 'if' | 'range' | 'with';
  pos: number;
  line: number;
  pipe: PipeNode;
  list: ListNode;
  elseList: ListNode | undefined;
}
export interface TemplateNode {
  type: 'template';
  pos: number;
  line: number;
  name: string;
  pipe: PipeNode | undefined;
}

export interface Tree {
  name: string;
  root: ListNode;
  text: string;
  /** parse.Tree's ParseName: the top-level template whose text defined this one (error locations name it). */
  parseName?: string;
}

export class TemplateParseError extends Error {}

/** node.go String() of every node kind: the text shown in `executing "x" at <…>`. */
export function nodeString(n: Node): string {
  switch (n.type) {
    case 'list':
      return n.nodes.map(nodeString).join('');
    case 'text':
      return goQuote(n.text);
    case 'action':
      return `{{${nodeString(n.pipe)}}}`;
    case 'pipe': {
      let s = '';
      if (n.decl.length > 0) s = `${n.decl.map(nodeString).join(', ')} ${n.isAssign ? '=' : ':='} `;
      return s + n.cmds.map(nodeString).join(' | ');
    }
    case 'command':
      return n.args.map((a) => (a.type === 'pipe' ? `(${nodeString(a)})` : nodeString(a))).join(' ');
    case 'identifier':
      return n.name;
    case 'variable':
      return n.ident.join('.');
    case 'dot':
      return '.';
    case 'nil':
      return 'nil';
    case 'field':
      return n.ident.map((i) => `.${i}`).join('');
    case 'chain':
      return (n.node.type === 'pipe' ? `(${nodeString(n.node)})` : nodeString(n.node)) + n.field.map((f) => `.${f}`).join('');
    case 'bool':
      return String(n.value);
    case 'number':
      return n.text;
    case 'string':
      return n.quoted;
    case 'if':
    case 'range':
    case 'with': {
      const els = n.elseList ? `{{else}}${nodeString(n.elseList)}` : '';
      return `{{${n.type} ${nodeString(n.pipe)}}}${nodeString(n.list)}${els}{{end}}`;
    }
    case 'template':
      return n.pipe ? `{{template ${goQuote(n.name)} ${nodeString(n.pipe)}}}` : `{{template ${goQuote(n.name)}}}`;
    case 'break':
      return '{{break}}';
    case 'continue':
      return '{{continue}}';
    case 'end':
      return '{{end}}';
    case 'else':
      return '{{else}}';
  }
}

/** strconv.Unquote for "…" and `…` literals. */
export function unquote(s: string): string {
  if (s.startsWith('`')) return s.slice(1, -1);
  const body = s.slice(1, -1);
  let out = '';
  for (let i = 0; i < body.length; i++) {
    const ch = body[i]!;
    if (ch !== '\\') {
      out += ch;
      continue;
    }
    const e = body[++i]!;
    const simple: Record<string, string> = { n: '\n', t: '\t', r: '\r', a: '\x07', b: '\b', f: '\f', v: '\v', '\\': '\\', '"': '"', "'": "'" };
    if (e in simple) out += simple[e];
    else if (e === 'x') {
      out += String.fromCharCode(parseInt(body.slice(i + 1, i + 3), 16));
      i += 2;
    } else if (e === 'u' || e === 'U') {
      const n = e === 'u' ? 4 : 8;
      out += String.fromCodePoint(parseInt(body.slice(i + 1, i + 1 + n), 16));
      i += n;
    } else if (e >= '0' && e <= '7') {
      out += String.fromCharCode(parseInt(body.slice(i, i + 3), 8));
      i += 2;
    } else throw new TemplateParseError('invalid syntax');
  }
  return out;
}

function parseNumber(text: string, typ: ItemType): { isInt: boolean; value: number } | undefined {
  if (typ === 'charConstant') {
    const body = unquote(`"${text.slice(1, -1).replace(/"/g, '\\"')}"`);
    return { isInt: true, value: body.codePointAt(0) ?? 0 };
  }
  const clean = text.replace(/_/g, '');
  if (/^[+-]?(0[xX][0-9a-fA-F]+|0[oO]?[0-7]+|0[bB][01]+|[1-9][0-9]*|0)$/.test(clean)) {
    const neg = clean.startsWith('-');
    const body = clean.replace(/^[+-]/, '');
    let v: number;
    if (/^0[xX]/.test(body)) v = parseInt(body.slice(2), 16);
    else if (/^0[bB]/.test(body)) v = parseInt(body.slice(2), 2);
    else if (/^0[oO]/.test(body)) v = parseInt(body.slice(2), 8);
    else if (/^0[0-7]+$/.test(body)) v = parseInt(body.slice(1), 8);
    else v = parseInt(body, 10);
    return { isInt: true, value: neg ? -v : v };
  }
  const f = Number(clean);
  if (!Number.isNaN(f) && /^[+-]?(\d+\.?\d*([eE][+-]?\d+)?|\.\d+([eE][+-]?\d+)?)$/.test(clean)) {
    // 1e3 and 2.0 are integral floats: Go keeps them usable as ints too, as float64 by default
    return { isInt: false, value: f };
  }
  return undefined;
}

class Parser {
  private items: Item[];
  private i = 0;
  private vars: string[] = ['$'];
  private actionLine = 0;
  private rangeDepth = 0;
  /** The line of the last token read (t.token[0].line). */
  private lastLine = 1;

  constructor(
    private readonly parseName: string,
    private readonly text: string,
    private readonly funcs: ReadonlySet<string>,
    private readonly trees: Map<string, Tree>,
  ) {
    this.items = lex(text);
  }

  private errorf(msg: string): never {
    throw new TemplateParseError(`template: ${this.parseName}:${this.lastLine}: ${msg}`);
  }

  private next(): Item {
    const it = this.items[this.i] ?? this.items[this.items.length - 1]!;
    if (this.i < this.items.length) this.i++;
    this.lastLine = it.line;
    return it;
  }
  private backup(): void {
    this.i--;
  }
  private peek(): Item {
    return this.items[this.i] ?? this.items[this.items.length - 1]!;
  }
  private nextNonSpace(): Item {
    let t = this.next();
    while (t.typ === 'space') t = this.next();
    return t;
  }
  private peekNonSpace(): Item {
    const save = this.i;
    const saveLine = this.lastLine;
    const t = this.nextNonSpace();
    this.i = save;
    this.lastLine = saveLine;
    return t;
  }
  private unexpected(token: Item, context: string): never {
    if (token.typ === 'error') {
      let extra = '';
      if (this.actionLine !== 0 && this.actionLine !== token.line) {
        extra = ` in action started at ${this.parseName}:${this.actionLine}`;
        if (token.val.endsWith(' action')) extra = extra.slice(' in action'.length);
      }
      this.errorf(`${itemString(token)}${extra}`);
    }
    this.errorf(`unexpected ${itemString(token)} in ${context}`);
  }
  private expect(typ: ItemType, context: string): Item {
    const t = this.nextNonSpace();
    if (t.typ !== typ) this.unexpected(t, context);
    return t;
  }

  parse(name: string): void {
    const root: ListNode = { type: 'list', pos: this.peek().pos, nodes: [] };
    while (this.peek().typ !== 'EOF') {
      if (this.peek().typ === 'leftDelim') {
        const save = this.i;
        this.next();
        if (this.nextNonSpace().typ === 'define') {
          this.parseDefinition();
          continue;
        }
        this.i = save;
      }
      const n = this.textOrAction();
      if (n.type === 'end' || n.type === 'else') this.errorf(`unexpected ${nodeString(n)}`);
      root.nodes.push(n);
    }
    this.add({ name, root, text: this.text, parseName: this.parseName });
  }

  private add(tree: Tree): void {
    const old = this.trees.get(tree.name);
    if (!old || isEmptyTree(old.root)) {
      this.trees.set(tree.name, tree);
      return;
    }
    if (!isEmptyTree(tree.root)) this.errorf(`template: multiple definition of template ${goQuote(tree.name)}`);
  }

  private parseDefinition(): void {
    const context = 'define clause';
    const t = this.nextNonSpace();
    if (t.typ !== 'string' && t.typ !== 'rawString') this.unexpected(t, context);
    const name = unquote(t.val);
    this.expect('rightDelim', context);
    const saveVars = this.vars;
    this.vars = ['$'];
    const [root, end] = this.itemList();
    if (end.type !== 'end') this.errorf(`unexpected ${nodeString(end)} in ${context}`);
    this.vars = saveVars;
    this.add({ name, root, text: this.text, parseName: this.parseName });
  }

  private itemList(): [ListNode, Node] {
    const list: ListNode = { type: 'list', pos: this.peekNonSpace().pos, nodes: [] };
    while (this.peekNonSpace().typ !== 'EOF') {
      const n = this.textOrAction();
      if (n.type === 'end' || n.type === 'else') return [list, n];
      list.nodes.push(n);
    }
    this.errorf('unexpected EOF');
  }

  private textOrAction(): Node {
    const token = this.nextNonSpace();
    switch (token.typ) {
      case 'text':
        return { type: 'text', pos: token.pos, text: token.val };
      case 'leftDelim': {
        this.actionLine = token.line;
        try {
          return this.action();
        } finally {
          this.actionLine = 0;
        }
      }
      case 'error':
        this.errorf(token.val);
      // falls through (errorf never returns)
      default:
        this.unexpected(token, 'input');
    }
  }

  private action(): Node {
    const token = this.nextNonSpace();
    switch (token.typ) {
      case 'block':
        return this.blockControl();
      case 'break':
        return this.breakControl(token);
      case 'continue':
        return this.continueControl(token);
      case 'else':
        return this.elseControl();
      case 'end':
        return { type: 'end', pos: this.expect('rightDelim', 'end').pos };
      case 'if':
        return this.branch('if', true);
      case 'range':
        return this.branch('range', false);
      case 'template':
        return this.templateControl();
      case 'with':
        return this.branch('with', true);
      default:
        break;
    }
    this.backup();
    const t = this.peek();
    return { type: 'action', pos: t.pos, line: t.line, pipe: this.pipeline('command', 'rightDelim') };
  }

  private breakControl(token: Item): Node {
    const t = this.nextNonSpace();
    if (t.typ !== 'rightDelim') this.unexpected(t, '{{break}}');
    if (this.rangeDepth === 0) this.errorf('{{break}} outside {{range}}');
    return { type: 'break', pos: token.pos, line: token.line };
  }

  private continueControl(token: Item): Node {
    const t = this.nextNonSpace();
    if (t.typ !== 'rightDelim') this.unexpected(t, '{{continue}}');
    if (this.rangeDepth === 0) this.errorf('{{continue}} outside {{range}}');
    return { type: 'continue', pos: token.pos, line: token.line };
  }

  private pipeline(context: string, end: ItemType): PipeNode {
    const token = this.peekNonSpace();
    const pipe: PipeNode = { type: 'pipe', pos: token.pos, line: token.line, isAssign: false, decl: [], cmds: [] };
    decls: for (;;) {
      const v = this.peekNonSpace();
      if (v.typ !== 'variable') break;
      const save = this.i;
      this.nextNonSpace();
      const next = this.peekNonSpace();
      if (next.typ === 'assign' || next.typ === 'declare') {
        pipe.isAssign = next.typ === 'assign';
        this.nextNonSpace();
        pipe.decl.push({ type: 'variable', pos: v.pos, ident: v.val.split('.') });
        this.vars.push(v.val);
        break;
      }
      if (next.typ === 'char' && next.val === ',') {
        this.nextNonSpace();
        pipe.decl.push({ type: 'variable', pos: v.pos, ident: v.val.split('.') });
        this.vars.push(v.val);
        if (context === 'range' && pipe.decl.length < 2) {
          const p = this.peekNonSpace().typ;
          if (p === 'variable' || p === 'rightDelim' || p === 'rightParen') continue decls;
          this.errorf('range can only initialize variables');
        }
        this.errorf(`too many declarations in ${context}`);
      }
      this.i = save;
      break;
    }
    for (;;) {
      const token = this.nextNonSpace();
      switch (token.typ) {
        case end:
          this.checkPipeline(pipe, context);
          if (token.typ === 'rightParen') this.backup();
          return pipe;
        case 'bool':
        case 'charConstant':
        case 'dot':
        case 'field':
        case 'identifier':
        case 'number':
        case 'nil':
        case 'rawString':
        case 'string':
        case 'variable':
        case 'leftParen':
          this.backup();
          pipe.cmds.push(this.command());
          break;
        default:
          this.unexpected(token, context);
      }
    }
  }

  private checkPipeline(pipe: PipeNode, context: string): void {
    if (pipe.cmds.length === 0) this.errorf(`missing value for ${context}`);
    pipe.cmds.slice(1).forEach((c, i) => {
      const t = c.args[0]!.type;
      if (t === 'bool' || t === 'dot' || t === 'nil' || t === 'number' || t === 'string') this.errorf(`non executable command in pipeline stage ${i + 2}`);
    });
  }

  private branch(kind: 'if' | 'range' | 'with', allowElseIf: boolean): BranchNode {
    const nvars = this.vars.length;
    try {
      const pipe = this.pipeline(kind, 'rightDelim');
      if (kind === 'range') this.rangeDepth++;
      const [list, first] = this.itemList();
      let next = first;
      if (kind === 'range') this.rangeDepth--;
      let elseList: ListNode | undefined;
      if (next.type === 'else') {
        const peek = this.peek();
        if (allowElseIf && (peek.typ === 'if' || (kind === 'with' && peek.typ === 'with'))) {
          this.next();
          elseList = { type: 'list', pos: next.pos, nodes: [this.branch(peek.typ === 'if' ? 'if' : 'with', true)] };
        } else {
          [elseList, next] = this.itemList();
          if (next.type !== 'end') this.errorf(`expected end; found ${nodeString(next)}`);
        }
      }
      return { type: kind, pos: pipe.pos, line: pipe.line, pipe, list, elseList };
    } finally {
      this.vars.length = nvars;
    }
  }

  private elseControl(): Node {
    const peek = this.peekNonSpace();
    if (peek.typ === 'if' || peek.typ === 'with') {
      // `{{else if …}}` is parsed as `{{else}}{{if …}}…{{end}}`; leave the keyword pending
      while (this.peek().typ === 'space') this.next();
      return { type: 'else', pos: peek.pos, line: peek.line };
    }
    const t = this.expect('rightDelim', 'else');
    return { type: 'else', pos: t.pos, line: t.line };
  }

  private blockControl(): Node {
    const context = 'block clause';
    const token = this.nextNonSpace();
    const name = this.templateName(token, context);
    const pipe = this.pipeline(context, 'rightDelim');
    const saveVars = this.vars;
    this.vars = ['$'];
    const [root, end] = this.itemList();
    if (end.type !== 'end') this.errorf(`unexpected ${nodeString(end)} in ${context}`);
    this.vars = saveVars;
    this.add({ name, root, text: this.text, parseName: this.parseName });
    return { type: 'template', pos: token.pos, line: token.line, name, pipe };
  }

  private templateControl(): Node {
    const context = 'template clause';
    const token = this.nextNonSpace();
    const name = this.templateName(token, context);
    let pipe: PipeNode | undefined;
    if (this.nextNonSpace().typ !== 'rightDelim') {
      this.backup();
      pipe = this.pipeline(context, 'rightDelim');
    }
    return { type: 'template', pos: token.pos, line: token.line, name, pipe };
  }

  private templateName(token: Item, context: string): string {
    if (token.typ === 'string' || token.typ === 'rawString') return unquote(token.val);
    this.unexpected(token, context);
  }

  private command(): CommandNode {
    const cmd: CommandNode = { type: 'command', pos: this.peekNonSpace().pos, args: [] };
    for (;;) {
      this.peekNonSpace();
      const operand = this.operand();
      if (operand) cmd.args.push(operand);
      const token = this.next();
      if (token.typ === 'space') continue;
      if (token.typ === 'error') this.errorf(token.val);
      if (token.typ === 'rightDelim' || token.typ === 'rightParen') this.backup();
      else if (token.typ !== 'pipe') this.errorf(`unexpected ${itemString(token)} in operand`);
      break;
    }
    if (cmd.args.length === 0) this.errorf('empty command');
    return cmd;
  }

  private operand(): Node | undefined {
    const node = this.term();
    if (!node) return undefined;
    if (this.peek().typ === 'field') {
      const pos = this.peek().pos;
      const fields: string[] = [];
      while (this.peek().typ === 'field') fields.push(this.next().val.slice(1));
      switch (node.type) {
        case 'field':
          return { type: 'field', pos, ident: [...node.ident, ...fields] };
        case 'variable':
          return { type: 'variable', pos, ident: [...node.ident, ...fields] };
        case 'bool':
        case 'string':
        case 'number':
        case 'nil':
        case 'dot':
          this.errorf(`unexpected . after term ${goQuote(nodeString(node))}`);
        // falls through (errorf never returns)
        default:
          return { type: 'chain', pos, node, field: fields };
      }
    }
    return node;
  }

  private term(): Node | undefined {
    const token = this.nextNonSpace();
    switch (token.typ) {
      case 'error':
        this.errorf(token.val);
      // falls through (errorf never returns)
      case 'identifier':
        if (!this.funcs.has(token.val)) this.errorf(`function ${goQuote(token.val)} not defined`);
        return { type: 'identifier', pos: token.pos, name: token.val };
      case 'dot':
        return { type: 'dot', pos: token.pos };
      case 'nil':
        return { type: 'nil', pos: token.pos };
      case 'variable': {
        const ident = token.val.split('.');
        if (!this.vars.includes(ident[0]!)) this.errorf(`undefined variable ${goQuote(ident[0]!)}`);
        return { type: 'variable', pos: token.pos, ident };
      }
      case 'field':
        return { type: 'field', pos: token.pos, ident: [token.val.slice(1)] };
      case 'bool':
        return { type: 'bool', pos: token.pos, value: token.val === 'true' };
      case 'charConstant':
      case 'number': {
        const n = parseNumber(token.val, token.typ);
        if (!n) this.errorf(`illegal number syntax: ${goQuote(token.val)}`);
        return { type: 'number', pos: token.pos, text: token.val, ...n };
      }
      case 'leftParen': {
        const pipe = this.pipeline('parenthesized pipeline', 'rightParen');
        const t = this.next();
        if (t.typ !== 'rightParen') this.errorf(`unclosed right paren: unexpected ${itemString(t)}`);
        return pipe;
      }
      case 'string':
      case 'rawString':
        try {
          return { type: 'string', pos: token.pos, quoted: token.val, text: unquote(token.val) };
        } catch (e) {
          this.errorf((e as Error).message);
        }
      // falls through (errorf never returns)
      default:
        this.backup();
        return undefined;
    }
  }
}

/** IsEmptyTree: only white-space text. */
function isEmptyTree(n: Node): boolean {
  if (n.type === 'list') return n.nodes.every(isEmptyTree);
  if (n.type === 'text') return n.text.trim() === '';
  return false;
}

/** Parse `text` as the template `name`; defined templates land in `trees` beside it. */
export function parseTemplate(name: string, text: string, funcs: ReadonlySet<string>, trees: Map<string, Tree> = new Map()): Map<string, Tree> {
  new Parser(name, text, funcs, trees).parse(name);
  return trees;
}
