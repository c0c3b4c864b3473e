/**
 * Field splitting by IFS (POSIX 2.6.5; bash subst.c list_string, dash expand.c ifsbreakup), `"$*"`
 * joined by IFS's first character, and `read` splitting by IFS (bash read.def), replayed against
 * testdata/ifs.txt: the cases of testdata/ifs-cases.txt recorded from the real bash 5.2.15 and
 * dash 0.5.12 (as `sh`) by `record-child-shells.sh ifs-cases.txt`. Only the results of unquoted
 * expansions split; IFS white space collapses and is trimmed at the ends, each other IFS character
 * ends a field (a leading one makes an empty field, a trailing one none), an empty IFS splits
 * nothing and an unset IFS is space, tab and newline.
 */
import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import { test } from 'node:test';
import { loadFixture } from '../testing/fixtures.js';
import { recordedShellCases, replayShellCases } from '../testing/shell-recordings.js';
import { Session } from './session.js';

const transcript = readFileSync(new URL('./testdata/ifs.txt', import.meta.url), 'utf8');

test('IFS splits fields, joins "$*" and splits read lines as the recorded bash and dash do', async () => {
  const all = recordedShellCases(transcript);
  assert.ok(all.length >= 40, `only ${all.length} cases`);
  const s = new Session(loadFixture('kubeadm-calico', 1));
  await s.exec('mkdir -p /tmp/ifs && cd /tmp/ifs');
  assert.deepEqual(await replayShellCases(s, all), []);
});
