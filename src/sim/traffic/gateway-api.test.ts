/** Gateway API matching rules, table-driven (gateway-api apis/v1 httproute_types.go, shared_types.go). */
import { test } from 'node:test';
import assert from 'node:assert/strict';
import type { HTTPRoute, HTTPRouteMatch } from './gateway-api.js';
import { hostnameMatches, intersectHostnames, matchTakes, pickBackend, rewritePath, selectRule } from './gateway-api.js';

const req = (path: string, headers: Record<string, string> = {}, method = 'GET', host = 'a.example'): { host: string; path: string; method: string; headers: Record<string, string> } => ({ host, path, method, headers });

test('HTTPRouteMatch: path types, headers, query parameters and method', () => {
  const cases: [string, HTTPRouteMatch, ReturnType<typeof req>, boolean][] = [
    ['prefix by element', { path: { type: 'PathPrefix', value: '/pay' } }, req('/pay/x'), true],
    ['prefix equal', { path: { type: 'PathPrefix', value: '/pay' } }, req('/pay'), true],
    ['prefix not a substring', { path: { type: 'PathPrefix', value: '/pay' } }, req('/payment'), false],
    ['prefix trailing slash', { path: { type: 'PathPrefix', value: '/pay/' } }, req('/pay'), true],
    ['root prefix', { path: { type: 'PathPrefix', value: '/' } }, req('/anything'), true],
    ['default match is prefix /', {}, req('/x'), true],
    ['exact', { path: { type: 'Exact', value: '/pay' } }, req('/pay'), true],
    ['exact not below', { path: { type: 'Exact', value: '/pay' } }, req('/pay/'), false],
    ['regex', { path: { type: 'RegularExpression', value: '/v[0-9]+/.*' } }, req('/v2/users'), true],
    ['header exact, name case-insensitive', { headers: [{ name: 'X-Env', value: 'canary' }] }, req('/', { 'x-env': 'canary' }), true],
    ['header value is case-sensitive', { headers: [{ name: 'X-Env', value: 'canary' }] }, req('/', { 'x-env': 'Canary' }), false],
    ['header missing', { headers: [{ name: 'X-Env', value: 'canary' }] }, req('/'), false],
    ['query parameter', { queryParams: [{ name: 'v', value: '2' }] }, req('/?v=2&x=1'), true],
    ['query parameter differs', { queryParams: [{ name: 'v', value: '2' }] }, req('/?v=3'), false],
    ['method', { method: 'POST' }, req('/', {}, 'POST'), true],
    ['other method', { method: 'POST' }, req('/'), false],
  ];
  for (const [name, m, r, want] of cases) assert.equal(matchTakes(m, r), want, name);
});

test('hostnames: wildcard listener hostnames and the route/listener intersection', () => {
  assert.equal(hostnameMatches('*.example.com', 'a.example.com'), true);
  assert.equal(hostnameMatches('*.example.com', 'a.b.example.com'), true);
  assert.equal(hostnameMatches('*.example.com', 'example.com'), false);
  assert.equal(hostnameMatches(undefined, 'x'), true);
  assert.deepEqual(intersectHostnames(undefined, undefined), undefined);
  assert.deepEqual(intersectHostnames('*.example.com', ['a.example.com', 'b.other.org']), ['a.example.com']);
  assert.deepEqual(intersectHostnames('a.example.com', ['*.example.com']), ['a.example.com']);
  assert.deepEqual(intersectHostnames('a.example.com', ['b.example.com']), []);
  assert.deepEqual(intersectHostnames('a.example.com', undefined), ['a.example.com']);
});

function route(name: string, created: string, rules: NonNullable<HTTPRoute['spec']['rules']>, hostnames?: string[]): HTTPRoute {
  return { apiVersion: 'gateway.networking.k8s.io/v1', kind: 'HTTPRoute', metadata: { name, namespace: 'ns', creationTimestamp: created }, spec: { rules, ...(hostnames ? { hostnames } : {}) } };
}

test('rule precedence: exact, longest prefix, method, headers, then the oldest route', () => {
  const r1 = route('old', '2026-01-01T00:00:00Z', [{ matches: [{ path: { type: 'PathPrefix', value: '/' } }] }, { matches: [{ path: { type: 'PathPrefix', value: '/api' } }] }]);
  const r2 = route('new', '2026-02-01T00:00:00Z', [
    { matches: [{ path: { type: 'Exact', value: '/api/login' } }] },
    { matches: [{ path: { type: 'PathPrefix', value: '/api' }, headers: [{ name: 'x-canary', value: '1' }] }] },
    { matches: [{ path: { type: 'PathPrefix', value: '/' } }] },
  ]);
  const routes = [{ route: r2, hostnames: undefined }, { route: r1, hostnames: undefined }];
  const pickOf = (path: string, headers: Record<string, string> = {}): string => {
    const c = selectRule(routes, req(path, headers));
    return c ? `${c.route.metadata.name}/${c.ruleIndex}` : 'none';
  };
  const cases: [string, Record<string, string>, string][] = [
    ['/api/login', {}, 'new/0'],
    ['/api/x', { 'x-canary': '1' }, 'new/1'],
    ['/api/x', {}, 'old/1'],
    ['/other', {}, 'old/0'],
  ];
  for (const [p, h, want] of cases) assert.equal(pickOf(p, h), want, `${p} ${JSON.stringify(h)}`);
  const byHost = [
    { route: route('wild', '2026-01-01T00:00:00Z', [{}], ['*.example']), hostnames: ['*.example'] },
    { route: route('exact', '2026-02-01T00:00:00Z', [{}], ['a.example']), hostnames: ['a.example'] },
  ];
  assert.equal(selectRule(byHost, req('/', {}, 'GET', 'a.example'))?.route.metadata.name, 'exact');
  assert.equal(selectRule(byHost, req('/', {}, 'GET', 'b.example'))?.route.metadata.name, 'wild');
  assert.equal(selectRule(byHost, req('/', {}, 'GET', 'c.other')), undefined);
});

test('weights split requests in proportion; URLRewrite replaces the matched prefix', () => {
  const refs = [{ name: 'v1', weight: 80 }, { name: 'v2', weight: 20 }];
  const counts: Record<string, number> = {};
  for (let n = 0; n < 100; n++) {
    const r = pickBackend(refs, n)!;
    counts[r.name] = (counts[r.name] ?? 0) + 1;
  }
  assert.deepEqual(counts, { v1: 80, v2: 20 });
  assert.equal(pickBackend([{ name: 'a', weight: 0 }], 0), undefined);
  assert.equal(pickBackend([{ name: 'a' }, { name: 'b' }], 1)?.name, 'b');
  const m = { path: { type: 'PathPrefix' as const, value: '/shop' } };
  assert.equal(rewritePath({ type: 'ReplacePrefixMatch', replacePrefixMatch: '/' }, m, '/shop/cart'), '/cart');
  assert.equal(rewritePath({ type: 'ReplacePrefixMatch', replacePrefixMatch: '/' }, m, '/shop'), '/');
  assert.equal(rewritePath({ type: 'ReplacePrefixMatch', replacePrefixMatch: '/v2' }, m, '/shop/cart'), '/v2/cart');
  assert.equal(rewritePath({ type: 'ReplaceFullPath', replaceFullPath: '/index.html' }, m, '/shop/cart'), '/index.html');
});
