/**
 * describeNetworkPolicy against the layout of kubectl's describe.go (goldens written from
 * describeNetworkPolicySpec / printNetworkPolicySpecIngressFrom / printNetworkPolicySpecEgressTo).
 */
import { test } from 'node:test';
import assert from 'node:assert/strict';
import type { NetworkPolicy } from '../../../sim/api/types.js';
import { describeNetworkPolicy } from './networkpolicy.js';

function np(name: string, spec: NetworkPolicy['spec'], labels?: Record<string, string>): NetworkPolicy {
  return {
    apiVersion: 'networking.k8s.io/v1',
    kind: 'NetworkPolicy',
    metadata: { name, namespace: 'prod', creationTimestamp: '2026-11-27T06:00:00Z', ...(labels ? { labels } : {}) },
    spec,
  };
}

const HEADER = (name: string): string =>
  `Name:         ${name}\nNamespace:    prod\nCreated on:   2026-11-27 06:00:00 +0000 UTC\nLabels:       <none>\nAnnotations:  <none>\nSpec:\n`;

test('deny all ingress: empty pod selector, no rules', () => {
  assert.equal(
    describeNetworkPolicy(np('deny-all', { podSelector: {}, policyTypes: ['Ingress'] })),
    HEADER('deny-all') +
      '  PodSelector:     <none> (Allowing the specific traffic to all pods in this namespace)\n' +
      '  Allowing ingress traffic:\n' +
      '    <none> (Selected pods are isolated for ingress connectivity)\n' +
      '  Not affecting egress traffic\n' +
      '  Policy Types: Ingress\n',
  );
});

test('deny all, both directions', () => {
  assert.equal(
    describeNetworkPolicy(np('deny-both', { podSelector: {}, policyTypes: ['Ingress', 'Egress'] })),
    HEADER('deny-both') +
      '  PodSelector:     <none> (Allowing the specific traffic to all pods in this namespace)\n' +
      '  Allowing ingress traffic:\n' +
      '    <none> (Selected pods are isolated for ingress connectivity)\n' +
      '  Allowing egress traffic:\n' +
      '    <none> (Selected pods are isolated for egress connectivity)\n' +
      '  Policy Types: Ingress, Egress\n',
  );
});

test('ingress from ipBlock with except, a namespace+pod selector peer, ports and a second rule', () => {
  const policy = np(
    'db-access',
    {
      podSelector: { matchLabels: { app: 'db', tier: 'data' } },
      policyTypes: ['Ingress'],
      ingress: [
        {
          from: [
            { ipBlock: { cidr: '172.17.0.0/16', except: ['172.17.1.0/24', '172.17.2.0/24'] } },
            { namespaceSelector: { matchLabels: { project: 'myproject' } }, podSelector: { matchLabels: { role: 'frontend' } } },
            { podSelector: {} },
          ],
          ports: [{ protocol: 'TCP', port: 6379 }, { port: 'metrics' }, { protocol: 'UDP', port: 32000, endPort: 32768 }],
        },
        { from: [{ namespaceSelector: { matchExpressions: [{ key: 'env', operator: 'In', values: ['prod', 'staging'] }] } }] },
      ],
    },
    { team: 'a' },
  );
  assert.equal(
    describeNetworkPolicy(policy),
    HEADER('db-access').replace('Labels:       <none>', 'Labels:       team=a') +
      '  PodSelector:     app=db,tier=data\n' +
      '  Allowing ingress traffic:\n' +
      '    To Port: 6379/TCP\n' +
      '    To Port: metrics/TCP\n' +
      '    To Port Range: 32000-32768/UDP\n' +
      '    From:\n' +
      '      IPBlock:\n' +
      '        CIDR: 172.17.0.0/16\n' +
      '        Except: 172.17.1.0/24, 172.17.2.0/24\n' +
      '    From:\n' +
      '      NamespaceSelector: project=myproject\n' +
      '      PodSelector: role=frontend\n' +
      '    From:\n' +
      '      PodSelector: <none>\n' +
      '    ----------\n' +
      '    To Port: <any> (traffic allowed to all ports)\n' +
      '    From:\n' +
      '      NamespaceSelector: env in (prod,staging)\n' +
      '  Not affecting egress traffic\n' +
      '  Policy Types: Ingress\n',
  );
});

test('egress only: rules with and without destinations', () => {
  const policy = np('egress-dns', {
    podSelector: { matchLabels: { name: 'internal' } },
    policyTypes: ['Egress'],
    egress: [
      { to: [{ podSelector: { matchLabels: { name: 'mysql' } } }], ports: [{ protocol: 'TCP', port: 3306 }] },
      { ports: [{ protocol: 'UDP', port: 53 }, { protocol: 'TCP', port: 53 }] },
      { to: [{ ipBlock: { cidr: '10.0.0.0/8' } }] },
    ],
  });
  assert.equal(
    describeNetworkPolicy(policy),
    HEADER('egress-dns') +
      '  PodSelector:     name=internal\n' +
      '  Not affecting ingress traffic\n' +
      '  Allowing egress traffic:\n' +
      '    To Port: 3306/TCP\n' +
      '    To:\n' +
      '      PodSelector: name=mysql\n' +
      '    ----------\n' +
      '    To Port: 53/UDP\n' +
      '    To Port: 53/TCP\n' +
      '    To: <any> (traffic not restricted by destination)\n' +
      '    ----------\n' +
      '    To Port: <any> (traffic allowed to all ports)\n' +
      '    To:\n' +
      '      IPBlock:\n' +
      '        CIDR: 10.0.0.0/8\n' +
      '        Except: \n' +
      '  Policy Types: Egress\n',
  );
});

test('allow all ingress: one empty rule', () => {
  assert.equal(
    describeNetworkPolicy(np('allow-all', { podSelector: {}, policyTypes: ['Ingress'], ingress: [{}] })),
    HEADER('allow-all') +
      '  PodSelector:     <none> (Allowing the specific traffic to all pods in this namespace)\n' +
      '  Allowing ingress traffic:\n' +
      '    To Port: <any> (traffic allowed to all ports)\n' +
      '    From: <any> (traffic not restricted by source)\n' +
      '  Not affecting egress traffic\n' +
      '  Policy Types: Ingress\n',
  );
});
