/**
 * The linear-time engine against V8's: for every case the POSIX translation of
 * util/posix-regex.ts (the old path, which handed its output to `new RegExp`) must give the
 * same exec result, groups, global matches, replacement and split on the new engine; patterns that
 * hang V8 must answer at once; RE2 syntax, back-references and their budget, and refused syntax.
 */
import { describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { LinearRegExp, RegexBudgetError, RegexSyntaxError, withFlags } from './index.js';
import { posixToJs, type RegexFlavor } from '../posix-regex.js';

interface Case {
  name: string;
  flavor: RegexFlavor;
  pattern: string;
  flags?: string;
  inputs: string[];
}

const CASES: Case[] = [
  { name: 'BRE literal and dot', flavor: 'bre', pattern: 'a.c', inputs: ['abc', 'xxa-cyy', 'ac', 'a\nc'] },
  { name: 'BRE star and anchors', flavor: 'bre', pattern: '^ab*c$', inputs: ['ac', 'abbbc', 'abd', ' abc'] },
  { name: 'BRE leading star is literal', flavor: 'bre', pattern: '*a', inputs: ['*a', 'a', 'b*a'] },
  { name: 'BRE groups and back-reference', flavor: 'bre', pattern: '\\(ab*\\)x\\1', inputs: ['abbxabb', 'abxab', 'abbxab', 'axa'] },
  { name: 'BRE interval', flavor: 'bre', pattern: 'a\\{2,3\\}', inputs: ['a', 'aa', 'aaaa', 'baaab'] },
  { name: 'BRE GNU alternation and plus', flavor: 'bre', pattern: 'x\\+\\|y\\?z', inputs: ['xxx', 'z', 'yz', 'q'] },
  { name: 'BRE word boundaries', flavor: 'bre', pattern: '\\<cat\\>', inputs: ['cat', 'concat', 'cat food', 'a cat.', 'cats'] },
  { name: 'BRE bracket classes', flavor: 'bre', pattern: '[[:digit:]][[:alpha:]_-]*', inputs: ['9lives', 'x1-y_z', 'none'] },
  { name: 'BRE bracket with ] first and backslash', flavor: 'bre', pattern: '[]a\\]', inputs: [']', 'a', '\\', 'b'] },
  { name: 'BRE caret inside a pattern is literal', flavor: 'bre', pattern: 'a^b', inputs: ['a^b', 'ab'] },
  { name: 'BRE dollar inside a pattern is literal', flavor: 'bre', pattern: 'a$b', inputs: ['a$b', 'ab'] },
  { name: 'ERE alternation leftmost-first', flavor: 'ere', pattern: 'ab|abcd|b', inputs: ['abcd', 'xbcd', 'zzz'] },
  { name: 'ERE nested groups, last iteration captured', flavor: 'ere', pattern: '((a|b)c)+', inputs: ['acbcac', 'cc', 'bcx'] },
  { name: 'ERE optional group unset', flavor: 'ere', pattern: '(x)?y(z)?', inputs: ['y', 'xy', 'yz', 'xyz'] },
  { name: 'ERE intervals', flavor: 'ere', pattern: '[0-9]{1,3}(\\.[0-9]{1,3}){3}', inputs: ['ip 10.96.0.10 ok', '1.2.3', '999.999.999.9999'] },
  { name: 'ERE brace not an interval', flavor: 'ere', pattern: 'a{,x}', inputs: ['a{,x}', 'a'] },
  { name: 'ERE unmatched ) is literal', flavor: 'ere', pattern: 'a)', inputs: ['a)', 'a'] },
  { name: 'ERE case-insensitive', flavor: 'ere', pattern: 'Running|error', flags: 'i', inputs: ['RUNNING', 'Error: x', 'ok'] },
  { name: 'ERE empty-matching star, global', flavor: 'ere', pattern: 'x*', flags: 'g', inputs: ['axxbx', '', 'xxx'] },
  { name: 'ERE greedy vs lazy-looking question', flavor: 'ere', pattern: 'a+?', flags: 'g', inputs: ['aaa', 'baab'] },
  { name: 'ERE kubectl columns', flavor: 'ere', pattern: '^([a-z0-9-]+)[[:space:]]+([0-9]+/[0-9]+)[[:space:]]+(Running|Pending)', inputs: ['web-5d8f7-abc   1/1     Running   0   5m', 'NAME READY STATUS'] },
  { name: 'ERE \\s \\w GNU escapes', flavor: 'ere', pattern: '\\w+\\s*=\\s*\\w+', flags: 'g', inputs: ['a = b, c=d', '=='] },
  { name: 'ERE multiline flag', flavor: 'ere', pattern: '^b$', flags: 'gm', inputs: ['a\nb\nc', 'b'] },
  { name: 'ERE catastrophic in V8 (short input here)', flavor: 'ere', pattern: '(a+)+$', inputs: ['aaaab', 'aaaa', ''] },
  { name: 'awk escapes in brackets', flavor: 'awk', pattern: '[\\t ]+[\\]x]', inputs: ['a \t]', 'a x', 'ab'] },
  { name: 'awk slash escape', flavor: 'awk', pattern: '\\/api\\/v1', inputs: ['GET /api/v1/pods', '/api/v2'] },
];

/** Everything a caller can observe of a RegExp on one input. */
function observe(re: RegExp, s: string): unknown {
  const g = withFlags(re, re.flags.includes('g') ? re.flags : `${re.flags}g`);
  const one = withFlags(re, re.flags.replace('g', ''));
  const m = one.exec(s);
  return {
    exec: m ? { index: m.index, groups: [...m] } : null,
    test: one.test(s),
    all: [...s.matchAll(g)].map((x) => [x.index, ...x]),
    replace: s.replace(g, '<$&|$1>'),
    replaceFn: s.replace(one, (...a: unknown[]) => `[${String(a[0])}]`),
    split: s.split(one),
    search: s.search(one),
  };
}

describe('util/regex: the same answers as the old translation on V8', () => {
  for (const c of CASES) {
    it(c.name, () => {
      const src = posixToJs(c.pattern, c.flavor);
      const linear = new LinearRegExp(src, c.flags ?? '');
      const native = new RegExp(src, c.flags ?? '');
      for (const s of c.inputs) assert.deepEqual(observe(linear, s), observe(native, s), `${c.pattern} on ${JSON.stringify(s)}`);
    });
  }
});

describe('util/regex: linear time', () => {
  const TABLE: Array<{ name: string; pattern: string; input: string; match: boolean }> = [
    { name: 'nested plus', pattern: '(a+)+$', input: `${'a'.repeat(20_000)}b`, match: false },
    { name: 'nested star of alternation', pattern: '(a|aa)*c', input: 'a'.repeat(20_000), match: false },
    { name: 'adjacent overlapping stars', pattern: '.*a.*b.*c=', input: 'abc'.repeat(7_000), match: false },
    { name: 'grep -w shape', pattern: '(?<![A-Za-z0-9_])(?:(x+x+)+y)(?![A-Za-z0-9_])', input: 'x'.repeat(20_000), match: false },
  ];
  for (const c of TABLE) {
    it(c.name, () => {
      const t = performance.now();
      assert.equal(new LinearRegExp(c.pattern).test(c.input), c.match);
      assert.ok(performance.now() - t < 5_000, `${c.name}: ${Math.round(performance.now() - t)} ms`);
    });
  }
});

describe('util/regex: back-references and their budget', () => {
  it('matches like V8 where the search is small', () => {
    for (const [p, s] of [
      ['^(\\S+)=\\|\\1=$', 'x=|x='],
      ['(\\S+)={{pvc}}$[\\s\\S]*^\\1@/tmp', 'pv1={{pvc}}\nother\npv1@/tmp'],
      ['(a*)b\\1', 'aabaa aab'],
    ] as const) {
      const lin = new LinearRegExp(p, 'm');
      const nat = new RegExp(p, 'm');
      assert.deepEqual(lin.exec(s) && [...lin.exec(s)!], nat.exec(s) && [...nat.exec(s)!], p);
    }
  });
  it('gives up with RegexBudgetError instead of running for ever', () => {
    const re = new LinearRegExp('^(a*)*(a*)*\\1b$');
    assert.throws(() => re.test('a'.repeat(5_000)), RegexBudgetError);
  });
});

describe('util/regex: RE2 syntax (Go regexp) and refusals', () => {
  const TABLE: Array<{ name: string; pattern: string; input: string; groups: Array<string | undefined> | null; names?: Record<string, string> }> = [
    { name: 'named group P-style', pattern: '(?P<host>[a-z.]+):(?P<port>\\d+)', input: 'svc.cluster.local:53', groups: ['svc.cluster.local:53', 'svc.cluster.local', '53'], names: { host: 'svc.cluster.local', port: '53' } },
    { name: 'inline case-insensitive flag', pattern: '(?i)coredns', input: 'CoreDNS-1.11', groups: ['CoreDNS'] },
    { name: 'scoped flag group', pattern: 'a(?i:b)c', input: 'aBc aBC', groups: ['aBc'] },
    { name: 'text anchors', pattern: '\\Afoo\\z', input: 'foo', groups: ['foo'] },
    { name: 'POSIX class inside brackets', pattern: '[[:upper:]][[:digit:]]+', input: 'x A42', groups: ['A42'] },
    { name: 'non-greedy', pattern: '<.+?>', input: '<a><b>', groups: ['<a>'] },
    { name: 'dot does not match newline', pattern: 'a.b', input: 'a\nb', groups: null },
    { name: 's flag', pattern: '(?s)a.b', input: 'a\nb', groups: ['a\nb'] },
  ];
  for (const c of TABLE) {
    it(c.name, () => {
      const m = new LinearRegExp(c.pattern, '', 're2').exec(c.input);
      assert.deepEqual(m && [...m], c.groups);
      if (c.names) assert.deepEqual({ ...m!.groups }, c.names);
    });
  }
  for (const [name, pattern, dialect] of [
    ['RE2 has no back-references', '(a)\\1', 're2'],
    ['RE2 has no lookahead', 'a(?=b)', 're2'],
    ['longer lookarounds are refused', 'a(?=bc)', 'js'],
    ['repeat count over 1000', 'a{1001}', 're2'],
    ['unbalanced group', '(ab', 'js'],
    ['nothing to repeat', '*a', 'js'],
    ['program too big', '(((a{1000}){1000}){1000})', 'js'],
  ] as const) {
    it(`refuses: ${name}`, () => assert.throws(() => new LinearRegExp(pattern, '', dialect), RegexSyntaxError));
  }
});
