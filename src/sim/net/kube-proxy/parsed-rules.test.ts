import { test } from 'node:test';
import assert from 'node:assert/strict';
import type { EndpointSlice, Service, ServiceSpec } from '../../api/types.js';
import type { Family } from '../ipv6.js';
import { newIptablesState } from '../iptables.js';
import { ChainRef, ChainTemplate } from '../restore.js';
import { parseRuleArgs, tokenizeRuleLine } from '../rule-parse.js';
import { ensureKubeletRules } from './kubelet-rules.js';
import type { KubeProxyConfig } from './sync.js';
import { syncProxyRules } from './sync.js';

// Every rule kube-proxy hands iptables-restore already built (parsed-rules.ts) is the rule the
// parse of its line makes: the same parts in the same order (JSON text), frozen, with the chain
// it goes to and the user chain its jump needs. Line shapes: cluster IP, masquerade (with
// clusterCIDR and masqueradeAll), dispatch with and without comment and probability (large
// cluster mode), endpoint chains; TCP, UDP and SCTP; IPv4 and IPv6.

function svc(ns: string, name: string, spec: ServiceSpec): Service {
  return { apiVersion: 'v1', kind: 'Service', metadata: { name, namespace: ns }, spec };
}

function slice(ns: string, svcName: string, family: Family, protocol: 'TCP' | 'UDP' | 'SCTP', ips: string[], node = 'n1'): EndpointSlice {
  return {
    apiVersion: 'discovery.k8s.io/v1',
    kind: 'EndpointSlice',
    metadata: { name: `${svcName}-x`, namespace: ns, labels: { 'kubernetes.io/service-name': svcName } },
    addressType: family === 'ipv6' ? 'IPv6' : 'IPv4',
    endpoints: ips.map((ip) => ({ addresses: [ip], conditions: { ready: true }, nodeName: node })),
    ports: [{ name: 'p', port: 8080, protocol }],
  };
}

interface Case {
  name: string;
  family: Family;
  services: Service[];
  slices: EndpointSlice[];
  config: KubeProxyConfig;
}

function cases(): Case[] {
  const v4: Case = { name: 'ipv4', family: 'ipv4', services: [], slices: [], config: { clusterCIDR: '10.244.0.0/16', randomFully: true } };
  (['TCP', 'UDP', 'SCTP'] as const).forEach((protocol, i) => {
    v4.services.push(svc('ns1', `s${i}`, { clusterIP: `10.96.0.${10 + i}`, ports: [{ name: 'p', port: 80 + i, protocol, targetPort: 8080 }] }));
    v4.slices.push(slice('ns1', `s${i}`, 'ipv4', protocol, Array.from({ length: i + 1 }, (_, j) => `10.244.${i}.${j + 2}`)));
  });
  v4.services.push(svc('ns1', 'local', { clusterIP: '10.96.1.1', internalTrafficPolicy: 'Local', ports: [{ name: 'p', port: 80, protocol: 'TCP', targetPort: 8080 }] }));
  v4.slices.push(slice('ns1', 'local', 'ipv4', 'TCP', ['10.244.9.2', '10.244.9.3']));
  v4.services.push(svc('ns1', 'np', { type: 'NodePort', clusterIP: '10.96.1.2', externalTrafficPolicy: 'Local', ports: [{ name: 'p', port: 80, protocol: 'TCP', targetPort: 8080, nodePort: 30080 }] }));
  v4.slices.push(slice('ns1', 'np', 'ipv4', 'TCP', ['10.244.9.4', '10.244.9.5'], 'other'));
  v4.services.push(svc('ns1', 'sticky', { clusterIP: '10.96.1.3', sessionAffinity: 'ClientIP', ports: [{ name: 'p', port: 80, protocol: 'TCP', targetPort: 8080 }] }));
  v4.slices.push(slice('ns1', 'sticky', 'ipv4', 'TCP', ['10.244.9.6', '10.244.9.7']));
  const all: Case = { ...v4, name: 'masqueradeAll', config: { ...v4.config, masqueradeAll: true } };
  const noCIDR: Case = { ...v4, name: 'no clusterCIDR', config: { randomFully: true } };
  // above 1000 endpoints: no comments on the endpoint rules
  const large: Case = { ...v4, name: 'large cluster', services: [...v4.services], slices: [...v4.slices] };
  large.services.push(svc('big', 'b', { clusterIP: '10.96.2.1', ports: [{ name: 'p', port: 80, protocol: 'TCP', targetPort: 8080 }] }));
  large.slices.push(slice('big', 'b', 'ipv4', 'TCP', Array.from({ length: 1001 }, (_, j) => `10.245.${j >> 8}.${j & 255}`)));
  const v6: Case = { name: 'ipv6', family: 'ipv6', services: [], slices: [], config: { clusterCIDR: '10.244.0.0/16,fd00:10:244::/64', randomFully: true } };
  (['TCP', 'UDP'] as const).forEach((protocol, i) => {
    v6.services.push(svc('ns6', `s${i}`, { clusterIP: `fd00:10:96::${10 + i}`, ipFamilies: ['IPv6'], ports: [{ name: 'p', port: 80, protocol, targetPort: 8080 }] }));
    v6.slices.push(slice('ns6', `s${i}`, 'ipv6', protocol, [`fd00:10:244::${i}:2`, `fd00:10:244::${i}:3`]));
  });
  return [v4, all, noCIDR, large, v6];
}

