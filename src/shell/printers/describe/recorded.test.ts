/**
 * `kubectl describe` against real kubectl v1.35 (issues 13 and 15): scripts/record-describe.mjs
 * built a cluster in the simulator (src/testing/describe-cluster.ts), served its objects
 * (testdata/recorded/objects.json) to the real binary from a stub API server, and recorded each
 * case. Here the same objects are loaded into a cluster without controllers (the kubeadm-calico
 * fixture's hosts and state; its store replaced by the recorded objects), its clock set to the
 * `now:` the case was recorded at (kubectl computes the events' ages from its wall clock), and the
 * simulator's `kubectl describe` must print the same stdout, stderr and exit code. Nothing is
 * normalised.
 */
import { describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { readFileSync, readdirSync } from 'node:fs';
import type { KObject } from '../../../sim/api/types.js';
import { Cluster } from '../../../sim/cluster.js';
import { ManualClock } from '../../../util/clock.js';
import { loadFixture } from '../../../testing/fixtures.js';
import { Session } from '../../session.js';

const dir = new URL('./testdata/recorded/', import.meta.url);
const dump = JSON.parse(readFileSync(new URL('objects.json', dir), 'utf8')) as { now: string; objects: KObject[] };
const dumpedAt = Date.parse(dump.now);

interface Recorded {
  now: number;
  argv: string[];
  exit: number;
  stdout: string;
  stderr: string;
}

function recorded(name: string): Recorded {
  const text = readFileSync(new URL(name, dir), 'utf8');
  const m = /^# Client Version: v1\.35\.\d+\nnow: (\S+)\nargv: (.*)\nexit: (\d+)\n--- stdout\n([\s\S]*)--- stderr\n([\s\S]*)--- requests\n/.exec(text);
  assert.ok(m, `${name}: unexpected format`);
  return { now: Date.parse(m[1]!), argv: JSON.parse(m[2]!) as string[], exit: Number(m[3]), stdout: m[4]!, stderr: m[5]! };
}

const base = loadFixture('kubeadm-calico', 1).snapshot();

/**
 * The recorded objects in a cluster that no controller changes, at `now`. The nodes' kubelets
 * stopped when the objects were dumped, so the API server serves the nodes' heartbeats of the dump
 * (it derives later ones from a running kubelet: sim/virtual-objects.ts nodeView), as the stub did.
 */
function replayCluster(now: number): Cluster {
  const c = Cluster.restore(base, new ManualClock(now), []);
  c.store.load({ resourceVersion: 1_000_000, uidCounter: 1_000_000, objects: JSON.parse(JSON.stringify(dump.objects)) as KObject[] });
  for (const h of c.hosts.values()) {
    const kubelet = h.data.units['kubelet'];
    if (kubelet) h.data.units['kubelet'] = { ...kubelet, active: false, since: dumpedAt };
  }
  return c;
}

describe('kubectl describe against real kubectl v1.35', () => {
  for (const name of readdirSync(dir).filter((f) => f.endsWith('.txt')).sort()) {
    const rec = recorded(name);
    it(name.replace(/\.txt$/, ''), async () => {
      const s = new Session(replayCluster(rec.now));
      const r = await s.exec(['kubectl', ...rec.argv].join(' '));
      assert.equal(r.stdout, rec.stdout);
      assert.equal(r.stderr, rec.stderr);
      assert.equal(r.exitCode, rec.exit);
    });
  }
});
