/**
 * Prebuilt fixture snapshots (prebuilt.ts) must be exactly what building gives: a session restored
 * from one behaves byte for byte like one restored from a fresh build, and anything else (another
 * seed, an edited fixture, a damaged file) is not served.
 */
import { describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { mkdtempSync, readFileSync, readdirSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { prebuiltKey, readPrebuilt, writePrebuilt } from './prebuilt.js';
import { buildCluster, parseFixture } from '../sim/fixture/build.js';
import { CONTROLLERS } from '../sim/controllers/index.js';
import { Cluster, type Snapshot } from '../sim/cluster.js';
import { ManualClock } from '../util/clock.js';
import { Session } from '../shell/session.js';

const FIXTURES = fileURLToPath(new URL('../../fixtures/', import.meta.url));
const NAME = 'kubeadm-calico';

async function transcript(snap: Snapshot): Promise<string> {
  const s = new Session(Cluster.restore(snap, new ManualClock(snap.now), CONTROLLERS));
  let out = '';
  for (const line of ['kubectl get po -A -o wide', 'kubectl create deploy web --image=nginx --replicas=2', 'sleep 30', 'kubectl get po -o wide', 'ssh cka-w1', 'sudo iptables-save -t nat', 'exit']) {
    const r = await s.exec(line);
    out += `$ ${line}\n${r.stdout}${r.stderr}[${r.exitCode}]\n`;
  }
  return out + JSON.stringify(s.cluster.snapshot());
}

describe('prebuilt fixture snapshots', () => {
  const dir = mkdtempSync(join(tmpdir(), 'cka-prebuilt-'));
  const text = readFileSync(join(FIXTURES, `${NAME}.yaml`), 'utf8');
  const wrote = writePrebuilt(FIXTURES, dir, [NAME], [2]);

  it('writes one file per fixture and seed, named by seed and text', () => {
    assert.equal(wrote, 1);
    assert.deepEqual(readdirSync(dir), [`${prebuiltKey(text, 2)}.json.gz`]);
  });

  it('a session from the prebuilt snapshot runs exactly like one from a fresh build', async () => {
    const built = buildCluster(parseFixture(text, `${NAME}.yaml`), { seed: 2, controllers: CONTROLLERS }).snapshot();
    const pre = readPrebuilt(text, 2, dir);
    assert.ok(pre);
    assert.equal(JSON.stringify(pre), JSON.stringify(built));
    assert.equal(await transcript(pre), await transcript(built));
  });

  it('is not served for another seed, an edited fixture or a damaged file', () => {
    assert.equal(readPrebuilt(text, 3, dir), undefined);
    assert.equal(readPrebuilt(`${text}\n# edited\n`, 2, dir), undefined);
    writeFileSync(join(dir, `${prebuiltKey(text, 2)}.json.gz`), 'not gzip');
    assert.equal(readPrebuilt(text, 2, dir), undefined);
  });
});