for (const c of cases()) {
  test(`kube-proxy's built rules are what iptables-restore parses from their lines (${c.name})`, () => {
    const st = newIptablesState(undefined, c.family);
    ensureKubeletRules(st);
    const r = syncProxyRules(st, { services: c.services, endpointSlices: c.slices, node: { name: 'n1', ips: [c.family === 'ipv6' ? 'fd00::21' : '192.168.122.21'] }, config: c.config });
    assert.equal(r.error, undefined, r.error);
    const lines = r.payload.split('\n');
    const known = r.known ?? [];
    assert.equal(known.length, lines.length);
    let rules = 0;
    let decls = 0;
    let templates = 0;
    known.forEach((k, i) => {
      const line = lines[i] as string;
      if (k === undefined) return;
      if (k instanceof ChainRef) {
        assert.equal(line, `:${k.name} - [0:0]`);
        decls++;
        return;
      }
      if (k instanceof ChainTemplate) {
        // a template's lines are the payload's lines appended to its chain, in order, each the known one
        assert.equal(line, `:${k.ref.name} - [0:0]`);
        const appended = lines.flatMap((l, j) => (l.startsWith(`-A ${k.ref.name} `) ? [known[j]] : []));
        assert.equal(appended.length, k.lines.length, line);
        appended.forEach((a, j) => assert.equal(a, k.lines[j], line));
        assert.ok(Object.isFrozen(k.chain) && Object.isFrozen(k.chain.rules), line);
        k.chain.rules.forEach((r, j) => assert.equal(r, k.lines[j]?.rule, line));
        decls++;
        templates++;
        return;
      }
      assert.notEqual(typeof k, 'string', line);
      if (typeof k === 'string') return;
      // the refs are those of the chain it goes to and of the one its jump needs
      assert.equal(k.chainRef?.name, k.chain, line);
      assert.equal(k.needsRef?.name, k.needs, line);
      const args = tokenizeRuleLine(line);
      assert.deepEqual(args.slice(0, 2), ['-A', k.chain], line);
      const parsed = parseRuleArgs(args.slice(2), { chainExists: () => true, family: c.family });
      assert.ok(parsed.ok, line);
      assert.equal(JSON.stringify(k.rule), JSON.stringify(parsed.rule), line);
      const t = parsed.rule.target;
      assert.equal(k.needs, t?.kind === 'chain' ? t.name : undefined, line);
      assert.ok(Object.isFrozen(k.rule) && Object.isFrozen(k.rule.matches) && Object.isFrozen(k.rule.counters), line);
      for (const m of k.rule.matches) assert.ok(Object.isFrozen(m) && Object.isFrozen(m.options) && m.options.every((o) => Object.isFrozen(o) && Object.isFrozen(o.values)), line);
      if (k.rule.target) assert.ok(Object.isFrozen(k.rule.target) && Object.isFrozen(k.rule.target.options), line);
      rules++;
    });
    // the frequent shapes are built: every endpoint chain's and dispatch rule but session affinity's
    const sepRules = lines.filter((l) => l.startsWith('-A KUBE-SEP-')).length;
    assert.ok(rules >= sepRules, `${rules} built rules, ${sepRules} endpoint chain rules`);
    assert.ok(decls > 0);
    // every chain made of built rules only is declared through its template (nodes share it)
    assert.ok(templates > 0, `${templates} templates`);
  });
}
