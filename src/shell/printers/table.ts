/**
 * The `kubectl get` table: cli-runtime pkg/printers/tableprinter.go (printTable, printRows,
 * formatLabelHeaders, appendLabelCells) over the server's rows (columns/), rendered with the get
 * tabwriter; plus kubectl get.go's multi-type layout and its "No resources found" messages.
 */
import type { KObject } from '../../sim/api/types.js';
import { printerFor, type KindPrinter } from './columns/index.js';
import { formatLabels } from './columns/cells.js';
import { kindInfoOf, kindPrefixOf } from './kindinfo.js';
import { GET_TABWRITER, TabWriter } from './tabwriter.js';

export interface TableOptions {
  /** Clock for AGE cells, ms since epoch. */
  now: number;
  /** `-o wide`: keep priority-1 columns. */
  wide?: boolean;
  /** `--show-labels`: a final LABELS column. */
  showLabels?: boolean;
  /** `-L key1,key2`: one column per key. */
  labelColumns?: readonly string[];
  /** `--no-headers`. */
  noHeaders?: boolean;
  /** `-A`: prepend NAMESPACE (ignored for cluster-scoped kinds, get.go:532-536). */
  allNamespaces?: boolean;
  /** Several resource types requested: prefix names with `<kind>.<group>/`. */
  withKind?: boolean;
  /** The printer of a custom resource's kind (its CRD's columns); built-in kinds use columns/. */
  customPrinter?: (kind: string) => KindPrinter | undefined;
}

/** terminal.go EscapeTerminal, then tableprinter's cut at the first \f, \n or \r plus `...`. */
function cellText(v: string): string {
  let s = v;
  let truncated = false;
  const i = s.search(/[\f\n\r]/);
  if (i >= 0) {
    s = s.slice(0, i);
    truncated = true;
  }
  s = s.replace(/\x1b/g, '^[');
  return truncated ? `${s}...` : s;
}

/** `-L` headers: upper-cased last `/` segment of each key. */
export function formatLabelHeaders(keys: readonly string[]): string[] {
  return keys.map((k) => (k.split('/').pop() ?? '').toUpperCase());
}

/** The header row and data rows of one table (all objects of a single kind). */
export function tableRows(objs: readonly KObject[], options: TableOptions): string[][] {
  const first = objs[0];
  if (!first) return [];
  const info = kindInfoOf(first);
  const printer = options.customPrinter?.(info.kind) ?? printerFor(info.kind, info.group);
  const withNamespace = options.allNamespaces === true && info.namespaced;
  const keep = printer.columns.map((c) => options.wide === true || c.wide !== true);
  const labelKeys = options.labelColumns ?? [];
  const rows: string[][] = [];
  if (options.noHeaders !== true) {
    const header: string[] = [];
    if (withNamespace) header.push('NAMESPACE');
    printer.columns.forEach((c, i) => {
      if (keep[i]) header.push(c.name.toUpperCase());
    });
    header.push(...formatLabelHeaders(labelKeys));
    if (options.showLabels === true) header.push('LABELS');
    rows.push(header);
  }
  const prefix = options.withKind === true ? `${kindPrefixOf(info)}/` : '';
  for (const obj of printer.listOrder ? printer.listOrder(objs) : objs) {
    const cells = printer.row(obj, options.now);
    const row: string[] = [];
    if (withNamespace) row.push(obj.metadata.namespace ?? '');
    printer.columns.forEach((c, i) => {
      if (!keep[i]) return;
      const cell = cellText(cells[i] ?? '');
      row.push(c.nameFormat === true && prefix !== '' ? `${prefix}${cell}` : cell);
    });
    const labels = obj.metadata.labels ?? {};
    for (const k of labelKeys) row.push(labels[k] ?? '');
    if (options.showLabels === true) row.push(formatLabels(labels));
    rows.push(row);
  }
  return rows;
}

/** One table (objects of one kind), exactly as `kubectl get` prints it. Empty input → ''. */
export function printTable(objs: readonly KObject[], options: TableOptions): string {
  return printTables([objs], options);
}

/**
 * Several tables, one per resource type in request order (`get deploy,svc`, `get all`): each
 * starts with fresh column widths (get.go `w.SetRememberedWidths(nil)`) and, when headers are
 * printed, is preceded by one empty line if something was printed before. Empty groups print nothing.
 */
export function printTables(groups: readonly (readonly KObject[])[], options: TableOptions): string {
  let out = '';
  const w = new TabWriter(GET_TABWRITER);
  for (const objs of groups) {
    if (objs.length === 0) continue;
    const text = w.take();
    out += text;
    w.resetRememberedWidths();
    if (out !== '' && options.noHeaders !== true) out += '\n';
    for (const row of tableRows(objs, options)) w.write(`${row.join('\t')}\n`);
  }
  return out + w.take();
}

/** get.go:566-572: the stderr line for an empty result (without the trailing newline). */
export function noResourcesMessage(namespace: string, allNamespaces: boolean, clusterScoped: boolean): string {
  if (allNamespaces || clusterScoped) return 'No resources found';
  return `No resources found in ${namespace} namespace.`;
}
