/**
 * iptables-restore hands the committed rule objects back to a chain it flushes and writes again
 * with the same lines (restore.ts TEMPLATES): only while that is the same as making them anew.
 */
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { findChain, newIptablesState, type IptablesState, type Rule } from './iptables.js';
import { applyRestore } from './restore.js';
import { runIptables } from './iptables-cmd.js';
import { renderSave } from './render.js';
import { cleanupIptablesLeftovers } from './kube-proxy/sync.js';

/** A chain long enough to be noted (restore.ts PROVENANCE_MIN_RULES): three rules of note, then more. */
const LINES = [
  '-A RT-X -s 10.0.0.1/32 -j RT-Y',
  '-A RT-X -s 10.0.0.2/32 -j ACCEPT',
  '-A RT-X -s 10.0.0.3/32 -j RT-Y',
  ...Array.from({ length: 37 }, (_, i) => `-A RT-X -s 10.0.1.${i}/32 -j RETURN`),
];

function payload(body: readonly string[], chains = [':RT-X - [0:0]', ':RT-Y - [0:0]']): string {
  return ['*filter', ...chains, ...body, 'COMMIT', ''].join('\n');
}

function rules(st: IptablesState, chain: string): Rule[] {
  return findChain(st.tables.filter!, chain)?.rules ?? [];
}

function restored(body: readonly string[]): IptablesState {
  const st = newIptablesState();
  assert.equal(applyRestore(st, payload(body), { noflush: true }).exitCode, 0);
  return st;
}

test('restore: the same lines again give the same rules back, as new ones would be', () => {
  const st = restored(LINES);
  const before = rules(st, 'RT-X');
  assert.equal(applyRestore(st, payload(LINES), { noflush: true }).exitCode, 0);
  const after = rules(st, 'RT-X');
  assert.deepEqual(after, before);
  assert.ok(after.every((r, i) => r === before[i]), 'reused');
  assert.equal(renderSave(st.tables, { now: 0 }), renderSave(restored(LINES).tables, { now: 0 }));
});

test('restore: a rule that counted packets, or was renamed into, is made anew', () => {
  const st = restored(LINES);
  const before = rules(st, 'RT-X').slice();
  // the packet path's first count makes the chain hold a copy (packet.ts countable)
  const counted: Rule = { ...(before[1] as Rule), counters: { packets: 3, bytes: 180 } };
  rules(st, 'RT-X')[1] = counted;
  // -E: the rules jumping to RT-Y now jump to RT-Z
  assert.equal(runIptables(st, ['-E', 'RT-Y', 'RT-Z']).exitCode, 0);
  assert.equal(applyRestore(st, payload(LINES), { noflush: true }).exitCode, 0);
  const after = rules(st, 'RT-X');
  assert.equal(renderSave(st.tables, { now: 0, counters: true }).includes('[3:180]'), false, 'fresh counters');
  assert.ok(after.every((r) => r.target?.name !== 'RT-Z'), 'targets as written');
  assert.notEqual(after[1], counted);
  assert.deepEqual(after[1]?.counters, { packets: 0, bytes: 0 });
  assert.deepEqual(
    after.slice(0, 3).map((r) => r.target?.name),
    ['RT-Y', 'ACCEPT', 'RT-Y'],
  );
});

test('restore: inserts and deletions in the rewritten chain never put one changeable rule object in twice', () => {
  const [l0, l1, l2] = LINES as [string, string, string];
  for (const body of [
    [l0, l1, '-D RT-X 1', l1, l2],
    [l0, '-I RT-X 1 -s 10.0.0.9/32 -j DROP', l0, l1, l2],
    [l0, l1, '-F RT-X', l0, l1, l2],
  ]) {
    const st = restored(LINES);
    assert.equal(applyRestore(st, payload(body), { noflush: true }).exitCode, 0);
    // (a line's frozen rule may be there twice: nothing changes it in place, see restore.ts sharedRule)
    const after = rules(st, 'RT-X').filter((r) => !Object.isFrozen(r));
    assert.equal(new Set(after).size, after.length, body.join(' / '));
    assert.equal(renderSave(st.tables, { now: 0 }), renderSave(restored(body).tables, { now: 0 }));
  }
});

