/**
 * Core v1 Events as kube-apiserver encodes them: k8s.io/api core/v1 types.go Event (v1.35) has
 * struct-typed fields that encoding/json never omits, `omitempty` or not (source: EventSource,
 * firstTimestamp/lastTimestamp: metav1.Time, eventTime: metav1.MicroTime; a zero time marshals
 * as null), and reportingComponent/reportingInstance carry no omitempty. So `kubectl get event
 * -o yaml` shows `eventTime: null` on every Event the kubelet or a controller records, and a
 * hand-made Event comes back with all of them. They are the type's zero value, so a create that
 * does not set them does not own them (managedFields unchanged).
 */
import { describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { loadFixture } from '../../../testing/fixtures.js';
import { Session } from '../../session.js';

describe('core v1 Event fields encoding/json never omits', () => {
  it('a recorded Event shows eventTime: null in -o yaml and -o json', async () => {
    const s = new Session(loadFixture('flannel-single', 0));
    const name = (await s.exec("kubectl get events --field-selector reason=Pulling -o jsonpath='{.items[0].metadata.name}'")).stdout;
    const y = (await s.exec(`kubectl get event ${name} -o yaml`)).stdout.split('\n');
    // sorted keys: between apiVersion and firstTimestamp (count comes first)
    const i = y.indexOf('eventTime: null');
    assert.ok(i > 0, y.join('\n'));
    assert.equal(y[i - 1], 'count: 1');
    assert.match(y[i + 1]!, /^firstTimestamp: "/);
    const j = JSON.parse((await s.exec(`kubectl get event ${name} -o json`)).stdout) as Record<string, unknown>;
    assert.ok('eventTime' in j && j['eventTime'] === null);
    const raw = (await s.exec(`kubectl get --raw /api/v1/namespaces/default/events/${name}`)).stdout;
    // struct order: type, eventTime, then reportingComponent (series, action, related are nil and omitted)
    assert.match(raw, /"type":"Normal","eventTime":null,"reportingComponent":"kubelet"/);
  });

  it('a hand-made Event comes back with every never-omitted field, and its creator owns none of them', async () => {
    const s = new Session(loadFixture('flannel-single', 0));
    const manifest = 'apiVersion: v1\nkind: Event\nmetadata:\n  name: hand\ninvolvedObject:\n  kind: Pod\n  name: x\nreason: Test\nmessage: hello';
    assert.equal((await s.exec(`cat > /root/ev.yaml <<'EOF'\n${manifest}\nEOF`)).exitCode, 0);
    assert.equal((await s.exec('kubectl create -f /root/ev.yaml')).stdout, 'event/hand created\n');
    const r = await s.exec("kubectl get event hand -o yaml --show-managed-fields");
    const y = r.stdout;
    const uid = /uid: (\S+)/.exec(y)![1]!;
    const rv = /resourceVersion: "(\d+)"/.exec(y)![1]!;
    const created = /creationTimestamp: "([^"]+)"/.exec(y)![1]!;
    assert.equal(
      y,
      [
        'apiVersion: v1',
        'eventTime: null',
        'firstTimestamp: null',
        'involvedObject:',
        '  kind: Pod',
        '  name: x',
        'kind: Event',
        'lastTimestamp: null',
        'message: hello',
        'metadata:',
        `  creationTimestamp: "${created}"`,
        '  managedFields:',
        '  - apiVersion: v1',
        '    fieldsType: FieldsV1',
        '    fieldsV1:',
        '      f:involvedObject:',
        '        f:kind: {}',
        '        f:name: {}',
        '      f:message: {}',
        '      f:reason: {}',
        '    manager: kubectl-create',
        '    operation: Update',
        `    time: "${created}"`,
        '  name: hand',
        '  namespace: default',
        `  resourceVersion: "${rv}"`,
        `  uid: ${uid}`,
        'reason: Test',
        'reportingComponent: ""',
        'reportingInstance: ""',
        'source: {}',
        '',
      ].join('\n'),
    );
  });
});
