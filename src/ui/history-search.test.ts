/**
 * Ctrl-R as bash's readline does it: the search state machine (table-driven), then the REPL's
 * terminal line source driven with the bytes a terminal sends (readline's keypress decoding,
 * its redraw and its history included).
 */
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { PassThrough } from 'node:stream';
import { searchKey, searchPrompt, shownCursor, shownLine, startSearch, type Key, type SearchState } from './history-search.js';
import { TtyLines } from './input.js';

/** Newest first, as node:readline keeps history. */
const HISTORY = ['kubectl get pods -A', 'ssh cka-cp1', 'kubectl -n dev get svc', 'cat /etc/hosts', 'kubectl get nodes'];

const ch = (c: string): Key => ({ sequence: c, name: c });
const CTRL_R: Key = { sequence: '\x12', name: 'r', ctrl: true };
const BACKSPACE: Key = { sequence: '\x7f', name: 'backspace' };

function typed(keys: readonly Key[], lastQuery = ''): { state?: SearchState; exit?: { line: string; cursor: number; forward: boolean } } {
  let st = startSearch('echo hi', 4);
  for (const k of keys) {
    const step = searchKey(st, k, HISTORY, lastQuery);
    if (step.kind === 'exit') return { exit: { line: step.line, cursor: step.cursor, forward: step.forward } };
    st = step.state;
  }
  return { state: st };
}

test('reverse-i-search: what each key does', () => {
  const cases: { name: string; keys: Key[]; lastQuery?: string; prompt?: string; line?: string; cursor?: number; exit?: { line: string; cursor: number; forward: boolean } }[] = [
    { name: 'Ctrl-R alone shows the line as it was', keys: [], prompt: "(reverse-i-search)`': ", line: 'echo hi', cursor: 4 },
    { name: 'the newest entry containing the string', keys: [ch('g'), ch('e'), ch('t')], prompt: "(reverse-i-search)`get': ", line: 'kubectl get pods -A', cursor: 8 },
    { name: 'Ctrl-R again goes to the next older match', keys: [ch('g'), ch('e'), ch('t'), CTRL_R], line: 'kubectl -n dev get svc', cursor: 15 },
    { name: 'typing more stays on the entry while it still matches', keys: [ch('k'), ch('u'), CTRL_R, ch('b')], line: 'kubectl -n dev get svc', cursor: 0 },
    { name: 'no older match: failed, the last match stays', keys: [ch('s'), ch('s'), ch('h'), CTRL_R], prompt: "(failed reverse-i-search)`ssh': ", line: 'ssh cka-cp1' },
    { name: 'a string no entry has', keys: [ch('z'), ch('z')], prompt: "(failed reverse-i-search)`zz': ", line: 'echo hi' },
    { name: 'Backspace shortens the string and keeps a match that still fits', keys: [ch('h'), ch('o'), ch('s'), BACKSPACE], prompt: "(reverse-i-search)`ho': ", line: 'cat /etc/hosts', cursor: 9 },
    { name: 'Ctrl-R on an empty string reuses the last search', keys: [CTRL_R], lastQuery: 'nodes', prompt: "(reverse-i-search)`nodes': ", line: 'kubectl get nodes' },
    { name: 'Enter runs the line shown', keys: [ch('c'), ch('a'), ch('t'), { sequence: '\r', name: 'return' }], exit: { line: 'cat /etc/hosts', cursor: 0, forward: true } },
    { name: 'Ctrl-G restores the line as it was', keys: [ch('c'), ch('a'), ch('t'), { sequence: '\x07', name: 'g', ctrl: true }], exit: { line: 'echo hi', cursor: 4, forward: false } },
    { name: 'Esc keeps the line shown for editing', keys: [ch('s'), ch('s'), { sequence: '\x1b', name: 'escape' }], exit: { line: 'ssh cka-cp1', cursor: 0, forward: false } },
    { name: 'a movement key keeps the line and then moves', keys: [ch('s'), ch('v'), ch('c'), { sequence: '\x1b[C', name: 'right' }], exit: { line: 'kubectl -n dev get svc', cursor: 19, forward: true } },
    { name: 'Ctrl-C ends the search and is handed on (it cancels the line)', keys: [ch('c'), { sequence: '\x03', name: 'c', ctrl: true }], exit: { line: 'kubectl get pods -A', cursor: 4, forward: true } },
  ];
  for (const c of cases) {
    const r = typed(c.keys, c.lastQuery);
    if (c.exit) {
      assert.deepEqual(r.exit, c.exit, c.name);
      continue;
    }
    assert.ok(r.state, `${c.name}: the search ended`);
    if (c.prompt !== undefined) assert.equal(searchPrompt(r.state), c.prompt, c.name);
    if (c.line !== undefined) assert.equal(shownLine(r.state, HISTORY), c.line, c.name);
    if (c.cursor !== undefined) assert.equal(shownCursor(r.state, HISTORY), c.cursor, c.name);
  }
});

/** A terminal: bytes in, what the line source draws out. */
function terminal(history: string[]): { lines: TtyLines; type(bytes: string): void; screen(): string } {
  const input = new PassThrough();
  const output = new PassThrough();
  let drawn = '';
  output.on('data', (d: Buffer) => (drawn += d.toString('utf8')));
  const lines = new TtyLines(input, output, { history });
  return { lines, type: (b) => input.write(b), screen: () => drawn };
}

/** Let the stream deliver what was typed. */
const tick = (): Promise<void> => new Promise((r) => setImmediate(r));

test('Ctrl-R in the REPL finds an earlier command, and Enter runs it', async () => {
  const t = terminal(['kubectl get nodes', 'cat /etc/hosts', 'kubectl -n dev get svc']);
  const next = t.lines.next('root@cka-wk:~# ');
  t.type('\x12');
  await tick();
  t.type('dev');
  await tick();
  assert.match(t.screen(), /\(reverse-i-search\)`dev': kubectl -n dev get svc/);
  t.type('\r');
  assert.equal(await next, 'kubectl -n dev get svc');
  // the accepted line is redrawn after the shell's prompt, and joins the history as any line does
  assert.match(t.screen(), /root@cka-wk:~# kubectl -n dev get svc/);
  const again = t.lines.next('root@cka-wk:~# ');
  t.type('\x1b[A');
  await tick();
  t.type('\r');
  assert.equal(await again, 'kubectl -n dev get svc');
  t.lines.close();
});

test('Ctrl-R then Ctrl-G gives the typed line back; a failed search says so', async () => {
  const t = terminal(['kubectl get nodes']);
  const next = t.lines.next('$ ');
  t.type('echo hi');
  await tick();
  t.type('\x12');
  await tick();
  t.type('zz');
  await tick();
  assert.match(t.screen(), /\(failed reverse-i-search\)`zz': echo hi/);
  t.type('\x07');
  await tick();
  t.type(' there\r');
  assert.equal(await next, 'echo hi there');
  t.lines.close();
});

test('an answer to a question does not go into the history', async () => {
  const t = terminal(['kubectl get nodes']);
  const answer = t.lines.next('Show the reference solution? [y/N] ', { record: false });
  t.type('y\r');
  assert.equal(await answer, 'y');
  const next = t.lines.next('$ ');
  t.type('\x1b[A');
  await tick();
  t.type('\r');
  assert.equal(await next, 'kubectl get nodes', 'Up recalls the last command, not the answer');
  t.lines.close();
});
