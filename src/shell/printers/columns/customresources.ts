/**
 * The table of a custom resource (apiextensions-apiserver pkg/registry/customresource/tableconvertor/
 * tableconvertor.go): NAME, then the CRD version's additionalPrinterColumns, each a JSONPath
 * `{<jsonPath>}` with missing keys allowed. No columns declared → a single Age column on
 * .metadata.creationTimestamp (apiserver util.go serveDefaultColumnsIfEmpty). An absent value
 * prints `<none>`; `string` columns go through the JSONPath printer, other types print the value;
 * `date` columns are shown as an age by kubectl's table printer. Priority > 0 columns are `-o wide`.
 */
import type { CrdVersion } from '../../../sim/api/crd.js';
import type { KObject } from '../../../sim/api/types.js';
import { translateTimestampSince } from '../duration.js';
import { parsedJsonPath, type JsonPath } from '../jsonpath.js';
import { NAME } from './cells.js';
import { customResourceTable } from './defaulttable.js';
import type { KindPrinter } from './types.js';

type PrinterColumn = NonNullable<CrdVersion['additionalPrinterColumns']>[number];

function cell(col: PrinterColumn, path: JsonPath, obj: KObject, now: number): string {
  let values: unknown[];
  try {
    values = path.results(obj);
  } catch {
    return '<none>';
  }
  if (values.length === 0 || values[0] === undefined || values[0] === null) return '<none>';
  const v = values[0];
  if (col.type === 'date') return typeof v === 'string' ? translateTimestampSince(v, now) : '<none>';
  if (col.type === 'string') return typeof v === 'string' ? v : JSON.stringify(v);
  return typeof v === 'object' ? JSON.stringify(v) : String(v);
}

/** The printer of one served version of a CRD. */
export function customResourcePrinter(version: CrdVersion | undefined): KindPrinter {
  const cols = version?.additionalPrinterColumns ?? [];
  if (cols.length === 0) return customResourceTable;
  const paths = cols.map((c) => parsedJsonPath(`{${c.jsonPath}}`));
  return {
    columns: [NAME, ...cols.map((c) => ({ name: c.name, ...((c.priority ?? 0) > 0 ? { wide: true } : {}) }))],
    row(obj, now) {
      return [obj.metadata.name, ...cols.map((c, i) => cell(c, paths[i]!, obj, now))];
    },
  };
}
