/** validate's runs as a prefix tree: shared lines run once, and every run ends as it would have run alone. */
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { instantiate, loadScenarioFile, setupSession } from './index.js';
import { copier } from './session.js';
import { proveRuns, runLine, runsOf, shareable, type RunSpec } from './validate-runs.js';
import { parseDuration } from '../sim/fixture/build.js';
import type { Session } from '../shell/session.js';
import type { Instance } from './instance.js';

const LIB = new URL('../../scenarios', import.meta.url).pathname;

/** Each run's state after its lines and `wait`, run as validate ran them before the tree: each from its own copy of the setup's state, a mutation `after: solution` from a copy of the solved state. */
async function alone(inst: Instance, runs: readonly RunSpec[], wait: number): Promise<string[]> {
  const s0 = await setupSession(inst);
  const fresh = copier(s0, true);
  const out: string[] = [];
  let solved: (() => Session) | undefined;
  for (const run of runs) {
    const s = run.solved === undefined ? fresh() : solved!();
    for (const line of run.lines.slice(run.solved ?? 0)) await runLine(s, line);
    if (run.kind === 'solution') solved = copier(s, true);
    s.cluster.advance(wait);
    out.push(JSON.stringify(s.toJSON()));
  }
  return out;
}

async function tree(inst: Instance, runs: readonly RunSpec[], wait: number): Promise<{ states: string[]; ends: Awaited<ReturnType<typeof proveRuns>>['ends'] }> {
  const states: string[] = [];
  const { ends } = await proveRuns(inst, await setupSession(inst), runs, wait, { observe: (k, s) => (states[k] = JSON.stringify(s.toJSON())) });
  return { states, ends };
}

test('lines that runs start with alike run once, and each run ends in the state it would have reached alone', async () => {
  // the solution and a mutation share their first line (the ConfigMap); each creates its pods after
  // the runs part, and the service-account admission names their token volumes by the store's
  // write count (Cluster.carried)
  const inst = instantiate(loadScenarioFile(`${LIB}/workloads-scheduling/configmap-env-file-items.yaml`), 1);
  const runs = runsOf(inst);
  const wait = parseDuration(inst.resolved.wait);
  const mutation = runs.findIndex((r) => r.name === 'whole-configmap');
  assert.ok(mutation > 0 && runs[mutation]!.lines[0] === runs[0]!.lines[0] && runs[mutation]!.lines[1] !== runs[0]!.lines[1], 'the mutation starts with the solution line');
  const { states, ends } = await tree(inst, runs, wait);
  assert.equal(ends[mutation]!.lines[0], ends[0]!.lines[0], 'the shared line ran once: one result');
  assert.deepEqual(states, await alone(inst, runs, wait));
});

test("runs that part after a Service changed go on with CoreDNS's view of the changes (its SOA serial)", async () => {
  const inst = instantiate(loadScenarioFile(`${LIB}/services-networking/dual-stack-service.yaml`), 1);
  const runs = runsOf(inst);
  const wait = parseDuration(inst.resolved.wait);
  const { states } = await tree(inst, runs, wait);
  assert.deepEqual(states, await alone(inst, runs, wait));
});

test('runs whose lines could leave a job list paused in the background share nothing but the solved state', () => {
  const run = (lines: string[]): RunSpec => ({ kind: 'alternative', name: 'a', lines });
  assert.equal(shareable([run(['kubectl get pods 2>&1 && echo ok', 'ls &>/dev/null'])]), true);
  assert.equal(shareable([run(['sleep 5 && kubectl delete pod x &'])]), false);
  assert.equal(shareable([run(['(sleep 1; kubectl get pods) & wait'])]), false);
});
