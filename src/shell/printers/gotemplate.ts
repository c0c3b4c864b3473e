/**
 * kubectl's Go-template printer (k8s.io/cli-runtime pkg/printers/template.go GoTemplatePrinter):
 * the template is parsed as "output" with kubectl's two extra functions (`exists`,
 * `base64decode`), run on the object after a JSON round trip (integers as int64), with
 * `missingkey=error` when --allow-missing-template-keys=false. A failed execution also writes
 * kubectl's debugging block to stdout before the error.
 */
import { Buffer } from 'node:buffer';
import { GoTemplate, GoNum, TemplateExecError, TemplateParseError, fromJson, type FuncMap, type GoValue } from '../gotemplate/index.js';
import { FuncError } from '../gotemplate/funcs.js';
import { goQuote } from '../../util/go-quote.js';
import { printArg } from '../gotemplate/fmt.js';
import { isMap } from '../gotemplate/value.js';
import { marshalCompact } from './json.js';
import type { Json } from './serialize.js';

/** template.go exists: whether a chain of keys/indexes leads to a non-nil value. */
function exists(item: GoValue, ...indices: GoValue[]): boolean {
  let v: GoValue = item;
  for (const i of indices) {
    if (v === null || v === undefined) return false;
    if (Array.isArray(v) || typeof v === 'string') {
      if (!(i instanceof GoNum) || !i.isInt) return false;
      const n = typeof v === 'string' ? Buffer.byteLength(v) : v.length;
      if (i.v < 0 || i.v >= n) return false;
      v = typeof v === 'string' ? new GoNum('int', Buffer.from(v)[i.v]!) : v[i.v];
    } else if (isMap(v)) {
      if (typeof i !== 'string') return false;
      v = i in v ? v[i] : null;
    } else return false;
  }
  return v !== null && v !== undefined;
}

function base64decode(s: GoValue): GoValue {
  const text = s as string;
  const bad = /[^A-Za-z0-9+/=]/.exec(text);
  if (bad) throw new FuncError(`base64 decode failed: illegal base64 data at input byte ${bad.index}`);
  if (text.length % 4 !== 0) throw new FuncError(`base64 decode failed: illegal base64 data at input byte ${text.length - (text.length % 4)}`);
  return Buffer.from(text, 'base64').toString('utf8');
}

export const KUBECTL_TEMPLATE_FUNCS: FuncMap = {
  exists: { params: ['any'], variadic: 'any', call: ([item, ...ix]) => exists(item, ...ix) },
  base64decode: { params: ['string'], call: ([s]) => base64decode(s) },
};

export type GoTemplateResult = { ok: true; text: string } | { ok: false; error: string; stdout: string };

/** Parse a template the way NewGoTemplatePrinter does; the error is kubectl's `error parsing template …`. */
export function parseGoTemplate(text: string): { ok: true; tmpl: GoTemplate } | { ok: false; error: string } {
  try {
    return { ok: true, tmpl: GoTemplate.parse('output', text, KUBECTL_TEMPLATE_FUNCS) };
  } catch (e) {
    if (e instanceof TemplateParseError) return { ok: false, error: `error parsing template ${text}, ${e.message}` };
    throw e;
  }
}

/** PrintObj: run the template on the serialized document. */
export function printGoTemplate(tmpl: GoTemplate, raw: string, doc: Json, allowMissingKeys: boolean): GoTemplateResult {
  const data = fromJson(doc);
  try {
    return { ok: true, text: tmpl.execute(data, allowMissingKeys ? 'default' : 'error') };
  } catch (e) {
    if (!(e instanceof TemplateExecError)) throw e;
    const stdout =
      e.partial +
      `Error executing template: ${e.message}. Printing more information for debugging the template:\n` +
      `\ttemplate was:\n\t\t${raw}\n` +
      `\traw data was:\n\t\t${marshalCompact(doc)}\n` +
      `\tobject given to template engine was:\n\t\t${printArg(data, 'v')}\n\n`;
    return { ok: false, stdout, error: `error executing template ${goQuote(raw)}: ${e.message}` };
  }
}
