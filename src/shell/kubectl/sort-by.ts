/**
 * `--sort-by` (k8s.io/kubectl pkg/cmd/get/sorter.go): a relaxed jsonpath evaluated on every object;
 * numbers compare numerically, strings with sortorder.NaturalLess (digit runs as numbers), bools
 * false < true; objects where the path finds nothing sort first. When the path finds nothing in
 * any object the command fails with sorter.go's message.
 */
import type { KObject } from '../../sim/api/types.js';
import { relaxedJsonPathExpression } from '../printers/custom-columns.js';
import { parsedJsonPath, JsonPathError, type JsonPath } from '../printers/jsonpath.js';
import type { Json } from '../printers/serialize.js';
import { KubectlError } from './errors.js';

const isDigit = (c: string | undefined): boolean => c !== undefined && c >= '0' && c <= '9';

/** github.com/fvbommel/sortorder NaturalLess. */
export function naturalLess(a: string, b: string): boolean {
  let i = 0;
  let j = 0;
  while (i < a.length && j < b.length) {
    const ca = a[i]!;
    const cb = b[j]!;
    if (!isDigit(ca) || !isDigit(cb)) {
      if (ca !== cb) return ca < cb;
      i++;
      j++;
      continue;
    }
    let si = i;
    while (a[si] === '0') si++;
    let sj = j;
    while (b[sj] === '0') sj++;
    let ei = si;
    while (isDigit(a[ei])) ei++;
    let ej = sj;
    while (isDigit(b[ej])) ej++;
    const na = a.slice(si, ei);
    const nb = b.slice(sj, ej);
    if (na.length !== nb.length) return na.length < nb.length;
    if (na !== nb) return na < nb;
    // equal numbers: fewer leading zeros first
    if (si - i !== sj - j) return si - i < sj - j;
    i = ei;
    j = ej;
  }
  return a.length - i < b.length - j;
}

function compare(a: Json, b: Json): number {
  if (typeof a === 'number' && typeof b === 'number') return a - b;
  if (typeof a === 'boolean' && typeof b === 'boolean') return Number(a) - Number(b);
  if (typeof a === 'string' && typeof b === 'string') return naturalLess(a, b) ? -1 : naturalLess(b, a) ? 1 : 0;
  return 0;
}

/** Sort objects by a `--sort-by` expression (stable for equal keys). */
export function sortObjects<T extends KObject>(objs: readonly T[], sortBy: string): T[] {
  if (objs.length === 0) return [];
  const rel = relaxedJsonPathExpression(sortBy);
  const field = rel.ok ? rel.value : sortBy;
  let jp: JsonPath;
  try {
    jp = parsedJsonPath(field);
  } catch (e) {
    throw new KubectlError(e instanceof JsonPathError ? `error parsing jsonpath ${field}, ${e.message}` : String(e));
  }
  const keyed = objs.map((o, index) => {
    const values = jp.results(o);
    return { o, index, value: values.length > 0 ? values[0] : undefined };
  });
  if (objs.length > 1 && keyed.every((k) => k.value === undefined)) throw new KubectlError(`couldn't find any field with path "${field}" in the list of objects`);
  keyed.sort((x, y) => {
    if (x.value === undefined || y.value === undefined) {
      if (x.value === y.value) return x.index - y.index;
      return x.value === undefined ? -1 : 1;
    }
    return compare(x.value, y.value) || x.index - y.index;
  });
  return keyed.map((k) => k.o);
}
