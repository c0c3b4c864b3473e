/**
 * The errors of a child shell (`bash -c`, `bash FILE`, `… | bash`, and `sh`, which is dash on
 * Ubuntu), replayed against testdata/child-shells.txt, recorded from the real bash 5.2.15 and dash
 * 0.5.12 by testdata/record-child-shells.sh without stripping any prefix: `$0` as typed names the
 * errors (`/bin/bash: line 1:`, `foo: line 1:` for `bash -c CMD foo`), bash's syntax errors in a
 * -c string read `NAME: -c: line N:` and quote the line, dash's `NAME: N: Syntax error: …`, and
 * the commands before a syntax error have run.
 */
import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import { test } from 'node:test';
import { loadFixture } from '../testing/fixtures.js';
import { recordedShellCases, replayShellCases } from '../testing/shell-recordings.js';
import { Session } from './session.js';

const transcript = readFileSync(new URL('./testdata/child-shells.txt', import.meta.url), 'utf8');

test('child shells word their errors as the recorded bash and dash', async () => {
  const all = recordedShellCases(transcript);
  assert.ok(all.length >= 30, `only ${all.length} cases`);
  const s = new Session(loadFixture('kubeadm-calico', 1));
  await s.exec('mkdir -p /tmp/cs && cd /tmp/cs');
  assert.deepEqual(await replayShellCases(s, all, 'stdout-then-stderr'), []);
});
