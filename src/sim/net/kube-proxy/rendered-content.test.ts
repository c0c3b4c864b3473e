/**
 * A partial sync's changed ports are found by content (sync.ts updatedView, RENDERED_BY_CONTENT):
 * two copies of one state whose same Service is edited the same way (new stored objects in each,
 * as validate's copies make) render the edited port once, and both get what rendering gives.
 */
import { test } from 'node:test';
import assert from 'node:assert/strict';
import type { Service } from '../../api/types.js';
import { cloneState, newIptablesState } from '../iptables.js';
import { renderSave } from '../render.js';
import { ensureKubeletRules } from './kubelet-rules.js';
import { servicePortRenders, syncProxyRules, type KubeProxyConfig, type KubeProxyInput } from './sync.js';
import { deepFreeze } from '../../../testing/proxy-steps.js';

const CONFIG: KubeProxyConfig = { clusterCIDR: '10.244.0.0/16' };
const NODE = { name: 'content-n1', ips: ['192.168.122.41'] };

function service(port: number): Service {
  return {
    apiVersion: 'v1',
    kind: 'Service',
    metadata: { name: 'web', namespace: 'default', uid: 'u-web' },
    spec: { type: 'ClusterIP', clusterIP: '10.96.7.7', ports: [{ name: 'http', protocol: 'TCP', port, targetPort: 80 }] },
  } as unknown as Service;
}

test('rendered by content: the same edit in two copies renders the edited port once', () => {
  const st = newIptablesState();
  ensureKubeletRules(st);
  const before = deepFreeze(service(80));
  const first = syncProxyRules(st, { services: [before], endpointSlices: [], node: NODE, config: CONFIG });
  assert.equal(first.error, undefined);
  const copies = [cloneState(st), cloneState(st)];
  const saves = copies.map((copy) => {
    // each copy's edit: a new stored object of the same content
    const input: KubeProxyInput = { services: [deepFreeze(service(8080))], endpointSlices: [], node: NODE, config: CONFIG, ...(first.fingerprints ? { previous: first.fingerprints } : {}) };
    const renders = servicePortRenders();
    const r = syncProxyRules(copy, input);
    assert.equal(r.error, undefined);
    return { save: renderSave(copy.tables, { now: 0 }), renders: servicePortRenders() - renders, payload: r.payload };
  });
  assert.ok(copies.length === 2 && saves[0] && saves[1]);
  assert.equal(saves[1].renders, 0, 'the second copy renders the edited port again');
  assert.equal(saves[1].save, saves[0].save);
  assert.equal(saves[1].payload, saves[0].payload);
  assert.match(saves[0].save, /--dport 8080/);
  // and what a sync from scratch of the edited Service writes
  const scratch = newIptablesState();
  ensureKubeletRules(scratch);
  syncProxyRules(scratch, { services: [structuredClone(service(8080))], endpointSlices: [], node: NODE, config: CONFIG });
  assert.equal(saves[0].save, renderSave(scratch.tables, { now: 0 }));
});
