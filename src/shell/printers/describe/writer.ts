/**
 * describe.go's building blocks: PrefixWriter (two spaces per level) over the describe tabwriter
 * (`tabbedString`: text/tabwriter 0, 8, 2, ' ', 0), printLabelsMultiline,
 * printAnnotationsMultiline, tolerations, and the context a describer receives.
 */
import type { EndpointSlice, KEvent, KObject, Pod, ReplicaSet, Service } from '../../../sim/api/types.js';
import { DESCRIBE_TABWRITER, TabWriter } from '../tabwriter.js';

/** Related objects a describer needs, gathered by the caller (kubectl fetches them separately). */
export interface DescribeContext {
  /** Clock for ages, ms since epoch. */
  now: number;
  /** Events whose involvedObject is the described object; undefined = `--show-events=false`. */
  events?: readonly KEvent[];
  /** Service: EndpointSlices labelled `kubernetes.io/service-name=<svc>`; Ingress: the namespace's. */
  endpointSlices?: readonly EndpointSlice[];
  /** Ingress: the namespace's Services (its backends are looked up by name). */
  services?: readonly Service[];
  /** Deployment: its old ReplicaSets and its new one (deploymentutil.GetAllReplicaSets). */
  replicaSets?: { old: readonly ReplicaSet[]; new?: ReplicaSet };
  /** ReplicaSet: the pods it controls. */
  pods?: readonly Pod[];
  /** Namespace: its ResourceQuotas and LimitRanges. */
  resourceQuotas?: readonly KObject[];
  limitRanges?: readonly KObject[];
}

export const LEVEL_0 = 0;
export const LEVEL_1 = 1;
export const LEVEL_2 = 2;
export const LEVEL_3 = 3;

export class PrefixWriter {
  private readonly tw = new TabWriter(DESCRIBE_TABWRITER);

  write(level: number, text: string): void {
    this.tw.write('  '.repeat(level) + text);
  }

  /** fmt.Fprintln without prefix. */
  writeLine(text: string): void {
    this.tw.write(`${text}\n`);
  }

  flush(): void {
    this.tw.flush();
  }

  toString(): string {
    return this.tw.take();
  }
}

/** Run a describer body against a fresh writer (tabbedString). */
export function tabbedString(fn: (w: PrefixWriter) => void): string {
  const w = new PrefixWriter();
  fn(w);
  return w.toString();
}

const SKIP_ANNOTATIONS = new Set(['kubectl.kubernetes.io/last-applied-configuration']);
const MAX_ANNOTATION_LEN = 140;

/** printLabelsMultilineWithIndent. */
export function printLabelsMultiline(w: PrefixWriter, title: string, labels: Record<string, string> | undefined, initialIndent = '', innerIndent = '\t'): void {
  w.write(LEVEL_0, `${initialIndent}${title}:${innerIndent}`);
  const keys = Object.keys(labels ?? {}).sort();
  if (keys.length === 0) {
    w.writeLine('<none>');
    return;
  }
  keys.forEach((k, i) => {
    if (i !== 0) w.write(LEVEL_0, `${initialIndent}${innerIndent}`);
    w.write(LEVEL_0, `${k}=${labels![k]}\n`);
  });
}

function shorten(s: string, max: number): string {
  return s.length > max ? `${s.slice(0, max)}...` : s;
}

/** printAnnotationsMultiline: long or multi-line values go on following lines, cut at 138 + `...`. */
export function printAnnotationsMultiline(w: PrefixWriter, title: string, annotations: Record<string, string> | undefined): void {
  w.write(LEVEL_0, `${title}:\t`);
  const keys = Object.keys(annotations ?? {})
    .filter((k) => !SKIP_ANNOTATIONS.has(k))
    .sort();
  if (keys.length === 0) {
    w.writeLine('<none>');
    return;
  }
  const indent = '\t';
  keys.forEach((k, i) => {
    if (i !== 0) w.write(LEVEL_0, indent);
    const value = annotations![k]!.replace(/\n$/, '');
    if (value.length + k.length + 2 > MAX_ANNOTATION_LEN || value.includes('\n')) {
      w.write(LEVEL_0, `${k}:\n`);
      for (const s of value.split('\n')) w.write(LEVEL_0, `${indent}  ${shorten(s, MAX_ANNOTATION_LEN - 2)}\n`);
    } else w.write(LEVEL_0, `${k}: ${value}\n`);
  });
}

export interface TolerationLike {
  key?: string;
  operator?: string;
  value?: string;
  effect?: string;
  tolerationSeconds?: number;
}

/** printTolerationsMultilineWithIndent (sorted by key). */
export function printTolerationsMultiline(w: PrefixWriter, title: string, tolerations: readonly TolerationLike[] | undefined, initialIndent = '', innerIndent = '\t'): void {
  w.write(LEVEL_0, `${initialIndent}${title}:${innerIndent}`);
  const ts = [...(tolerations ?? [])].sort((a, b) => ((a.key ?? '') < (b.key ?? '') ? -1 : (a.key ?? '') > (b.key ?? '') ? 1 : 0));
  if (ts.length === 0) {
    w.writeLine('<none>');
    return;
  }
  ts.forEach((t, i) => {
    if (i !== 0) w.write(LEVEL_0, `${initialIndent}${innerIndent}`);
    let s = t.key ?? '';
    if (t.value) s += `=${t.value}`;
    if (t.effect) s += `:${t.effect}`;
    if (t.operator === 'Exists' && !t.value) s += t.key || t.effect ? ' op=Exists' : 'op=Exists';
    if (t.tolerationSeconds !== undefined) s += ` for ${t.tolerationSeconds}s`;
    w.write(LEVEL_0, `${s}\n`);
  });
}

/** printController: `Kind/name` of the controller owner reference, or ''. */
export function controllerOf(obj: KObject): string {
  const ref = (obj.metadata.ownerReferences ?? []).find((r) => r.controller === true);
  return ref ? `${ref.kind}/${ref.name}` : '';
}
