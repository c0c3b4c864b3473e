import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { tokenize } from './lexer.js';
import { parseCorefile } from './parser.js';
import { DEFAULT_COREFILE_SEED000 } from './kubeadm.js';
import { DIRECTIVE_SET } from '../directives.js';

describe('lexer', () => {
  const cases: { name: string; input: string; want: string[] }[] = [
    { name: 'comment glued to a word', input: 'errors#x\nlog', want: ['1:errors', '2:log'] },
    { name: 'quoted token with spaces and newline', input: 'a "b c\nd" e', want: ['1:a', '1:b c\nd', '2:e'] },
    { name: 'only \\" is an escape in quotes', input: '"a\\"b\\n"', want: ['1:a"b\\n'] },
    { name: 'brace glued to a word is one token', input: 'example.com{\n}', want: ['1:example.com{', '2:}'] },
    { name: 'CRLF and BOM', input: '\uFEFF.:53 {\r\n}\r\n', want: ['1:.:53', '1:{', '2:}'] },
    { name: 'empty quoted token', input: 'a ""', want: ['1:a', '1:'] },
  ];
  for (const tc of cases) {
    it(tc.name, () => {
      assert.deepEqual(tokenize(tc.input, 'f').map((t) => `${t.line}:${t.text}`), tc.want);
    });
  }
});

describe('parser', () => {
  it('parses seed 000 Corefile into one block with every directive', () => {
    const r = parseCorefile(DEFAULT_COREFILE_SEED000, '/etc/coredns/Corefile', { validDirectives: DIRECTIVE_SET });
    assert.ok(r.ok);
    assert.equal(r.blocks.length, 1);
    assert.deepEqual(r.blocks[0]?.keys, ['.:53']);
    assert.deepEqual([...(r.blocks[0]?.tokens.keys() ?? [])], ['errors', 'health', 'ready', 'kubernetes', 'prometheus', 'forward', 'cache', 'loop', 'reload', 'loadbalance']);
    assert.deepEqual(r.blocks[0]?.tokens.get('cache')?.map((t) => t.text), ['cache', '30', '{', 'disable', 'success', 'cluster.local', 'disable', 'denial', 'cluster.local', '}']);
  });
  it('imports snippets and substitutes environment variables', () => {
    const r = parseCorefile('(common) {\n  errors\n  cache {$TTL}\n}\n.:53 {\n  import common\n  forward . {$UP}\n}\n', 'C', { env: { TTL: '10', UP: '1.1.1.1' } });
    assert.ok(r.ok);
    assert.deepEqual(r.blocks.map((b) => b.keys), [['.:53']]);
    assert.deepEqual(r.blocks[0]?.tokens.get('cache')?.map((t) => t.text), ['cache', '10']);
    assert.deepEqual(r.blocks[0]?.tokens.get('forward')?.map((t) => t.text), ['forward', '.', '1.1.1.1']);
  });
  it('keys with commas and several zones', () => {
    const r = parseCorefile('a.local, b.local:1053 c.local {\n  whoami\n}\n', 'C');
    assert.ok(r.ok);
    assert.deepEqual(r.blocks[0]?.keys, ['a.local', 'b.local:1053', 'c.local']);
  });
  it('a block without braces takes the rest of the file', () => {
    const r = parseCorefile('.\nwhoami\nlog\n', 'C');
    assert.ok(r.ok);
    assert.deepEqual([...(r.blocks[0]?.tokens.keys() ?? [])], ['whoami', 'log']);
  });
  const errors: { name: string; input: string; want: string }[] = [
    { name: 'extra comma', input: 'a, {\n}\n', want: "C:1 - Error during parsing: Expected another address but had '{' - check for extra comma" },
    { name: 'missing import', input: '.:53 {\n  import nothere\n}\n', want: 'C:2 - Error during parsing: File to import not found: nothere' },
    { name: 'snippet redeclared', input: '(a) {\n}\n(a) {\n}\n', want: 'C:3 - Error during parsing: redeclaration of previously declared snippet a' },
    { name: 'unclosed nested block', input: '.:53 {\n  hosts {\n', want: 'C:2 - Error during parsing: Unexpected EOF' },
  ];
  for (const tc of errors) {
    it(`error: ${tc.name}`, () => {
      const r = parseCorefile(tc.input, 'C');
      assert.deepEqual(r, { ok: false, error: tc.want });
    });
  }
});
