/**
 * Executing a parsed template (golang src/text/template/exec.go): walking the tree with dot and
 * variables, field chains over maps, pipelines with the previous value as the last argument,
 * if/with/range (maps in sorted key order, integers, `else`, `break`/`continue`), `template`
 * and `block` calls, and the `missingkey` option. Errors read like Go's:
 * `template: output:1:7: executing "output" at <.spec.foo>: map has no entry for key "foo"`.
 */
import { printArg } from './fmt.js';
import { BUILTINS, FuncError, type FuncMap, type ParamKind } from './funcs.js';
import type { BranchNode, ChainNode, CommandNode, Node, PipeNode, TemplateNode, Tree } from './parse.js';
import { nodeString } from './parse.js';
import { LOCAL, UTC } from './go-time.js';
import { GoFunc, GoNum, GoStruct, GoTime, type GoValue, int, isMap, isTrue, sortedKeys, typeName } from './value.js';

export type MissingKey = 'default' | 'zero' | 'error';

/** The time.Time methods a template can call (`$t.Unix`, `$t.Format "Jan 2"`): receiver first, then string arguments. */
const TIME_METHODS: Record<string, (t: GoTime, ...a: string[]) => GoValue> = {
  Unix: (t) => new GoNum('int64', t.unix()),
  UnixMilli: (t) => new GoNum('int64', t.unix() * 1000 + Math.floor(t.nsec / 1e6)),
  Year: (t) => int(Number(t.format('2006'))),
  YearDay: (t) => int(Number(t.format('002'))),
  Day: (t) => int(Number(t.format('2'))),
  Hour: (t) => int(Number(t.format('15'))),
  Minute: (t) => int(Number(t.format('4'))),
  Second: (t) => int(Number(t.format('5'))),
  Nanosecond: (t) => int(t.nsec),
  IsZero: (t) => t.isZero(),
  UTC: (t) => t.in(UTC),
  Local: (t) => t.in(LOCAL),
  String: (t) => t.toString(),
  Format: (t, layout) => t.format(layout!),
};

export class TemplateExecError extends Error {
  /** What the template had written before it failed (Go writes as it goes). */
  partial = '';
}

/** The `final` argument of a command when nothing is piped in (exec.go's missingVal). */
const MISSING = Symbol('missing');
type Final = GoValue | typeof MISSING;

class BreakSignal {}
class ContinueSignal {}

interface Variable {
  name: string;
  value: GoValue;
  /** The value came out of a map or slice, so its static type is `interface {}`. */
  iface: boolean;
}

const MAX_DEPTH = 100000;

class State {
  node: Node | undefined;
  vars: Variable[];
  out: string[] = [];

  constructor(
    private readonly trees: ReadonlyMap<string, Tree>,
    private tree: Tree,
    private readonly funcs: FuncMap,
    private readonly missingKey: MissingKey,
    private readonly depth: number,
    dot: GoValue,
    out: string[],
  ) {
    this.vars = [{ name: '$', value: dot, iface: false }];
    this.out = out;
  }

  errorf(msg: string): never {
    const name = this.tree.name;
    if (!this.node) throw new TemplateExecError(`template: ${name}: ${msg}`);
    const pos = this.node.pos;
    const text = this.tree.text.slice(0, pos);
    const nl = text.lastIndexOf('\n');
    const col = nl < 0 ? pos : pos - (nl + 1);
    const line = 1 + (text.match(/\n/g)?.length ?? 0);
    // the location names the top-level template being parsed (ParseName), the executing one the tree
    throw new TemplateExecError(`template: ${this.tree.parseName ?? this.parseName}:${line}:${col}: executing ${JSON.stringify(name)} at <${nodeString(this.node)}>: ${msg}`);
  }

  parseName = '';

