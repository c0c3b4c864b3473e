/**
 * Release hooks as helm v4.1.4 records and runs them, as pure functions:
 *  - what a hook document becomes (pkg/release/v1/util/manifest_sorter.go sort): events from the
 *    comma-separated `helm.sh/hook` annotation, lower-cased and trimmed, the Helm 2 name
 *    `test-success` read as `test`, a document with an unknown event dropped altogether;
 *    `helm.sh/hook-weight` (0 when absent or not a number, calculateHookWeight) and
 *    `helm.sh/hook-delete-policy` values the same way (operateAnnotationValues);
 *  - the order hooks of one event run in (pkg/action/hooks.go hookByWeight: weight, then name,
 *    stable over the kind order the sorter left them in), and the default delete policy
 *    `before-hook-creation` (hookSetDeletePolicy);
 *  - how a hook resource's readiness is read while helm waits on it (pkg/kube/statuswait.go
 *    WatchUntilReady with internal/statusreaders: a Pod is Current when Succeeded and Failed when
 *    Failed, a Job by its Complete/Failed condition, anything else Current at once; waiter.ts
 *    waits on it);
 *  - `--filter` (pkg/cmd/release_testing.go): `name=X` includes, `!name=X` (or `! name=X`) excludes.
 */
import { parseYamlMemo as parseYaml } from '../../util/yaml-memo.js';
import type { KObject } from '../../sim/api/types.js';
import type { KResult } from './kstatus.js';
import type { Manifest } from './manifests.js';
import type { ReleaseHook } from './release.js';

const EVENTS = ['pre-install', 'post-install', 'pre-delete', 'post-delete', 'pre-upgrade', 'post-upgrade', 'pre-rollback', 'post-rollback', 'test'];

/** Annotation values split on commas, trimmed and lower-cased. */
function values(v: unknown): string[] {
  return typeof v === 'string' ? v.split(',').map((x) => x.trim().toLowerCase()) : [];
}

/** Go's strconv.Atoi: an optional sign and decimal digits only, else 0 (as calculateHookWeight falls back). */
function atoi(v: unknown): number {
  return typeof v === 'string' && /^[+-]?\d+$/.test(v) ? Number(v) : 0;
}

/** The hook helm records for a hook document; undefined when one of its events is unknown (helm skips it). */
export function hookRecord(m: Manifest): ReleaseHook | undefined {
  const head = (parseYaml(m.content) ?? {}) as { metadata?: { annotations?: Record<string, unknown> } };
  const ann = head.metadata?.annotations ?? {};
  const events: string[] = [];
  for (const e of values(ann['helm.sh/hook'])) {
    const ev = e === 'test-success' ? 'test' : e;
    if (!EVENTS.includes(ev)) return undefined;
    events.push(ev);
  }
  const weight = atoi(ann['helm.sh/hook-weight']);
  const policies = values(ann['helm.sh/hook-delete-policy']);
  return {
    name: m.name,
    kind: m.kind,
    path: m.path,
    manifest: m.content,
    events,
    ...(weight !== 0 ? { weight } : {}),
    ...(policies.length > 0 ? { delete_policies: policies } : {}),
  };
}

/** hookByWeight: by weight, then by name; stable. */
export function byWeight(hooks: readonly ReleaseHook[]): ReleaseHook[] {
  return [...hooks].sort((a, b) => (a.weight ?? 0) - (b.weight ?? 0) || (a.name < b.name ? -1 : a.name > b.name ? 1 : 0));
}

/** The delete policies a hook runs with: before-hook-creation when it declares none. */
export function deletePolicies(h: ReleaseHook): string[] {
  return h.delete_policies && h.delete_policies.length > 0 ? h.delete_policies : ['before-hook-creation'];
}

export interface HookFilters {
  include: string[];
  exclude: string[];
}

/** `--filter` values (each may hold several, comma-separated, as pflag's StringSlice reads them). */
export function parseFilters(raw: readonly string[]): HookFilters {
  const f: HookFilters = { include: [], exclude: [] };
  for (const v of raw.flatMap((r) => r.split(','))) {
    if (v.startsWith('name=')) f.include.push(v.slice(5));
    else if (/^!\s?name=/.test(v)) f.exclude.push(v.replace(/^!\s?name=/, ''));
  }
  return f;
}

/** ReleaseTesting.Run: which hooks run (the rest are skipped, and kept first in the record). */
export function filterHooks(hooks: readonly ReleaseHook[], f: HookFilters): { run: ReleaseHook[]; skipped: ReleaseHook[] } {
  let run = [...hooks];
  const skipped: ReleaseHook[] = [];
  if (f.exclude.length > 0) {
    skipped.push(...run.filter((h) => f.exclude.includes(h.name)));
    run = run.filter((h) => !f.exclude.includes(h.name));
  }
  if (f.include.length > 0) {
    skipped.push(...run.filter((h) => !f.include.includes(h.name)));
    run = run.filter((h) => f.include.includes(h.name));
  }
  return { run, skipped };
}

/** The status reader helm's hook waiter uses for an object. */
export function hookStatus(o: KObject): KResult {
  const st = (o as { status?: { phase?: string; succeeded?: number; failed?: number; conditions?: { type: string; status: string }[] } }).status;
  if (o.kind === 'Pod') {
    if (st?.phase === 'Succeeded') return { status: 'Current', message: `pod ${o.metadata.name} succeeded` };
    if (st?.phase === 'Failed') return { status: 'Failed', message: `pod ${o.metadata.name} failed` };
    return { status: 'InProgress', message: 'Pod in progress' };
  }
  if (o.kind === 'Job') {
    const spec = (o as { spec?: { parallelism?: number; completions?: number } }).spec;
    const completions = spec?.completions ?? spec?.parallelism ?? 1;
    for (const c of st?.conditions ?? []) {
      if (c.type === 'Complete' && c.status === 'True') return { status: 'Current', message: `Job Completed. succeeded: ${st?.succeeded ?? 0}/${completions}` };
      if (c.type === 'Failed' && c.status === 'True') return { status: 'Failed', message: `Job Failed. failed: ${st?.failed ?? 0}/${completions}` };
    }
    return { status: 'InProgress', message: 'Job in progress' };
  }
  return { status: 'Current', message: 'Resource is current' };
}
