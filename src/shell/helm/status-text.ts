/**
 * The release summary printed by install, upgrade and `helm status` (helm v4 pkg/cmd/status.go
 * statusPrinter.WriteTable): NAME, LAST DEPLOYED (time.ANSIC), NAMESPACE, STATUS, REVISION,
 * DESCRIPTION, the test suite line (nothing when test hooks exist but never ran), NOTES.
 */
import { ansic, type Release } from './release.js';

export function statusText(r: Release): string {
  let out = `NAME: ${r.name}\n`;
  if (r.info.last_deployed) out += `LAST DEPLOYED: ${ansic(r.info.last_deployed)}\n`;
  out += `NAMESPACE: ${r.namespace}\nSTATUS: ${r.info.status}\nREVISION: ${r.version}\nDESCRIPTION: ${r.info.description}\n`;
  const tests = (r.hooks ?? []).filter((h) => String((h as { events?: string[] }).events ?? '').includes('test'));
  if (tests.length === 0) out += 'TEST SUITE: None\n';
  if (r.info.description === 'Dry run complete') out += `MANIFEST:\n${r.manifest}`;
  if (r.info.notes && r.info.notes.length > 0) out += `NOTES:\n${r.info.notes.trim()}\n`;
  return out;
}