  walk(dot: GoValue, dotIface: boolean, node: Node): void {
    this.node = node;
    switch (node.type) {
      case 'action': {
        const val = this.evalPipeline(dot, dotIface, node.pipe);
        if (node.pipe.decl.length === 0) this.printValue(node, val);
        return;
      }
      case 'break':
        throw new BreakSignal();
      case 'continue':
        throw new ContinueSignal();
      case 'if':
      case 'with':
        return this.walkIfOrWith(dot, dotIface, node);
      case 'list':
        for (const n of node.nodes) this.walk(dot, dotIface, n);
        return;
      case 'range':
        return this.walkRange(dot, dotIface, node);
      case 'template':
        return this.walkTemplate(dot, dotIface, node);
      case 'text':
        this.out.push(node.text);
        return;
      default:
        this.errorf(`unknown node: ${nodeString(node)}`);
    }
  }

  private walkIfOrWith(dot: GoValue, dotIface: boolean, node: BranchNode): void {
    const mark = this.vars.length;
    try {
      const val = this.evalPipeline(dot, dotIface, node.pipe);
      if (isTrue(val)) {
        if (node.type === 'with') this.walk(val, false, node.list);
        else this.walk(dot, dotIface, node.list);
      } else if (node.elseList) this.walk(dot, dotIface, node.elseList);
    } finally {
      this.vars.length = mark;
    }
  }

  private walkRange(dot: GoValue, dotIface: boolean, node: BranchNode): void {
    this.node = node;
    const outer = this.vars.length;
    try {
      const raw = this.evalPipeline(dot, dotIface, node.pipe);
      const val = raw === null ? undefined : raw;
      const mark = this.vars.length;
      const decl = node.pipe.decl;
      const one = (index: GoValue, elem: GoValue, elemIface: boolean): boolean => {
        if (decl.length > 0) {
          if (node.pipe.isAssign) {
            if (decl.length > 1) {
              this.setVar(decl[0]!.ident[0]!, index, false);
              this.setVar(decl[1]!.ident[0]!, elem, elemIface);
            } else this.setVar(decl[0]!.ident[0]!, elem, elemIface);
          } else {
            this.vars[this.vars.length - 1] = { ...this.vars[this.vars.length - 1]!, value: elem, iface: elemIface };
            if (decl.length > 1) this.vars[this.vars.length - 2] = { ...this.vars[this.vars.length - 2]!, value: index, iface: false };
          }
        }
        try {
          this.walk(elem, elemIface, node.list);
        } catch (e) {
          if (e instanceof BreakSignal) return false;
          if (!(e instanceof ContinueSignal)) throw e;
        } finally {
          this.vars.length = mark;
        }
        return true;
      };
      if (Array.isArray(val)) {
        if (val.length === 0) return this.walkElse(dot, dotIface, node);
        for (let i = 0; i < val.length; i++) if (!one(int(i), val[i], true)) break;
        return;
      }
      if (isMap(val)) {
        const keys = sortedKeys(val);
        if (keys.length === 0) return this.walkElse(dot, dotIface, node);
        for (const k of keys) if (!one(k, val[k], true)) break;
        return;
      }
      if (val instanceof GoNum && val.isInt) {
        if (decl.length > 1) this.errorf(`can't use ${printArg(val, 'v')} to iterate over more than one variable`);
        if (val.v <= 0) return this.walkElse(dot, dotIface, node);
        for (let i = 0; i < val.v; i++) if (!one(new GoNum(val.t, i), new GoNum(val.t, i), false)) break;
        return;
      }
      if (val === undefined) return this.walkElse(dot, dotIface, node);
      this.errorf(`range can't iterate over ${printArg(val, 'v')}`);
    } finally {
      this.vars.length = outer;
    }
  }

  private walkElse(dot: GoValue, dotIface: boolean, node: BranchNode): void {
    if (node.elseList) this.walk(dot, dotIface, node.elseList);
  }

  private walkTemplate(dot: GoValue, dotIface: boolean, node: TemplateNode): void {
    this.node = node;
    const tree = this.trees.get(node.name);
    if (!tree) this.errorf(`template ${JSON.stringify(node.name)} not defined`);
    if (this.depth >= MAX_DEPTH) this.errorf(`exceeded maximum template depth (${MAX_DEPTH})`);
    const newDot = node.pipe ? this.evalPipeline(dot, dotIface, node.pipe) : undefined;
    const sub = new State(this.trees, tree, this.funcs, this.missingKey, this.depth + 1, newDot, this.out);
    sub.parseName = this.parseName;
    sub.walk(newDot, false, tree.root);
  }

