/**
 * `kubectl wait --for=delete|create|condition=NAME[=VALUE]|jsonpath='{…}'[=VALUE] (TYPE/NAME… | -f … | TYPE -l …|--all)`
 * (k8s.io/kubectl v0.35.2 pkg/cmd/wait/{wait,condition,json,delete,create}.go) on the simulated
 * clock: the timeout (default 30s, zero = check once, negative = a week) is one deadline for the
 * whole command; each object is waited on in turn and printed on success with the name printer's
 * `condition met`. Failures are collected (the resource builder continues on error) and printed
 * one `error: …` line each: `timed out waiting for the condition on pods/x`,
 * `condition not met for pods/x` (timeout 0). The condition check reads `.status.conditions`
 * case-insensitively and ignores a condition older than `metadata.generation`.
 */
import type { KObject } from '../../../sim/api/types.js';
import type { ResourceInfo } from '../../../sim/api/registry.js';
import { notFound } from '../../../sim/api/errors.js';
import type { CommandResult } from '../../types.js';
import type { KubectlEnv, Verb } from '../context.js';
import { durationFlag } from '../duration.js';
import { formatApiError, KubectlError, RawError } from '../errors.js';
import { bool, list, str } from '../flags.js';
import { JsonPath, JsonPathError } from '../../printers/jsonpath.js';
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
    jp = new JsonPath(rel.value);
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

function getObj(env: KubectlEnv, it: Item): KObject | undefined {
  return env.cluster.store.get(it.info.kind, it.ns, it.name) as KObject | undefined;
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
    const resolved = files.length ? resolveFiles(env, files, bool(p.flags, 'recursive'), 'wait') : resolveArgs(p.args, env.cluster.discovery());
    const label = str(p.flags, 'selector');
    const field = str(p.flags, 'field-selector');
    const selecting = bool(p.flags, 'all') || !!label || !!field;
    const allNs = bool(p.flags, 'all-namespaces');
    env.api.ensureUp();
    const start = env.cluster.now();
    const deadline = start + timeout;

    /** The builder's visit: named objects as given, types listed with the selectors. */
    const visit = (): Item[] => {
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
      return items;
    };

    if (cond.kind === 'create') {
      // wait.go RunWait: poll every 500ms until every named object exists
      const found = await pollUntil(env, deadline, () => (visit().every((it) => it.obj ?? getObj(env, it)) ? true : undefined));
      if (!found) throw new KubectlError(TIMED_OUT);
    }

    const output = str(p.flags, 'output');
    const print = (obj: KObject): string => printObject(obj, { output, operation: 'condition met', dryRun: 'none', generated: false });
    let stdout = '';
    const errors: string[] = [];
    // what it printed so far goes out before a background job that wakes meanwhile writes
    let sentErrors = 0;
    const flush = (): void => {
      if (!env.emit) return;
      env.emit('stdout', stdout);
      env.emit('stderr', errors.slice(sentErrors).map((e) => `${e}\n`).join(''));
      stdout = '';
      sentErrors = errors.length;
    };
    let visited = 0;
    for (const it of visit()) {
      const obj = it.obj ?? getObj(env, it);
      if (!obj) {
        // the builder's GET fails; --for=delete ignores NotFound
        if (cond.kind !== 'delete') errors.push(formatApiError(notFound(it.info, it.name)));
        continue;
      }
      visited++;
      if (cond.kind === 'create') {
        stdout += print(obj);
        continue;
      }
      try {
        if (cond.kind === 'delete') {
          if (timeout === 0) {
            errors.push(`error: condition not met for ${objectName(it)}`);
            continue;
          }
          const gone = await pollUntil(env, deadline, () => (getObj(env, it)?.metadata.uid === obj.metadata.uid ? undefined : true), flush);
          if (gone) stdout += print(obj);
          else errors.push(`error: ${TIMED_OUT} on ${objectName(it)}`);
          continue;
        }
        if (timeout === 0) {
          if (cond.check(obj)) stdout += print(obj);
          else errors.push(`error: condition not met for ${objectName(it)}`);
          continue;
        }
        const met = await pollUntil(
          env,
          deadline,
          () => {
            const cur = getObj(env, it);
            return cur && cond.check(cur) ? cur : undefined;
          },
          flush,
        );
        if (met) stdout += print(met);
        else errors.push(`error: ${TIMED_OUT} on ${objectName(it)}`);
      } catch (e) {
        if (e instanceof KubectlError) errors.push(`error: ${e.message}`);
        else throw e;
      }
    }
    if (visited === 0 && errors.length === 0 && cond.kind !== 'delete') errors.push('error: no matching resources found');
    return { stdout, stderr: errors.slice(sentErrors).map((e) => `${e}\n`).join(''), exitCode: errors.length ? 1 : 0 } satisfies CommandResult;
  },
};
