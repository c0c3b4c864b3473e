/**
 * `kubectl wait --for=delete|create|condition=NAME[=VALUE]|jsonpath='{…}'[=VALUE] (TYPE/NAME… | -f … | TYPE -l …|--all)`
 * (k8s.io/kubectl v0.35.2 pkg/cmd/wait/{wait,condition,json,delete,create}.go) on the simulated
 * clock: the timeout (default 30s, zero = check once, negative = a week) is one deadline for the
 * whole command; each object is waited on in turn and printed on success with the name printer's
 * `condition met`. Failures are collected (the resource builder continues on error) and printed
 * one `error: …` line each: `timed out waiting for the condition on pods/x`,
 * `condition not met for pods/x` (timeout 0). The condition check reads `.status.conditions`
 * case-insensitively and ignores a condition older than `metadata.generation`. At an interactive
 * prompt (or with `&`) it is a process that keeps running (ShellResult.keeps): the terminal holds
 * it while the clock moves, so Ctrl-C (130) and Ctrl-Z reach it as they reach `kubectl logs -f`.
 */
import type { KObject } from '../../../sim/api/types.js';
import type { ResourceInfo } from '../../../sim/api/registry.js';
import { notFound } from '../../../sim/api/errors.js';
import type { CommandResult } from '../../types.js';
import type { Cluster } from '../../../sim/cluster.js';
import { LIVE, type LiveOutput, type ShellResult } from '../../commands/types.js';
import type { Verb } from '../context.js';
import { durationFlag } from '../duration.js';
import { formatApiError, KubectlError, RawError } from '../errors.js';
import { bool, list, str } from '../flags.js';
import { parsedJsonPath, JsonPathError, type JsonPath } from '../../printers/jsonpath.js';
import { relaxedJsonPathExpression } from '../../printers/custom-columns.js';
import { printObject } from '../printobj.js';
import { printArg } from '../../gotemplate/fmt.js';
import { GoNum } from '../../gotemplate/value.js';
import { pollUntil } from '../poll.js';
import { namespaceOf, PROVIDE_RESOURCES } from '../target.js';
import { resolveArgs, resolveFiles, selectObjects } from '../resource-args.js';

const WEEK = 168 * 3600_000;
const TIMED_OUT = 'timed out waiting for the condition';

type Check = (obj: KObject) => boolean;

type Condition = { kind: 'delete' } | { kind: 'create' } | { kind: 'check'; check: Check };

/** condition.go checkCondition. */
function conditionCheck(name: string, value: string): Check {
  return (obj) => {
    const conds = (obj as { status?: { conditions?: unknown } }).status?.conditions;
    if (!Array.isArray(conds)) return false;
    for (const c of conds as Record<string, unknown>[]) {
      if (typeof c.type !== 'string' || c.type.toLowerCase() !== name.toLowerCase() || typeof c.status !== 'string') continue;
      const generation = obj.metadata.generation;
      if (typeof generation === 'number') {
        const observed = typeof c.observedGeneration === 'number' ? c.observedGeneration : (obj as { status?: { observedGeneration?: unknown } }).status?.observedGeneration;
        if (typeof observed === 'number' && observed < generation) return false;
      }
      return c.status.toLowerCase() === value.toLowerCase();
    }
    return false;
  };
}

/** wait.go splitJSONPathInput: split on `=` but keep `==` (filter comparisons) inside the path. */
function splitJsonPathInput(input: string): string[] {
  const out: string[] = [];
  let cur = '';
  for (let i = 0; i < input.length; i++) {
    if (input[i] === '=') {
      if (input[i + 1] === '=') {
        cur += '==';
        i++;
        continue;
      }
      out.push(cur);
      cur = '';
      continue;
    }
    cur += input[i];
  }
  out.push(cur);
  return out;
}