  private setVar(name: string, value: GoValue, iface: boolean): void {
    for (let i = this.vars.length - 1; i >= 0; i--) {
      if (this.vars[i]!.name === name) {
        this.vars[i] = { name, value, iface };
        return;
      }
    }
    this.errorf(`undefined variable: ${name}`);
  }

  private varValue(name: string): Variable {
    for (let i = this.vars.length - 1; i >= 0; i--) if (this.vars[i]!.name === name) return this.vars[i]!;
    this.errorf(`undefined variable: ${name}`);
  }

  evalPipeline(dot: GoValue, dotIface: boolean, pipe: PipeNode): GoValue {
    this.node = pipe;
    let value: Final = MISSING;
    for (const cmd of pipe.cmds) value = this.evalCommand(dot, dotIface, cmd, value);
    let v: GoValue = value === MISSING ? undefined : value;
    if (v === null) v = undefined; // an interface{} holding nil is no value
    for (const d of pipe.decl) {
      if (pipe.isAssign) this.setVar(d.ident[0]!, v, false);
      else this.vars.push({ name: d.ident[0]!, value: v, iface: false });
    }
    return v;
  }

  private notAFunction(args: readonly Node[], final: Final): void {
    if (args.length > 1 || final !== MISSING) this.errorf(`can't give argument to non-function ${nodeString(args[0]!)}`);
  }

  private evalCommand(dot: GoValue, dotIface: boolean, cmd: CommandNode, final: Final): GoValue {
    const first = cmd.args[0]!;
    switch (first.type) {
      case 'field':
        this.node = first;
        return this.evalFieldChain(dot, dot, dotIface, first.ident, cmd.args, final);
      case 'chain':
        return this.evalChain(dot, dotIface, first, cmd.args, final);
      case 'identifier':
        this.node = first;
        return this.evalFunction(dot, dotIface, first.name, cmd, cmd.args, final);
      case 'pipe':
        this.notAFunction(cmd.args, final);
        return this.evalPipeline(dot, dotIface, first);
      case 'variable': {
        this.node = first;
        const v = this.varValue(first.ident[0]!);
        if (first.ident.length === 1) {
          this.notAFunction(cmd.args, final);
          return v.value;
        }
        return this.evalFieldChain(dot, v.value, v.iface, first.ident.slice(1), cmd.args, final);
      }
      default:
        break;
    }
    this.node = first;
    this.notAFunction(cmd.args, final);
    switch (first.type) {
      case 'bool':
        return first.value;
      case 'dot':
        return dot;
      case 'nil':
        this.errorf('nil is not a command');
      // falls through (errorf never returns)
      case 'number':
        return new GoNum(first.isInt ? 'int' : 'float64', first.value);
      case 'string':
        return first.text;
      default:
        this.errorf(`can't evaluate command ${JSON.stringify(nodeString(first))}`);
    }
  }

  private evalChain(dot: GoValue, dotIface: boolean, chain: ChainNode, args: readonly Node[], final: Final): GoValue {
    this.node = chain;
    if (chain.node.type === 'nil') this.errorf(`indirection through explicit nil in ${nodeString(chain)}`);
    const pipe = this.evalArg(dot, dotIface, 'any', chain.node);
    return this.evalFieldChain(dot, pipe, false, chain.field, args, final);
  }

  private evalFieldChain(dot: GoValue, receiver: GoValue, iface: boolean, ident: readonly string[], args: readonly Node[], final: Final): GoValue {
    let r = receiver;
    let rIface = iface;
    for (let i = 0; i < ident.length - 1; i++) {
      r = this.evalField(ident[i]!, [], MISSING, r, rIface);
      rIface = true;
    }
    return this.evalField(ident[ident.length - 1]!, args, final, r, rIface);
  }