test('restore: with --counters each rule takes the counters written', () => {
  const st = restored(LINES);
  const withCounters = LINES.map((l, i) => `${l} -c ${i + 1} ${i * 60}`);
  assert.equal(applyRestore(st, payload(withCounters), { noflush: true, counters: true }).exitCode, 0);
  assert.deepEqual(
    rules(st, 'RT-X').map((r) => [r.counters.packets, r.counters.bytes]),
    LINES.map((_, i) => [i + 1, i * 60]),
  );
});

test('restore: a payload like the last one, lines dropped, added and moved, restores as it does anywhere', () => {
  const many = Array.from({ length: 200 }, (_, i) => `-A RT-X -s 10.1.${i >> 8}.${i & 255}/32 -j ${i % 3 ? 'RT-Y' : 'ACCEPT'}`);
  const st = restored(many);
  const next = [...many.slice(0, 50), '-A RT-X -s 10.9.9.9/32 -j DROP', ...many.slice(120), ...many.slice(60, 70), many[5] as string];
  // the same ruleset without the memory of the last payload (a copy is another ruleset)
  const copy = structuredClone(st);
  assert.equal(applyRestore(st, payload(next), { noflush: true }).exitCode, 0);
  assert.equal(applyRestore(copy, payload(next), { noflush: true }).exitCode, 0);
  assert.equal(renderSave(st.tables, { now: 0 }), renderSave(copy.tables, { now: 0 }));
  assert.deepEqual(rules(st, 'RT-X').length, next.length);
});

test('restore: a rule given back still needs its chain, when the payload deleted chains before it', () => {
  const st = restored(LINES);
  // RT-X flushed first, so RT-Y is jumped to no more and can go; then RT-X's first line again
  const body = payload(['-X RT-Y', LINES[0] as string], [':RT-X - [0:0]']);
  const copy = structuredClone(st);
  const r = applyRestore(st, body, { noflush: true });
  assert.notEqual(r.exitCode, 0);
  assert.deepEqual(r, applyRestore(copy, body, { noflush: true }));
  assert.equal(renderSave(st.tables, { now: 0 }), renderSave(restored(LINES).tables, { now: 0 }), 'nothing applied');
});

test('restore: after kube-proxy deleted chains a rule still jumped to, that rule needs its chain again', () => {
  const st = newIptablesState();
  const body = ['-A RT-MINE -j KUBE-SVC-AAAAAAAAAAAAAAAA', '-A KUBE-SVC-AAAAAAAAAAAAAAAA -j ACCEPT'];
  assert.equal(applyRestore(st, ['*nat', ':RT-MINE - [0:0]', ':KUBE-SVC-AAAAAAAAAAAAAAAA - [0:0]', ...body, 'COMMIT', ''].join('\n'), { noflush: true }).exitCode, 0);
  cleanupIptablesLeftovers(st);
  const again = ['*nat', ':RT-MINE - [0:0]', body[0] as string, 'COMMIT', ''].join('\n');
  const copy = structuredClone(st);
  const r = applyRestore(st, again, { noflush: true });
  assert.notEqual(r.exitCode, 0);
  assert.deepEqual(r, applyRestore(copy, again, { noflush: true }));
});

test('restore: a committed chain edited in place since (iptables -D) gives back only the rules still where they were', () => {
  // rules without a target: nothing but their position ties them to their line
  const counting = Array.from({ length: 40 }, (_, i) => `-A RT-C -s 10.3.0.${i}/32`);
  const st = newIptablesState();
  const body = ['*filter', ':RT-C - [0:0]', ...counting, 'COMMIT', ''].join('\n');
  assert.equal(applyRestore(st, body, { noflush: true }).exitCode, 0);
  assert.equal(runIptables(st, ['-D', 'RT-C', '1']).exitCode, 0);
  const copy = structuredClone(st);
  assert.equal(applyRestore(st, body, { noflush: true }).exitCode, 0);
  assert.equal(applyRestore(copy, body, { noflush: true }).exitCode, 0);
  assert.equal(renderSave(st.tables, { now: 0 }), renderSave(copy.tables, { now: 0 }));
  assert.equal(new Set(rules(st, 'RT-C')).size, counting.length);
});

