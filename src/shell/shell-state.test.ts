/**
 * A shell the learner is typing into never forgets what they defined in it when the session is
 * read back (session.ts FrameData.shell, Interpreter.shellState): variables that are not
 * exported, arrays, functions (here-documents included), aliases, traps, `set` options and the
 * positional parameters, on the workstation and in an ssh login alike. A damaged saved state is
 * dropped, never trusted.
 */
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { loadFixture } from '../testing/fixtures.js';
import { Session, type SessionData } from './session.js';
import { CONTROLLERS } from '../sim/controllers/index.js';
import { ManualClock } from '../util/clock.js';

function reload(s: Session): Session {
  const text = JSON.stringify(s.toJSON({ persist: true }));
  return Session.fromJSON(JSON.parse(text) as SessionData, new ManualClock(s.cluster.now()), CONTROLLERS, {}, true);
}

const DEFINE = [
  'x=kubectl; a=(p q); a[5]=z; declare -A m=([k]=v [j]=w); set -- one two',
  "f() { echo fn \"$@\" $x; }; alias ll='echo al'",
  "g() {\n  cat <<-'EOF' | tr a-z A-Z\n\tbody $x\n\tEOF\n  echo after\n}",
  "trap 'echo usr1' USR1; set -o pipefail",
];
const PROBE = [
  'echo "$x|${a[1]}|${a[5]}|${#a[@]}|${!m[@]}|${m[k]}|$1 $#"',
  'f arg; ll; g',
  'trap -p USR1; false | true; echo "pipefail $?"',
  'declare -f g',
];

async function probe(s: Session): Promise<string> {
  let out = '';
  for (const line of PROBE) {
    const r = await s.exec(line);
    out += `$ ${line}\n${r.output.map((o) => o.text).join('')}`;
  }
  return out;
}

test('variables, arrays, functions, aliases, traps and options survive the session read back', async () => {
  const s = new Session(loadFixture('kubeadm-calico', 1));
  for (const line of DEFINE) await s.exec(line);
  const before = await probe(s);
  assert.match(before, /^kubectl\|q\|z\|3\|/m);
  assert.match(before, /^fn arg kubectl$/m);
  assert.match(before, /^BODY \$X$/m);
  assert.match(before, /^pipefail 1$/m);
  const after = await probe(reload(s));
  assert.equal(after, before);
  // reloaded twice, after an ssh login whose own shell has its own state
  const t = reload(s);
  await t.exec('ssh cka-w1');
  await t.exec('y=node-only; h() { echo on $(hostname) $y; }');
  const u = reload(t);
  assert.equal((await u.exec('h')).stdout, 'on cka-w1 node-only\n');
  await u.exec('exit');
  assert.equal((await u.exec('echo "$x ${y:-unset}"; type -t h || echo no h')).stdout, 'kubectl unset\nno h\n');
});

test('a damaged saved shell state is dropped, never trusted', async () => {
  const s = new Session(loadFixture('kubeadm-calico', 1));
  await s.exec('ok=1');
  const data = JSON.parse(JSON.stringify(s.toJSON({ persist: true }))) as SessionData;
  const frame = data.frames[0]! as unknown as { shell: Record<string, unknown> };
  frame.shell = {
    vars: { ok: '1', 'bad name': 'x', n: 3 },
    arrays: { a: { '0': 'x', '-1': 'y', '99999999999': 'z', '1': 2 }, 'no-name': { '0': 'x' } },
    assoc: { m: [['k', 'v'], ['bad'], 'x'], q: 'notalist' },
    functions: { f: 'f () \n{ \n    echo ok\n}\n', g: 'not a function', h: 'f () \n{ \n    echo wrong name\n}\n', i: 'i () { unclosed' },
    traps: { SIGUSR1: 'echo t', NOPE: 'echo x', EXIT: 7 },
    flags: ['u', 'zz', 1],
    args: ['a', 2],
  };
  const loaded = Session.fromJSON(data, new ManualClock(s.cluster.now()), CONTROLLERS, {}, true);
  const r = await loaded.exec('echo "$ok ${a[0]} ${#a[@]} ${m[k]} ${#m[@]} $#"; f; type -t g h i || echo none; trap -p; echo $-');
  assert.equal(r.stdout, "1 x 1 v 1 0\nok\nnone\ntrap -- 'echo t' SIGUSR1\nhuB\n".replace('huB', (await new Session(loadFixture('kubeadm-calico', 1)).exec('set -u; echo $-')).stdout.trim()));
});