  private evalField(name: string, args: readonly Node[], final: Final, receiver: GoValue, iface: boolean): GoValue {
    if (receiver === undefined) {
      if (this.missingKey === 'error') this.errorf(`nil data; no entry for key ${JSON.stringify(name)}`);
      return undefined;
    }
    const typ = iface ? 'interface {}' : typeName(receiver);
    if (receiver === null) this.errorf(`nil pointer evaluating ${typ}.${name}`);
    if (receiver instanceof GoTime) {
      const method = TIME_METHODS[name];
      if (!method) this.errorf(`can't evaluate field ${name} in type time.Time`);
      const argv = args.slice(1).map((a) => this.evalArg(this.vars[0]!.value, false, 'string', a));
      if (final !== MISSING) argv.push(this.validate(final, 'string'));
      if (argv.length !== method.length - 1) this.errorf(`wrong number of args for ${name}: want ${method.length - 1} got ${argv.length}`);
      return method(receiver, ...(argv as string[]));
    }
    if (receiver instanceof GoStruct) {
      if (!(name in receiver.fields)) this.errorf(`can't evaluate field ${name} in type ${receiver.type}`);
      if (args.length > 1 || final !== MISSING) this.errorf(`${name} has arguments but cannot be invoked as function`);
      return receiver.fields[name];
    }
    if (isMap(receiver)) {
      // a function stored in the data is a method (Helm's .Files.Get, .Capabilities.APIVersions.Has)
      const method = receiver[name];
      if (method instanceof GoFunc) {
        const argv = args.slice(1).map((a) => this.evalArg(this.vars[0]!.value, false, 'any', a));
        if (final !== MISSING) argv.push(final === undefined ? null : final);
        try {
          return method.fn(...argv);
        } catch (e) {
          if (e instanceof FuncError) this.errorf(`error calling ${name}: ${e.message}`);
          throw e;
        }
      }
      if (args.length > 1 || final !== MISSING) this.errorf(`${name} is not a method but has arguments`);
      if (name in receiver) return receiver[name];
      if (this.missingKey === 'error') this.errorf(`map has no entry for key ${JSON.stringify(name)}`);
      return this.missingKey === 'zero' ? null : undefined;
    }
    this.errorf(`can't evaluate field ${name} in type ${typ}`);
  }

  private evalFunction(dot: GoValue, dotIface: boolean, name: string, cmd: CommandNode, args: readonly Node[], final: Final): GoValue {
    const fn = this.funcs[name];
    if (!fn) this.errorf(`${JSON.stringify(name)} is not a defined function`);
    const given = args.slice(1);
    const numIn = given.length + (final !== MISSING ? 1 : 0);
    const numFixed = fn.params.length;
    if (fn.variadic !== undefined) {
      if (numIn < numFixed) this.errorf(`wrong number of args for ${name}: want at least ${numFixed} got ${numIn}`);
    } else if (numIn !== numFixed) {
      this.errorf(`wrong number of args for ${name}: want ${numFixed} got ${numIn}`);
    }
    const kindAt = (i: number): ParamKind => (i < numFixed ? fn.params[i]! : fn.variadic!);
    if ((name === 'and' || name === 'or') && fn === BUILTINS[name]) {
      let v: GoValue = undefined;
      for (const a of given) {
        v = this.evalArg(dot, dotIface, 'value', a);
        if (isTrue(v) === (name === 'or')) return v;
      }
      if (final !== MISSING) v = final;
      return v;
    }
    const argv: GoValue[] = given.map((a, i) => this.evalArg(dot, dotIface, kindAt(i), a));
    if (final !== MISSING) argv.push(this.validate(final, kindAt(numIn - 1)));
    // evalCall moves to the command only when the call fails: a later argument check reports
    // the last node evaluated (`at <"nope">` for `genSignedCert … (dict "Cert" "nope")`)
    try {
      return fn.call(argv);
    } catch (e) {
      if (e instanceof FuncError) {
        this.node = cmd;
        this.errorf(`error calling ${name}: ${e.message}`);
      }
      throw e;
    }
  }