test('restore: rulesets restored from the same lines share frozen rules, and a count, -Z or -E in one changes only its own', () => {
  const a = restored(LINES);
  const b = restored(LINES);
  assert.ok(rules(a, 'RT-X').every((r, i) => r === rules(b, 'RT-X')[i] && Object.isFrozen(r)), 'shared');
  // -E in a: b's rules still jump to RT-Y
  assert.equal(runIptables(a, ['-E', 'RT-Y', 'RT-Z']).exitCode, 0);
  assert.equal(rules(b, 'RT-X')[0]?.target?.name, 'RT-Y');
  assert.equal(rules(a, 'RT-X')[0]?.target?.name, 'RT-Z');
  // -Z in b leaves a's rule objects where they were
  const held = rules(a, 'RT-X').slice();
  assert.equal(runIptables(b, ['-Z', 'RT-X']).exitCode, 0);
  assert.ok(rules(a, 'RT-X').every((r, i) => r === held[i]));
  assert.equal(renderSave(b.tables, { now: 0 }), renderSave(restored(LINES).tables, { now: 0 }));
});

/** A long payload (past LAST_PAYLOAD_MAX_LINES): `n` chains of three rules, the middle one jumping to the next chain. */
function longBody(n: number, tweak: (i: number) => string[] | undefined = () => undefined): { decls: string[]; rules: string[] } {
  const decls: string[] = [];
  const rules: string[] = [];
  for (let i = 0; i < n; i++) {
    const name = `RT-L${String(i).padStart(6, '0')}`;
    const own = tweak(i) ?? [`-A ${name} -s 10.${i >> 16}.${(i >> 8) & 255}.${i & 255}/32 -j RETURN`, ...(i + 1 < n ? [`-A ${name} -j RT-L${String(i + 1).padStart(6, '0')}`] : []), `-A ${name} -j ACCEPT`];
    if (own.length === 0) continue;
    decls.push(`:${name} - [0:0]`);
    rules.push(...own);
  }
  return { decls, rules };
}

/** iptables-save's user chains and rules of the filter table: what a restore of `body` must hold. */
function savedUserPart(st: IptablesState): string[] {
  return renderSave(st.tables, { now: 0 }).split('\n').filter((l) => l.startsWith('-A RT-') || l.startsWith(':RT-'));
}

test('restore: a long payload nearly the same as another ruleset\'s last one (the next node\'s full sync) holds exactly its own lines', () => {
  const n = 24_000;
  const a = longBody(n);
  assert.ok(a.decls.length + a.rules.length > 65_536);
  assert.equal(applyRestore(newIptablesState(), payload(a.rules, a.decls), { noflush: true }).exitCode, 0);
  // the next one: a rule changed, a chain gone (and the jump to it with it), a chain's rules reordered
  const b = longBody(n, (i) => {
    const name = `RT-L${String(i).padStart(6, '0')}`;
    if (i === 100) return [`-A ${name} -s 10.9.9.9/32 -j DROP`, `-A ${name} -j ACCEPT`];
    if (i === 5_000) return [];
    if (i === 4_999) return [`-A ${name} -j ACCEPT`];
    if (i === 20_000) return [`-A ${name} -j ACCEPT`, `-A ${name} -j RT-L020001`, `-A ${name} -s 10.0.78.32/32 -j RETURN`];
    return undefined;
  });
  const st = newIptablesState();
  assert.equal(applyRestore(st, payload(b.rules, b.decls), { noflush: true }).exitCode, 0);
  const expected = [...b.decls, ...b.rules];
  assert.deepEqual(savedUserPart(st), expected);
});
