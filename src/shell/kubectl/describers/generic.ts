/**
 * kubectl's generic describer for kinds without their own (k8s.io/kubectl pkg/describe/describe.go
 * genericDescriber, printUnstructuredContent, smartLabelFor): Name, Namespace, Labels,
 * Annotations, then every other field in sorted key order with camelCase keys turned into
 * words (`apiVersion` → `API Version`, `podCIDR` → `Pod Cidr`), then Events.
 */
import type { KEvent, KObject } from '../../../sim/api/types.js';
import { describeEvents } from '../../printers/describe/events.js';
import { LEVEL_0, type PrefixWriter, printAnnotationsMultiline, printLabelsMultiline, tabbedString } from '../../printers/describe/writer.js';

const ACRONYMS = ['API', 'URL', 'UID', 'OSB', 'GUID'];

/** github.com/fatih/camelcase Split: runs of lower, upper, digit and other characters. */
export function camelSplit(s: string): string[] {
  const cls = (c: string): number => (/[a-z]/.test(c) ? 1 : /[A-Z]/.test(c) ? 2 : /[0-9]/.test(c) ? 3 : 4);
  const runs: string[] = [];
  let lastCls = 0;
  for (const c of s) {
    const k = cls(c);
    if (k === lastCls) runs[runs.length - 1] += c;
    else runs.push(c);
    lastCls = k;
  }
  // an upper run followed by a lower run: the last upper letter starts the next word
  for (let i = 0; i < runs.length - 1; i++) {
    const a = runs[i]!;
    const b = runs[i + 1]!;
    if (a !== '' && cls(a[0]!) === 2 && cls(b[0]!) === 1) {
      runs[i + 1] = a.slice(-1) + b;
      runs[i] = a.slice(0, -1);
    }
  }
  return runs.filter((r) => r !== '');
}

export function smartLabelFor(field: string): string {
  if ([...field].some((c) => !/\p{L}/u.test(c) && c !== '-')) return field;
  return camelSplit(field)
    .filter((p) => p !== '_')
    // cases.Title(language.English) upper-cases the first letter and lower-cases the rest:
    // nonResourceURLs → "Non Resource Ur Ls" (recorded: testdata/recorded/flowschema-exempt.txt)
    .map((p) => (ACRONYMS.includes(p.toUpperCase()) ? p.toUpperCase() : p.charAt(0).toUpperCase() + p.slice(1).toLowerCase()))
    .join(' ');
}

function goValue(v: unknown): string {
  if (v === null || v === undefined) return '<nil>';
  return String(v);
}

function printContent(w: PrefixWriter, level: number, content: Record<string, unknown>, prefix: string, skip: readonly string[]): void {
  for (const field of Object.keys(content).sort()) {
    const value = content[field];
    const path = `${prefix}.${field}`;
    if (skip.includes(path)) continue;
    if (Array.isArray(value)) {
      w.write(level, `${smartLabelFor(field)}:\n`);
      for (const child of value) {
        if (child !== null && typeof child === 'object' && !Array.isArray(child)) printContent(w, level + 1, child as Record<string, unknown>, path, skip);
        else w.write(level + 1, `${goValue(child)}\n`);
      }
    } else if (value !== null && typeof value === 'object') {
      w.write(level, `${smartLabelFor(field)}:\n`);
      printContent(w, level + 1, value as Record<string, unknown>, path, skip);
    } else w.write(level, `${smartLabelFor(field)}:\t${goValue(value)}\n`);
  }
}

export function describeGeneric(obj: KObject, now: number, events?: readonly KEvent[]): string {
  return tabbedString((w) => {
    w.write(LEVEL_0, `Name:\t${obj.metadata.name}\n`);
    w.write(LEVEL_0, `Namespace:\t${obj.metadata.namespace ?? ''}\n`);
    printLabelsMultiline(w, 'Labels', obj.metadata.labels);
    printAnnotationsMultiline(w, 'Annotations', obj.metadata.annotations);
    printContent(w, LEVEL_0, obj as unknown as Record<string, unknown>, '', ['.metadata.managedFields', '.metadata.name', '.metadata.namespace', '.metadata.labels', '.metadata.annotations']);
    if (events) describeEvents(events, w, now);
  });
}