/**
 * compareResults's `fmt.Sprintf("%v", r.Interface())` of one unstructured value: a JSON null is
 * `<nil>`, a number is an int64 when the unstructured decoder could read it as one
 * (apimachinery unstructured.go convertNumber: Int64 first, else Float64) and otherwise a
 * float64 in `%v`'s shortest `%g` form (`1.2345675e+06`, `1e-05`, `1e+20`).
 */
function sprintV(v: unknown): string {
  if (v === null) return '<nil>';
  if (typeof v === 'number') return printArg(new GoNum(Number.isInteger(v) && Math.abs(v) < 2 ** 63 ? 'int64' : 'float64', v), 'v');
  return String(v);
}

/**
 * json.go checkCondition / compareResults (parser built with AllowMissingKeys(true) by wait.go
 * newJSONPathParser): no result (an absent field, or one under a null) is "not met", a null
 * field is one result (met without a value, `<nil>` with one).
 */
function jsonPathCheck(input: string): Check {
  const parts = splitJsonPathInput(input);
  if (parts.length > 2) throw new KubectlError("jsonpath wait format must be --for=jsonpath='{.status.readyReplicas}'=3 or --for=jsonpath='{.status.readyReplicas}'");
  const rel = relaxedJsonPathExpression(parts[0]!);
  if (!rel.ok) throw new KubectlError(rel.error);
  let expected: string | undefined;
  if (parts.length === 2) {
    expected = parts[1]!.replace(/^['"]+|['"]+$/g, '');
    if (expected === '') throw new KubectlError("jsonpath wait has to have a value after equal sign, like --for=jsonpath='{.status.readyReplicas}'=3");
  }
  if (rel.value === '') throw new KubectlError('jsonpath expression cannot be empty');
  let jp: JsonPath;
  try {
    jp = parsedJsonPath(rel.value);
  } catch (e) {
    if (e instanceof JsonPathError) throw new KubectlError(e.message);
    throw e;
  }
  return (obj) => {
    const values = jp.results(obj);
    if (values.length === 0) return false;
    if (values.length > 1) throw new KubectlError('given jsonpath expression matches more than one value');
    if (expected === undefined) return true;
    const v = values[0];
    if (v !== null && typeof v === 'object') throw new KubectlError('jsonpath leads to a nested object or list which is not supported');
    return sprintV(v).trim() === expected.trim();
  };
}

/** wait.go conditionFuncFor. */
function parseFor(cond: string): Condition {
  const lower = cond.toLowerCase();
  if (lower === 'delete') return { kind: 'delete' };
  if (lower === 'create') return { kind: 'create' };
  if (cond.startsWith('condition=')) {
    const rest = cond.slice('condition='.length);
    const eq = rest.indexOf('=');
    return { kind: 'check', check: conditionCheck(eq === -1 ? rest : rest.slice(0, eq), eq === -1 ? 'true' : rest.slice(eq + 1)) };
  }
  if (cond.startsWith('jsonpath=')) return { kind: 'check', check: jsonPathCheck(cond.slice('jsonpath='.length)) };
  throw new KubectlError(`unrecognized condition: ${JSON.stringify(cond)}`);
}

/** One object the resource builder visits: fetched when it is visited (or already listed). */
interface Item {
  info: ResourceInfo;
  ns: string | undefined;
  name: string;
  obj?: KObject;
}

/** info.ObjectName(): `pods/x` (the resource without its group). */
const objectName = (it: Item): string => `${it.info.resource}/${it.name}`;

function getObj(c: Cluster, it: Item): KObject | undefined {
  return c.store.get(it.info.kind, it.ns, it.name) as KObject | undefined;
}

/**
 * RunWait's walk over the visited objects as a machine the clock drives: each `step` (at the
 * cluster's time) goes through the objects in turn, printing `condition met` for each one whose
 * condition holds and stopping at the first that does not, until the deadline, which ends the
 * object waited on with `timed out waiting for the condition on pods/x` (every object after it is
 * then checked once, its context already expired). `--for=create` first waits until every named
 * object exists. The foreground wait polls it (pollUntil); a wait the terminal holds, or one in
 * the background, is stepped as time passes (waitLive).
 */
class Waiter {
  private i = 0;
  /** The object being waited on, as the builder fetched it (its uid for --for=delete). */
  private cur: KObject | undefined;
  private created = false;
  private visited = 0;
  out = '';
  readonly errors: string[] = [];
  /** Set when the walk is over: `error: timed out waiting for the condition` before any object (--for=create). */
  fatal: string | undefined;
  done = false;

  constructor(
    private readonly items: Item[],
    private readonly cond: Condition,
    private readonly timeout: number,
    private readonly deadline: number,
    private readonly print: (obj: KObject) => string,
  ) {}

  /** Walk as far as the cluster allows now; true once every object is done with. */
  step(c: Cluster): boolean {
    if (this.done) return true;
    const expired = c.now() >= this.deadline;
    if (this.cond.kind === 'create' && !this.created) {
      // wait.go RunWait: poll every 500ms until every named object exists
      if (!this.items.every((it) => it.obj ?? getObj(c, it))) {
        if (!expired) return false;
        this.fatal = `error: ${TIMED_OUT}\n`;
        return (this.done = true);
      }
      this.created = true;
    }
    for (; this.i < this.items.length; this.i++) {
      const it = this.items[this.i]!;
      if (!this.cur) {
        const obj = it.obj ?? getObj(c, it);
        if (!obj) {
          // the builder's GET fails; --for=delete ignores NotFound
          if (this.cond.kind !== 'delete') this.errors.push(formatApiError(notFound(it.info, it.name)));
          continue;
        }
        this.visited++;
        this.cur = obj;
      }
      const obj = this.cur;
      const met = this.met(c, it, obj);
      if (met === 'wait') {
        if (!expired) return false;
        this.errors.push(`error: ${TIMED_OUT} on ${objectName(it)}`);
      } else if (met === 'no') this.errors.push(`error: condition not met for ${objectName(it)}`);
      else if (met !== 'error') this.out += this.print(met);
      this.cur = undefined;
    }
    if (this.visited === 0 && this.errors.length === 0 && this.cond.kind !== 'delete') this.errors.push('error: no matching resources found');
    return (this.done = true);
  }

  /** The object printed once its condition holds, `wait` while it may yet, `no` (timeout 0), `error` (recorded). */
  private met(c: Cluster, it: Item, obj: KObject): KObject | 'wait' | 'no' | 'error' {
    const cond = this.cond;
    if (cond.kind === 'create') return obj;
    try {
      if (cond.kind === 'delete') {
        if (this.timeout === 0) return 'no';
        return getObj(c, it)?.metadata.uid === obj.metadata.uid ? 'wait' : obj;
      }
      if (this.timeout === 0) return cond.check(obj) ? obj : 'no';
      const now = getObj(c, it);
      return now && cond.check(now) ? now : 'wait';
    } catch (e) {
      if (e instanceof KubectlError) {
        this.errors.push(`error: ${e.message}`);
        return 'error';
      }
      throw e;
    }
  }

  /**
   * What it wrote since the last call. The errors come only at the end: the visitor continues on
   * error and RunWait returns their aggregate, which CheckErr prints as the command exits, after
   * every `condition met` line.
   */
  take(): { stdout: string; stderr: string } {
    const stdout = this.out;
    this.out = '';
    if (!this.done) return { stdout, stderr: '' };
    const stderr = (this.fatal ?? '') + this.errors.map((e) => `${e}\n`).join('');
    this.fatal = undefined;
    this.errors.splice(0);
    return { stdout, stderr };
  }

  /** Some object failed (read before take() empties the errors). */
  get failed(): boolean {
    return this.errors.length > 0 || this.fatalSeen;
  }

  private get fatalSeen(): boolean {
    return this.cond.kind === 'create' && !this.created;
  }
}

/**
 * `kubectl wait` as a process that keeps running (held by the terminal, or `&`): it walks on as
 * the clock moves, and ends 0 when every condition was met, 1 after its errors. Ctrl-C ends it
 * (130, nothing printed); stopped (Ctrl-Z), it reads nothing, while its deadline, which is
 * wall-clock time in kubectl (a context with a timeout), runs on.
 */
function waitLive(w: Waiter): LiveOutput {
  let paused = false;
  return {
    take(c) {
      if (paused) return { stdout: '', done: false };
      const done = w.step(c);
      const status = w.failed ? 1 : 0;
      const { stdout, stderr } = w.take();
      return done ? { stdout, stderr, done: true, status } : { stdout, done: false };
    },
    stop: () => undefined,
    pause: (stopped) => {
      paused = stopped;
    },
  };
}

export const waitVerb: Verb = {
  name: 'wait',
  async run(inv, env) {
    const p = inv.parsed;
    let timeout = durationFlag(p, 'timeout', 30_000);
    if (timeout < 0) timeout = WEEK;
    const cond = parseFor(str(p.flags, 'for') ?? '');
    const files = list(p.flags, 'filename');
    if (p.args.length === 0 && files.length === 0) throw new RawError(`error: ${PROVIDE_RESOURCES}`);
    const ns = namespaceOf(env, p);
    const resolved = files.length ? resolveFiles(env, files, bool(p.flags, 'recursive'), 'wait') : resolveArgs(p.args, env.cluster.discovery(), env.shortNames);
    const label = str(p.flags, 'selector');
    const field = str(p.flags, 'field-selector');
    const selecting = bool(p.flags, 'all') || !!label || !!field;
    const allNs = bool(p.flags, 'all-namespaces');
    env.api.ensureUp();
    const start = env.cluster.now();
    const deadline = start + timeout;

    // the builder's visit: named objects as given, types listed with the selectors
    const items: Item[] = [];
    for (const r of resolved.requests) {
      const rns = r.info.namespaced ? (r.namespace ?? ns.name) : undefined;
      if (r.names) {
        for (const name of r.names) items.push({ info: r.info, ns: rns, name });
        continue;
      }
      if (!selecting) throw new KubectlError('resource(s) were provided, but no name, label selector, or --all flag specified');
      const objs = selectObjects(env.api.list<KObject>(r.info.kind, r.info.namespaced && !allNs ? ns.name : undefined), r.info, { label: label ?? '', field: field ?? '' });
      for (const o of objs) items.push({ info: r.info, ns: o.metadata.namespace, name: o.metadata.name, obj: o });
    }
    const output = str(p.flags, 'output');
    const w = new Waiter(items, cond, timeout, deadline, (obj) => printObject(obj, { output, operation: 'condition met', dryRun: 'none', generated: false }));
    const result = (): CommandResult => {
      const exitCode = w.failed ? 1 : 0;
      const { stdout, stderr } = w.take();
      return { stdout, stderr, exitCode };
    };
    if (env.background && timeout > 0) {
      // a process that keeps running: what is met now is printed now, the rest as the clock moves
      if (w.step(env.cluster)) return result();
      const { stdout, stderr } = w.take();
      return { stdout, stderr, exitCode: 0, keeps: { kind: 'watch', host: env.host ?? '', [LIVE]: waitLive(w) } } satisfies ShellResult;
    }
    // what it printed so far goes out before a background job that wakes meanwhile writes
    const flush = (): void => {
      if (!env.emit) return;
      const { stdout, stderr } = w.take();
      env.emit('stdout', stdout);
      env.emit('stderr', stderr);
    };
    await pollUntil(env, deadline, () => (w.step(env.cluster) ? true : undefined), flush);
    // the clock reached the deadline: the objects left time out (or are checked once more)
    w.step(env.cluster);
    return result();
  },
};
