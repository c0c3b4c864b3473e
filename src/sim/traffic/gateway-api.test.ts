/** Gateway API matching rules, table-driven (gateway-api apis/v1 httproute_types.go, shared_types.go). */
import { test } from 'node:test';
import assert from 'node:assert/strict';
import type { HTTPRoute, HTTPRouteMatch } from './gateway-api.js';
import { hostnameMatches, intersectHostnames, matchTakes, murmurHash2, pickBackend, requestIdFrom, rewritePath, selectRule, splitPercents } from './gateway-api.js';

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

test('splitPercents: NGF split_clients lines, floored to hundredths, the last ref takes the rest', () => {
  // nginx-gateway-fabric v1.6.2 internal/mode/static/nginx/config/split_clients_test.go
  const cases: { name: string; weights: number[]; want: number[] }[] = [
    { name: 'two equal', weights: [1, 1], want: [5000, 5000] },
    { name: 'three equal: the last gets the remainder', weights: [3, 3, 3], want: [3333, 3333, 3334] },
    { name: '20/30/50', weights: [20, 30, 50], want: [2000, 3000, 5000] },
    { name: '80/20', weights: [80, 20], want: [8000, 2000] },
    { name: 'weight 0 is a commented-out 0.00% line', weights: [1, 0], want: [10000, 0] },
    { name: '2 of 3 floors (66.66)', weights: [2, 1], want: [6666, 3334] },
    { name: '4 of 15 floors (26.66)', weights: [4, 11], want: [2666, 7334] },
    { name: 'all zero', weights: [0, 0], want: [0, 0] },
  ];
  for (const c of cases) assert.deepEqual(splitPercents(c.weights), c.want, c.name);
});

test('murmurHash2: nginx ngx_murmur_hash2 (values from the C function)', () => {
  const cases: { key: string; want: number }[] = [
    { key: '', want: 0 },
    { key: 'a', want: 2456313694 },
    { key: 'ab', want: 446775395 },
    { key: 'abc', want: 324500635 },
    { key: 'abcd', want: 646393889 },
    { key: 'hello', want: 3848350155 },
    { key: '0123456789abcdef0123456789abcdef', want: 1932669937 },
    { key: 'f3a9c2d17b4e8a0c55d6e1f2a3b4c5d6', want: 929289901 },
  ];
  for (const c of cases) assert.equal(murmurHash2(c.key), c.want, JSON.stringify(c.key));
  // the bytes are Buffer.from(key, 'latin1')'s: the low byte of each UTF-16 unit, beyond ASCII too
  const overBuffer = (text: string): number => {
    const data = Buffer.from(text, 'latin1');
    const m = 0x5bd1e995;
    let [len, i] = [data.length, 0];
    let h = len >>> 0;
    for (; len >= 4; i += 4, len -= 4) {
      let k = (data[i]! | (data[i + 1]! << 8) | (data[i + 2]! << 16) | (data[i + 3]! << 24)) >>> 0;
      k = Math.imul(k, m) >>> 0;
      k = (k ^ (k >>> 24)) >>> 0;
      h = (Math.imul(h, m) ^ Math.imul(k, m)) >>> 0;
    }
    if (len === 3) h = (h ^ (data[i + 2]! << 16)) >>> 0;
    if (len >= 2) h = (h ^ (data[i + 1]! << 8)) >>> 0;
    if (len >= 1) h = Math.imul(h ^ data[i]!, m) >>> 0;
    h = Math.imul(h ^ (h >>> 13), m) >>> 0;
    return (h ^ (h >>> 15)) >>> 0;
  };
  for (const key of ['', 'abcd', 'é', 'ÿabc', 'a\u0100bcd', '\ud83d\ude00xyz', '\u20ac12345', '0123456789abcdef0123456789abcdef'])
    assert.equal(murmurHash2(key), overBuffer(key), JSON.stringify(key));
});

test('pickBackend: split_clients on $request_id gives each ref its share; one ref is used alone', () => {
  const refs = [{ name: 'v1', weight: 80 }, { name: 'v2', weight: 20 }];
  let s = 1;
  // a fixed stream of request ids (an LCG stands in for the simulation's random source)
  const next = (): number => (s = (Math.imul(s, 1664525) + 1013904223) >>> 0);
  const counts: Record<string, number> = { v1: 0, v2: 0 };
  for (let n = 0; n < 10000; n++) counts[pickBackend(refs, requestIdFrom(next))!.name]! += 1;
  assert.ok(Math.abs(counts['v1']! - 8000) < 200, JSON.stringify(counts));
  const cases: { name: string; refs: { name: string; weight?: number }[]; id: string; want: string | undefined }[] = [
    { name: 'one ref, no split', refs: [{ name: 'a' }], id: '', want: 'a' },
    { name: 'one ref of weight 0 is invalid', refs: [{ name: 'a', weight: 0 }], id: '', want: undefined },
    { name: 'no refs', refs: [], id: '', want: undefined },
    { name: 'all weights 0', refs: [{ name: 'a', weight: 0 }, { name: 'b', weight: 0 }], id: 'hello', want: undefined },
    // murmur("hello") = 3848350155 lies in the upper half: the second of two equal refs
    { name: 'hash past the first half', refs: [{ name: 'a' }, { name: 'b' }], id: 'hello', want: 'b' },
    // murmur("abc") = 324500635 lies in the first 10%
    { name: 'hash in the first 10%', refs: [{ name: 'a', weight: 10 }, { name: 'b', weight: 90 }], id: 'abc', want: 'a' },
    { name: 'weight 0 never wins', refs: [{ name: 'a', weight: 0 }, { name: 'b', weight: 1 }], id: 'abc', want: 'b' },
  ];
  for (const c of cases) assert.equal(pickBackend(c.refs, c.id)?.name, c.want, c.name);
  assert.match(requestIdFrom(next), /^[0-9a-f]{32}$/);
});

test('URLRewrite replaces the matched prefix', () => {
  const m = { path: { type: 'PathPrefix' as const, value: '/shop' } };
  assert.equal(rewritePath({ type: 'ReplacePrefixMatch', replacePrefixMatch: '/' }, m, '/shop/cart'), '/cart');
  assert.equal(rewritePath({ type: 'ReplacePrefixMatch', replacePrefixMatch: '/' }, m, '/shop'), '/');
  assert.equal(rewritePath({ type: 'ReplacePrefixMatch', replacePrefixMatch: '/v2' }, m, '/shop/cart'), '/v2/cart');
  assert.equal(rewritePath({ type: 'ReplaceFullPath', replaceFullPath: '/index.html' }, m, '/shop/cart'), '/index.html');
});
