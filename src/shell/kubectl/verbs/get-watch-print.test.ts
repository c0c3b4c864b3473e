/**
 * `kubectl get pods -w -o FORMAT [--output-watch-events]` printed as real kubectl v1.35.2 prints
 * it: scripts/record-get-watch.mjs served the pod list and watch events of
 * testdata/watch-events/stream.json to the real binary and recorded each case; the simulator's
 * watch printer (get.ts watchRenderer) gets the same objects in the same order — the listed ones
 * (as ADDED events with --output-watch-events, none with --watch-only), then the watched events —
 * and must print the same bytes. The cases where the printer fails are transcripts
 * (testdata/transcripts/get-watch.txt): the failure is the watch loop's, not the printer's.
 */
import { describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { readFileSync, readdirSync } from 'node:fs';
import type { KObject } from '../../../sim/api/types.js';
import type { KubectlEnv } from '../context.js';
import { bool, parseFlags } from '../flags.js';
import { flagsOf } from '../spec/lookup.js';
import { getSpec } from '../spec/get.js';
import { parseOutput, watchRenderer } from './get.js';

const dir = new URL('./testdata/watch-events/', import.meta.url);
const stream = JSON.parse(readFileSync(new URL('stream.json', dir), 'utf8')) as { list: KObject[]; events: { type: string; object: KObject }[] };

function recorded(name: string): { argv: string[]; exit: number; stdout: string } {
  const text = readFileSync(new URL(name, dir), 'utf8');
  const m = /^# Client Version: v1\.35\.\d+\nargv: (.*)\nexit: (\d+)\n--- stdout\n([\s\S]*)--- stderr\n/.exec(text);
  assert.ok(m, `${name}: unexpected format`);
  return { argv: (JSON.parse(m[1]!) as string[]).slice(2), exit: Number(m[2]), stdout: m[3]! };
}

describe('get -w printers against real kubectl v1.35.2', () => {
  for (const name of readdirSync(dir).filter((f) => f.endsWith('.txt'))) {
    const rec = recorded(name);
    if (rec.exit !== 0 || rec.stdout === '') continue;
    it(name.replace(/\.txt$/, ''), () => {
      const p = parseFlags(rec.argv, flagsOf(getSpec));
      const events = bool(p.flags, 'output-watch-events');
      const render = watchRenderer(parseOutput(p.flags['output'] as string, {} as KubectlEnv, undefined), p);
      let out = '';
      if (!bool(p.flags, 'watch-only')) for (const o of stream.list) out += render(o, events ? 'ADDED' : undefined);
      for (const e of stream.events) out += render(e.object, events ? e.type : undefined);
      assert.equal(out, rec.stdout);
    });
  }
});
