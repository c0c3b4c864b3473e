/**
 * Walk the zod schema alongside a document to find which keys are valid at a path, so a load
 * error for an unknown key can suggest the nearest valid one. Reads zod v4's public `_zod.def`
 * description of each schema (type, shape, element, options, innerType).
 */
import type { z } from 'zod/v4';

interface Def {
  type: string;
  shape?: Record<string, z.ZodType>;
  element?: z.ZodType;
  options?: z.ZodType[];
  innerType?: z.ZodType;
  in?: z.ZodType;
  valueType?: z.ZodType;
  discriminator?: string;
  values?: unknown[];
  items?: z.ZodType[];
}

function def(s: z.ZodType): Def {
  return (s as unknown as { _zod: { def: Def } })._zod.def;
}

/** Strip optional/default/pipe wrappers. */
function unwrap(s: z.ZodType): z.ZodType {
  let cur = s;
  for (let i = 0; i < 20; i++) {
    const d = def(cur);
    if ((d.type === 'optional' || d.type === 'default' || d.type === 'nullable' || d.type === 'prefault' || d.type === 'readonly') && d.innerType) cur = d.innerType;
    else if (d.type === 'pipe' && d.in) cur = d.in;
    else break;
  }
  return cur;
}

/** The object/other alternatives a schema allows for `value` (unions expanded; discriminated ones narrowed). */
function alternatives(s: z.ZodType, value: unknown): z.ZodType[] {
  const u = unwrap(s);
  const d = def(u);
  if (d.type !== 'union' || !d.options) return [u];
  let opts = d.options.flatMap((o) => alternatives(o, value));
  if (d.discriminator && value && typeof value === 'object') {
    const dv = (value as Record<string, unknown>)[d.discriminator];
    const narrowed = opts.filter((o) => literalOf(o, d.discriminator!) === dv);
    if (narrowed.length > 0) opts = narrowed;
  }
  return opts;
}

function literalOf(s: z.ZodType, key: string): unknown {
  const shape = def(s).shape;
  const f = shape?.[key];
  if (!f) return undefined;
  const fd = def(unwrap(f));
  return fd.type === 'literal' ? fd.values?.[0] : undefined;
}

/** Schemas that may describe the value at `path` of `doc`. */
export function schemasAt(root: z.ZodType, doc: unknown, path: readonly PropertyKey[]): z.ZodType[] {
  let cur: z.ZodType[] = [root];
  let value: unknown = doc;
  for (const key of path) {
    const next: z.ZodType[] = [];
    for (const s of cur)
      for (const alt of alternatives(s, value)) {
        const d = def(alt);
        if (d.type === 'object' && typeof key === 'string' && d.shape?.[key]) next.push(d.shape[key]);
        else if (d.type === 'array' && typeof key === 'number' && d.element) next.push(d.element);
        else if (d.type === 'tuple' && typeof key === 'number' && d.items?.[key]) next.push(d.items[key]);
        else if (d.type === 'record' && d.valueType) next.push(d.valueType);
      }
    cur = next;
    value = value && typeof value === 'object' ? (value as Record<PropertyKey, unknown>)[key] : undefined;
  }
  return cur.flatMap((s) => alternatives(s, value));
}

/** Keys an object at `path` may have. */
export function keysAt(root: z.ZodType, doc: unknown, path: readonly PropertyKey[]): string[] {
  const keys = new Set<string>();
  for (const s of schemasAt(root, doc, path)) for (const k of Object.keys(def(s).shape ?? {})) keys.add(k);
  return [...keys];
}

/** Literal values of the discriminator at `path` (for "kind: resorce" → "resource"). */
export function discriminatorValues(root: z.ZodType, doc: unknown, path: readonly PropertyKey[], key: string): string[] {
  const vals = new Set<string>();
  for (const s of schemasAt(root, doc, path)) {
    const v = literalOf(s, key);
    if (typeof v === 'string') vals.add(v);
  }
  return [...vals];
}
