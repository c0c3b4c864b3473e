/**
 * A whole practice attempt driven through stdin (`cka-lab practice ID`, no terminal): task panel,
 * hints in tiers, a failing then passing `check`, `solution` asking first and marking the attempt
 * assisted, `next` at the end of the list; then the attempt shows in `history`.
 */
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { fileURLToPath } from 'node:url';
import { harness } from '../cli/testing/harness.js';

const SCENARIOS = fileURLToPath(new URL('./testdata/scenarios', import.meta.url));

const PANEL = `Create a labelled namespace  [t-namespace]
workloads-scheduling · easy · 4 points · target 3 min

Create namespace team-a with the label tier=web.

`;

test('practice: a whole attempt through stdin', async () => {
  const h = harness({ CKA_LAB_SCENARIOS: SCENARIOS });
  const input = ['hint', 'hint', 'hint', 'check', 'kubectl create ns team-a', 'check', 'solution', 'y', 'kubectl label ns team-a tier=web', 'check', 'next'].join('\n');
  const r = await h.run(['practice', '--seed', '3', 't-namespace'], `${input}\n`);
  const expected =
    PANEL +
    `Hint 1/2: Namespaces are cluster-scoped.
Hint 2/2: kubectl label adds labels to an existing object.
No more hints (2 of 2 shown). \`solution\` shows the reference solution.
✗ Namespace team-a exists (0/1)
    expected Namespace team-a exists; got not found
✗ Namespace team-a has tier=web (0/3)
    expected Namespace team-a exists; got not found
Score: 0/4 (0%)
namespace/team-a created
✓ Namespace team-a exists (1/1)
✗ Namespace team-a has tier=web (0/3)
    expected Namespace team-a: {.metadata.labels.tier} equals "web"; got 
Score: 1/4 (25%)
Show the reference solution? The attempt will count as assisted. [y/N] Reference solution:
  kubectl create namespace team-a
  kubectl label namespace team-a tier=web

kubectl create namespace, then kubectl label.
namespace/team-a labeled
✓ Namespace team-a exists (1/1)
✓ Namespace team-a has tier=web (3/3)
Score: 4/4 (100%)
No more tasks here.
`;
  assert.equal(r.stderr, '');
  assert.equal(r.stdout, expected);
  const hist = await h.run(['history', '--json']);
  const j = JSON.parse(hist.stdout) as { attempts: { scenario: string; score: number; max: number; assisted: boolean; mode: string }[] };
  assert.deepEqual(
    j.attempts.map((a) => ({ scenario: a.scenario, score: a.score, max: a.max, assisted: a.assisted, mode: a.mode })),
    [{ scenario: 't-namespace', score: 4, max: 4, assisted: true, mode: 'practice' }],
  );
});

test('practice: declining the solution, skip records nothing, unknown id', async () => {
  const h = harness({ CKA_LAB_SCENARIOS: SCENARIOS });
  const r = await h.run(['practice', '--seed', '3', '--domain', 'troubleshooting'], 'pwd\nsolution\nn\nskip\n');
  assert.ok(r.stdout.startsWith("Write the kubelet's node name to a file  [t-file]\n"), r.stdout);
  assert.ok(r.stdout.includes('Solve this on cka-w1'));
  assert.ok(r.stdout.includes('/root\nShow the reference solution? The attempt will count as assisted. [y/N] No more tasks here.\n'), r.stdout);
  const hist = await h.run(['history', '--json']);
  assert.deepEqual((JSON.parse(hist.stdout) as { attempts: unknown[] }).attempts, []);
  const bad = await h.run(['practice', 'nope']);
  assert.deepEqual([bad.code, bad.stderr], [2, 'cka-lab: no scenario "nope" (see `cka-lab list`)\n']);
});
