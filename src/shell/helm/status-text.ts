/**
 * The release summary printed by install, upgrade, `helm status`, `helm get all` and `helm test`
 * (helm v4.1.4 pkg/cmd/status.go statusPrinter.WriteTable): NAME, LAST DEPLOYED (time.ANSIC),
 * NAMESPACE, STATUS, REVISION, with showMetadata CHART/VERSION/APP_VERSION, DESCRIPTION, the test
 * suite (`None` without test hooks; per test hook that ran, its last run), with debug the supplied
 * and computed values, for a dry run or debug the HOOKS and MANIFEST, then NOTES unless hidden.
 */
import { ansic, type Release, type ReleaseHook } from './release.js';

export interface StatusOptions {
  debug?: boolean;
  showMetadata?: boolean;
  hideNotes?: boolean;
  /** With debug: the user-supplied and the computed values, as YAML (helm's output.EncodeYAML). */
  values?: { user: string; computed: string };
}

function testSuite(r: Release): string {
  const tests = (r.hooks ?? []).filter((h) => (h.events ?? []).includes('test'));
  if (tests.length === 0) return 'TEST SUITE: None\n';
  let out = '';
  for (const h of tests) {
    // a hook that never ran prints nothing
    if (!h.last_run?.started_at) continue;
    out += `TEST SUITE:     ${h.name}\nLast Started:   ${ansic(h.last_run.started_at)}\nLast Completed: ${ansic(h.last_run.completed_at ?? h.last_run.started_at)}\nPhase:          ${h.last_run.phase}\n`;
  }
  return out;
}

export function statusText(r: Release, o: StatusOptions = {}): string {
  let out = `NAME: ${r.name}\n`;
  if (r.info.last_deployed) out += `LAST DEPLOYED: ${ansic(r.info.last_deployed)}\n`;
  out += `NAMESPACE: ${r.namespace}\nSTATUS: ${r.info.status}\nREVISION: ${r.version}\n`;
  if (o.showMetadata) out += `CHART: ${r.chart.metadata.name}\nVERSION: ${r.chart.metadata.version}\nAPP_VERSION: ${r.chart.metadata.appVersion ?? ''}\n`;
  out += `DESCRIPTION: ${r.info.description}\n`;
  out += testSuite(r);
  if (o.debug && o.values) out += `USER-SUPPLIED VALUES:\n${o.values.user}\nCOMPUTED VALUES:\n${o.values.computed}\n`;
  if (r.info.description.toLowerCase() === 'dry run complete' || o.debug) {
    out += `HOOKS:\n${hooksText(r.hooks ?? [])}MANIFEST:\n${r.manifest}\n`;
  }
  if (!o.hideNotes && r.info.notes && r.info.notes.length > 0) out += `NOTES:\n${r.info.notes.trim()}\n`;
  return out;
}

/** Each hook as `helm get hooks` and the HOOKS section print it. */
export function hooksText(hooks: readonly ReleaseHook[]): string {
  return hooks.map((h) => `---\n# Source: ${h.path}\n${h.manifest}\n`).join('');
}