  private validate(v: GoValue, kind: ParamKind): GoValue {
    if (kind === 'value') return v;
    if (kind === 'any') return v === undefined ? null : v;
    if (kind === 'time' || kind === 'sprig.certificate') {
      const want = kind === 'time' ? 'time.Time' : kind;
      if (v === undefined) this.errorf(`invalid value; expected ${want}`);
      if (v === null || typeName(v) !== want) this.errorf(`wrong type for value; expected ${want}; got ${v === null ? 'interface {}' : typeName(v)}`);
      return v;
    }
    if (v === undefined) this.errorf('invalid value; expected string');
    if (typeof v !== 'string') this.errorf(`wrong type for value; expected string; got ${typeName(v)}`);
    return v;
  }

  private evalArg(dot: GoValue, dotIface: boolean, kind: ParamKind, n: Node): GoValue {
    this.node = n;
    switch (n.type) {
      case 'dot':
        return this.validate(dot, kind);
      case 'nil':
        if (kind === 'any') return null;
        this.errorf(`cannot assign nil to ${kind === 'value' ? 'reflect.Value' : kind === 'time' ? 'time.Time' : kind}`);
      // falls through (errorf never returns)
      case 'field':
        return this.validate(this.evalFieldChain(dot, dot, dotIface, n.ident, [n], MISSING), kind);
      case 'variable': {
        const v = this.varValue(n.ident[0]!);
        const val = n.ident.length === 1 ? v.value : this.evalFieldChain(dot, v.value, v.iface, n.ident.slice(1), [n], MISSING);
        return this.validate(val, kind);
      }
      case 'pipe':
        return this.validate(this.evalPipeline(dot, dotIface, n), kind);
      case 'identifier': {
        const cmd: CommandNode = { type: 'command', pos: n.pos, args: [n] };
        return this.validate(this.evalFunction(dot, dotIface, n.name, cmd, [n], MISSING), kind);
      }
      case 'chain':
        return this.validate(this.evalChain(dot, dotIface, n, [n], MISSING), kind);
      default:
        break;
    }
    if (kind === 'string') {
      if (n.type === 'string') return n.text;
      this.errorf(`expected string; found ${nodeString(n)}`);
    }
    if (kind === 'time' || kind === 'sprig.certificate') this.errorf(`can't handle ${nodeString(n)} for arg of type ${kind === 'time' ? 'time.Time' : kind}`);
    switch (n.type) {
      case 'bool':
        return n.value;
      case 'number':
        return new GoNum(n.isInt ? 'int' : 'float64', n.value);
      case 'string':
        return n.text;
      default:
        this.errorf(`can't handle ${nodeString(n)} for arg of type ${kind}`);
    }
  }

  private printValue(node: Node, v: GoValue): void {
    this.node = node;
    if (v === undefined || v === null) {
      this.out.push('<no value>');
      return;
    }
    this.out.push(printArg(v, 'v'));
  }
}

export interface ExecOptions {
  funcs?: FuncMap;
  missingKey?: MissingKey;
}

/** Run the template `name` of a parsed set on `data`. */
/**
 * The builtins with a caller's functions over them, merged once per function map: helm's
 * `include` and `tpl` execute a template per call with the same ~200 Sprig functions, and
 * spreading them every time was a sixth of rendering a chart.
 */
const MERGED = new WeakMap<FuncMap, FuncMap>();
function withBuiltins(funcs: FuncMap | undefined): FuncMap {
  if (!funcs) return BUILTINS;
  let m = MERGED.get(funcs);
  if (!m) MERGED.set(funcs, (m = { ...BUILTINS, ...funcs }));
  return m;
}

export function execute(trees: ReadonlyMap<string, Tree>, name: string, data: GoValue, o: ExecOptions = {}): string {
  const tree = trees.get(name);
  if (!tree) throw new TemplateExecError(`template: no template ${JSON.stringify(name)} associated with template ${JSON.stringify(name)}`);
  const out: string[] = [];
  const s = new State(trees, tree, withBuiltins(o.funcs), o.missingKey ?? 'default', 0, data, out);
  s.parseName = name;
  try {
    try {
      s.walk(data, false, tree.root);
    } catch (e) {
      if (e instanceof RangeError) s.errorf(`exceeded maximum template depth (${MAX_DEPTH})`);
      throw e;
    }
  } catch (e) {
    if (e instanceof TemplateExecError) e.partial = out.join('');
    throw e;
  }
  return out.join('');
}
