/**
 * The APF bootstrap ensurer (kube-apiserver pkg/registry/flowcontrol/rest/storage_flowcontrol.go,
 * pkg/registry/flowcontrol/ensurer/strategy.go): every minute after the API server started it
 * re-creates deleted bootstrap objects, restores the spec of mandatory ones and of suggested ones
 * whose `apf.kubernetes.io/autoupdate-spec` annotation is true (or missing at generation 1), and
 * deletes objects of other names that carry the annotation as true.
 */
import { describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { loadFixture } from '../../testing/fixtures.js';
import { Session } from '../../shell/session.js';
import { apfEnsures, parseGoBool } from './apf-bootstrap.js';
import { Cluster } from '../cluster.js';
import { ManualClock } from '../../util/clock.js';
import { CONTROLLERS } from './index.js';

async function sh(s: Session, cmd: string): Promise<string> {
  const r = await s.exec(cmd);
  return r.stdout + r.stderr;
}

/** Move the clock to just before (`-1`) or onto (`0`) the ensurer's next run. */
function toNextRun(s: Session, offsetMs: number): void {
  const ranAt = s.cluster.state.apfBootstrap?.ranAt;
  assert.ok(ranAt !== undefined, 'the ensurer keeps its last run');
  s.cluster.advanceTo(ranAt + 60_000 + offsetMs);
}

const jp = (kind: string, name: string, path: string): string => `kubectl get ${kind} ${name} -o jsonpath='${path}'`;

describe('APF bootstrap ensurer', () => {
  it('re-creates a deleted suggested or mandatory object at its next run, not before', async () => {
    const s = new Session(loadFixture('flannel-single', 0));
    const oldUid = await sh(s, jp('flowschema', 'global-default', '{.metadata.uid}'));
    await sh(s, 'kubectl delete flowschema global-default; kubectl delete prioritylevelconfiguration workload-low catch-all');
    toNextRun(s, -1000);
    assert.match(await sh(s, 'kubectl get flowschema global-default'), /NotFound/);
    assert.match(await sh(s, 'kubectl get prioritylevelconfiguration catch-all'), /NotFound/);
    toNextRun(s, 1000);
    const uid = await sh(s, jp('flowschema', 'global-default', '{.metadata.uid}'));
    assert.ok(uid && uid !== oldUid, 'a new object');
    assert.equal(
      await sh(s, jp('flowschema', 'global-default', '{.metadata.annotations} {.metadata.generation} {.spec.matchingPrecedence} {.status.conditions[0].reason}')),
      '{"apf.kubernetes.io/autoupdate-spec":"true"} 1 9900 Found',
    );
    assert.equal(await sh(s, jp('prioritylevelconfiguration', 'workload-low', '{.spec.limited.nominalConcurrencyShares}')), '100');
    assert.equal(await sh(s, jp('prioritylevelconfiguration', 'catch-all', '{.spec.limited.limitResponse.type}')), 'Reject');
  });

  it('restores an edited suggested spec while autoupdate-spec is true, and keeps it when it is "false"', async () => {
    const s = new Session(loadFixture('flannel-single', 0));
    await sh(s, `kubectl patch prioritylevelconfiguration workload-low --type=merge -p '{"spec":{"limited":{"nominalConcurrencyShares":7}}}'`);
    await sh(s, `kubectl annotate prioritylevelconfiguration global-default --overwrite apf.kubernetes.io/autoupdate-spec=false`);
    await sh(s, `kubectl patch prioritylevelconfiguration global-default --type=merge -p '{"spec":{"limited":{"nominalConcurrencyShares":9}}}'`);
    assert.equal(await sh(s, jp('prioritylevelconfiguration', 'workload-low', '{.metadata.generation} {.spec.limited.nominalConcurrencyShares}')), '2 7');
    toNextRun(s, 0);
    assert.equal(await sh(s, jp('prioritylevelconfiguration', 'workload-low', '{.metadata.generation} {.spec.limited.nominalConcurrencyShares}')), '3 100');
    assert.equal(
      await sh(s, jp('prioritylevelconfiguration', 'global-default', '{.metadata.annotations.apf\\.kubernetes\\.io/autoupdate-spec} {.spec.limited.nominalConcurrencyShares}')),
      'false 9',
    );
  });

  it('without the annotation, a suggested object is updated at generation 1 and left alone once edited', async () => {
    const s = new Session(loadFixture('flannel-single', 0));
    // annotating does not move the generation: still 1, so the spec counts as untouched
    await sh(s, 'kubectl annotate flowschema probes apf.kubernetes.io/autoupdate-spec-');
    await sh(s, 'kubectl annotate flowschema service-accounts apf.kubernetes.io/autoupdate-spec=maybe --overwrite');
    await sh(s, `kubectl patch flowschema service-accounts --type=merge -p '{"spec":{"matchingPrecedence":8000}}'`);
    toNextRun(s, 0);
    assert.equal(await sh(s, jp('flowschema', 'probes', '{.metadata.annotations.apf\\.kubernetes\\.io/autoupdate-spec}')), 'true');
    assert.equal(
      await sh(s, jp('flowschema', 'service-accounts', '{.metadata.annotations.apf\\.kubernetes\\.io/autoupdate-spec} {.metadata.generation} {.spec.matchingPrecedence}')),
      'false 2 8000',
    );
  });

  it('a mandatory object gets its spec and a true annotation back whatever the annotation said', async () => {
    const s = new Session(loadFixture('flannel-single', 0));
    await sh(s, 'kubectl annotate flowschema exempt apf.kubernetes.io/autoupdate-spec=false --overwrite');
    await sh(s, `kubectl patch flowschema exempt --type=merge -p '{"spec":{"matchingPrecedence":3}}'`);
    // the exempt level's concurrency shares are the operator's to tune (plcSpecEqualish)
    await sh(s, `kubectl patch prioritylevelconfiguration exempt --type=merge -p '{"spec":{"exempt":{"nominalConcurrencyShares":4}}}'`);
    toNextRun(s, 0);
    assert.equal(await sh(s, jp('flowschema', 'exempt', '{.metadata.annotations.apf\\.kubernetes\\.io/autoupdate-spec} {.spec.matchingPrecedence}')), 'true 1');
    assert.equal(await sh(s, jp('prioritylevelconfiguration', 'exempt', '{.metadata.generation} {.spec.exempt.nominalConcurrencyShares}')), '2 4');
  });

  it('deletes objects of other names that say autoupdate-spec true, and keeps the user\'s own', async () => {
    const s = new Session(loadFixture('flannel-single', 0));
    const fs = (name: string, ann: string): string =>
      `apiVersion: flowcontrol.apiserver.k8s.io/v1\nkind: FlowSchema\nmetadata:\n  name: ${name}\n${ann}spec:\n  matchingPrecedence: 300\n  priorityLevelConfiguration:\n    name: workload-low\n`;
    const yaml = `${fs('mine', '')}---\n${fs('stale', '  annotations:\n    apf.kubernetes.io/autoupdate-spec: "True"\n')}`;
    await sh(s, `cat > /root/fs.yaml <<'EOF'\n${yaml}EOF`);
    assert.match(await sh(s, 'kubectl create -f /root/fs.yaml'), /flowschema.flowcontrol.apiserver.k8s.io\/stale created/);
    toNextRun(s, 0);
    assert.match(await sh(s, 'kubectl get flowschema stale'), /NotFound/);
    assert.match(await sh(s, 'kubectl get flowschema mine'), /^mine +workload-low +300 /m);
  });

  it('runs when a restarted API server comes back, before the minute is up', async () => {
    const s = new Session(loadFixture('kubeadm-calico', 1));
    await sh(s, 'kubectl delete flowschema kube-scheduler');
    await s.exec('ssh cka-cp1');
    const t0 = s.cluster.now();
    const ranAt = s.cluster.state.apfBootstrap!.ranAt;
    // a new flag is a new static pod: the kubelet restarts kube-apiserver
    await s.exec("sed -i 's/    - --secure-port=6443/    - --secure-port=6443\\n    - --v=2/' /etc/kubernetes/manifests/kube-apiserver.yaml; sleep 20");
    await s.exec('exit');
    assert.ok(s.cluster.now() - t0 < 60_000 && s.cluster.now() < ranAt + 60_000, 'still before the old schedule');
    assert.match(await sh(s, 'kubectl get flowschema kube-scheduler'), /^kube-scheduler +workload-high +800 +ByNamespace/m);
  });

  it('skips the every-minute comparison while the objects are those an ensure left as they were, and ensures again after a change', async () => {
    const s = new Session(loadFixture('flannel-single', 0));
    const c = s.cluster;
    let reads = 0;
    const get = c.store.get.bind(c.store);
    c.store.get = ((kind: string, ns: string | undefined, name: string) => {
      if (kind === 'FlowSchema' || kind === 'PriorityLevelConfiguration') reads++;
      return get(kind, ns, name);
    }) as typeof c.store.get;
    toNextRun(s, 1000);
    toNextRun(s, 1000);
    reads = 0;
    c.advance(30 * 60_000);
    assert.equal(reads, 0, 'thirty runs on unchanged objects read none of them');
    await sh(s, 'kubectl delete flowschema global-default');
    toNextRun(s, 1000);
    assert.ok(reads > 0);
    assert.match(await sh(s, 'kubectl get flowschema global-default -o name'), /^flowschema/);
  });

  it('reads the annotation as strconv.ParseBool does', () => {
    assert.deepEqual(['1', 't', 'TRUE', 'True', '0', 'F', 'false', 'yes', '', undefined].map(parseGoBool), [true, true, true, true, false, false, false, undefined, undefined, undefined]);
  });
});

describe('APF bootstrap ensurer in copies', () => {
  /** Advance a cluster onto its ensurer's next run. */
  const nextRun = (c: Cluster): void => {
    const ranAt = c.state.apfBootstrap?.ranAt;
    assert.ok(ranAt !== undefined, 'the ensurer keeps its last run');
    c.advanceTo(ranAt + 60_000);
  };

  it("skips a copy's run over the objects an ensure that wrote nothing read, and still mends a copy's deletion", () => {
    const a = loadFixture('flannel-single', 0);
    nextRun(a);
    const snap = a.snapshot();
    const b = Cluster.restore(snap, new ManualClock(snap.now), CONTROLLERS);
    const before = apfEnsures.count;
    nextRun(b);
    assert.equal(apfEnsures.count, before, "the copy's first run over its original's objects is skipped");
    const fs = b.store.get('FlowSchema', undefined, 'global-default');
    assert.ok(fs);
    b.store.remove('FlowSchema', undefined, 'global-default');
    nextRun(b);
    assert.equal(apfEnsures.count, before + 1, 'other objects: the ensure runs');
    const again = b.store.get('FlowSchema', undefined, 'global-default');
    assert.ok(again && again.metadata.uid !== fs.metadata.uid, 're-created');
  });
});
