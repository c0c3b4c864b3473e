/**
 * Events read through events.k8s.io/v1 (`kubectl get events.events.k8s.io`): the same stored
 * Event in the events.k8s.io/v1 schema (pkg/apis/events/v1/conversion.go
 * Convert_core_Event_To_v1_Event; k8s.io/api/events/v1 types.go for which fields are never
 * omitted), named `event.events.k8s.io/NAME`; the table is the server's, the same as for core events.
 */
import { describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { loadFixture } from '../../../testing/fixtures.js';
import { Session } from '../../session.js';

describe('events.k8s.io/v1 Events', () => {
  it('-o yaml prints the events.k8s.io field names and apiVersion', async () => {
    const s = new Session(loadFixture('flannel-single', 0));
    const name = (await s.exec("kubectl get events --field-selector reason=Pulling -o jsonpath='{.items[0].metadata.name}'")).stdout;
    interface CoreEvent {
      apiVersion: string;
      firstTimestamp: string;
      lastTimestamp: string;
      message: string;
      reportingComponent: string;
      reportingInstance: string;
      source: { host: string };
      involvedObject: Record<string, string>;
      metadata: { creationTimestamp: string; resourceVersion: string; uid: string };
    }
    const core = JSON.parse((await s.exec(`kubectl get event ${name} -o json`)).stdout) as CoreEvent;
    const r = await s.exec(`kubectl get events.events.k8s.io ${name} -o yaml`);
    assert.equal(r.stderr, '');
    const io = core.involvedObject;
    assert.equal(
      r.stdout,
      [
        'apiVersion: events.k8s.io/v1',
        'deprecatedCount: 1',
        `deprecatedFirstTimestamp: "${core.firstTimestamp}"`,
        `deprecatedLastTimestamp: "${core.lastTimestamp}"`,
        'deprecatedSource:',
        '  component: kubelet',
        `  host: ${core.source.host}`,
        'eventTime: null',
        'kind: Event',
        'metadata:',
        `  creationTimestamp: "${core.metadata.creationTimestamp}"`,
        `  name: ${name}`,
        '  namespace: default',
        `  resourceVersion: "${core.metadata.resourceVersion}"`,
        `  uid: ${core.metadata.uid}`,
        `note: ${core.message}`,
        'reason: Pulling',
        'regarding:',
        ...Object.keys(io).sort().map((k) => `  ${k}: ${io[k]}`),
        'reportingController: kubelet',
        `reportingInstance: ${core.reportingInstance}`,
        'type: Normal',
        '',
      ].join('\n'),
    );
    // the core group keeps its own names for the same object
    assert.equal(core.apiVersion, 'v1');
    assert.equal(core.reportingComponent, 'kubelet');
  });

  it('lists as events.k8s.io/v1 items named event.events.k8s.io/NAME, with the same table as core events', async () => {
    const s = new Session(loadFixture('flannel-single', 0));
    const v1 = (await s.exec("kubectl get events.events.k8s.io -o jsonpath='{range .items[*]}{.apiVersion} {.note}{\"\\n\"}{end}'")).stdout.trimEnd().split('\n');
    const core = (await s.exec("kubectl get events -o jsonpath='{range .items[*]}{.message}{\"\\n\"}{end}'")).stdout.trimEnd().split('\n');
    assert.deepEqual(v1, core.map((m) => `events.k8s.io/v1 ${m}`));
    const names = (await s.exec('kubectl get events.events.k8s.io -o name')).stdout.trimEnd().split('\n');
    assert.ok(names.length > 0 && names.every((n) => n.startsWith('event.events.k8s.io/')), names[0]);
    assert.equal((await s.exec('kubectl get events.events.k8s.io')).stdout, (await s.exec('kubectl get events')).stdout);
  });

  it('a watch streams the events.k8s.io/v1 form too (-o jsonpath, -o name, --output-watch-events -o json)', async () => {
    const s = new Session(loadFixture('flannel-single', 0));
    await s.exec('kubectl run w --image=nginx');
    const jp = await s.exec("kubectl get events.events.k8s.io --watch-only -o jsonpath='{.apiVersion} {.reason} {.regarding.name}{\"\\n\"}' --request-timeout=20s");
    assert.equal(jp.stderr, '');
    const lines = jp.stdout.trimEnd().split('\n');
    assert.ok(lines.length >= 3, jp.stdout);
    assert.ok(lines.every((l) => /^events\.k8s\.io\/v1 \w+ w$/.test(l)), jp.stdout);
    await s.exec('kubectl run w2 --image=nginx');
    const names = (await s.exec('kubectl get events.events.k8s.io --watch-only -o name --request-timeout=20s')).stdout.trimEnd().split('\n');
    assert.ok(names.length >= 3 && names.every((n) => n.startsWith('event.events.k8s.io/w2.')), names.join('\n'));
    await s.exec('kubectl run w3 --image=nginx');
    const j = (await s.exec('kubectl get events.events.k8s.io --watch-only -o json --output-watch-events --request-timeout=20s')).stdout;
    // one compact line per event (json.Marshal of the metav1.WatchEvent; testdata/watch-events/json-events.txt)
    const first = JSON.parse(j.slice(0, j.indexOf('\n'))) as { type: string; object: Record<string, unknown> };
    assert.equal(first.type, 'ADDED');
    assert.equal(first.object['apiVersion'], 'events.k8s.io/v1');
    assert.ok('note' in first.object && 'regarding' in first.object && !('involvedObject' in first.object));
    // the core group's watch keeps the core form
    await s.exec('kubectl run w4 --image=nginx');
    const core = (await s.exec("kubectl get events --watch-only -o jsonpath='{.apiVersion}{\"\\n\"}' --request-timeout=20s")).stdout.trimEnd().split('\n');
    assert.ok(core.length >= 3 && core.every((v) => v === 'v1'), core.join('\n'));
  });

  it('describe goes through the generic describer (kubectl 1.35 describe.go has none for Event) and shows the events.k8s.io/v1 fields', async () => {
    const s = new Session(loadFixture('flannel-single', 0));
    const name = (await s.exec("kubectl get events --field-selector reason=Pulling -o jsonpath='{.items[0].metadata.name}'")).stdout;
    const core = JSON.parse((await s.exec(`kubectl get event ${name} -o json`)).stdout) as { message: string; metadata: { creationTimestamp: string; resourceVersion: string; uid: string }; firstTimestamp: string; source: { host: string }; involvedObject: { name: string; uid: string } };
    const r = await s.exec(`kubectl describe events.events.k8s.io ${name}`);
    assert.equal(r.stderr, '');
    const host = core.source.host;
    assert.equal(
      r.stdout,
      [
        `Name:                        ${name}`,
        'Namespace:                   default',
        'Labels:                      <none>',
        'Annotations:                 <none>',
        'API Version:                 events.k8s.io/v1',
        'Deprecated Count:            1',
        `Deprecated First Timestamp:  ${core.firstTimestamp}`,
        `Deprecated Last Timestamp:   ${core.firstTimestamp}`,
        'Deprecated Source:',
        '  Component:  kubelet',
        `  Host:       ${host}`,
        'Event Time:   <nil>',
        'Kind:         Event',
        'Metadata:',
        `  Creation Timestamp:  ${core.metadata.creationTimestamp}`,
        `  Resource Version:    ${core.metadata.resourceVersion}`,
        `  UID:                 ${core.metadata.uid}`,
        `Note:                  ${core.message}`,
        'Reason:                Pulling',
        'Regarding:',
        '  API Version:         v1',
        '  Kind:                Pod',
        `  Name:                ${core.involvedObject.name}`,
        '  Namespace:           default',
        `  UID:                 ${core.involvedObject.uid}`,
        'Reporting Controller:  kubelet',
        `Reporting Instance:    ${host}`,
        'Type:                  Normal',
        'Events:                <none>',
        '',
      ].join('\n'),
    );
    // the core group's describe keeps the core names, and shows the null eventTime as the generic describer does
    const c = (await s.exec(`kubectl describe events ${name}`)).stdout;
    assert.match(c, /^API Version: +v1$/m);
    assert.match(c, /^Event Time: +<nil>$/m);
    assert.match(c, /^Involved Object:$/m);
  });
});
