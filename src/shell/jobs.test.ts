/**
 * bash's job table (jobs.ts, job-builtins.ts) and background kubectl processes in a session:
 * lines and marks as bash 5.2 prints them, job specs, and a port-forward that survives a saved
 * session, ends with its shell, and closes its sockets when killed.
 */
import { describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { JobTable } from './jobs.js';
import { jobBuiltin } from './job-builtins.js';
import { andOrText } from './print-command.js';
import { parseScript } from './parse/ast.js';
import { Session, type SessionData } from './session.js';
import { loadFixture } from '../testing/fixtures.js';
import { ManualClock } from '../util/clock.js';
import { CONTROLLERS } from '../sim/controllers/index.js';
import { userSockets } from '../sim/node/user-sockets.js';

function table(...texts: string[]): JobTable {
  const t = new JobTable();
  for (const x of texts) t.start(x);
  return t;
}

describe('jobs: lines as bash prints them', () => {
  const cases = [
    { name: 'running job, current', jobs: ['sleep 30'], end: undefined, want: '[1]+  Running                 sleep 30 &\n' },
    { name: 'done', jobs: ['true'], end: { status: 0 }, want: '[1]+  Done                    true\n' },
    { name: 'exit status', jobs: ['false'], end: { status: 1 }, want: '[1]+  Exit 1                  false\n' },
    { name: 'terminated', jobs: ['sleep 30'], end: { status: 143, signal: 'TERM' }, want: '[1]+  Terminated              sleep 30\n' },
    { name: 'killed', jobs: ['sleep 30'], end: { status: 137, signal: 'KILL' }, want: '[1]+  Killed                  sleep 30\n' },
    { name: 'previous and current', jobs: ['sleep 1', 'sleep 2'], end: undefined, want: '[1]-  Running                 sleep 1 &\n[2]+  Running                 sleep 2 &\n' },
  ];
  for (const c of cases) {
    it(c.name, () => {
      const t = table(...c.jobs);
      if (c.end) t.end(t.jobs[0]!, c.end.status, c.end.signal);
      assert.equal(t.list(), c.want);
    });
  }

  it('jobs -l adds the pid; a listed ended job is forgotten and numbers start again', () => {
    const t = table('sleep 30');
    assert.equal(t.list({ long: true }), '[1]+  4300 Running                 sleep 30 &\n');
    t.end(t.jobs[0]!, 0);
    t.list();
    assert.equal(t.start('sleep 5').n, 1);
  });

  it('a late end is reported only after the next line', () => {
    const t = table('true');
    t.end(t.jobs[0]!, 0, undefined, true);
    assert.equal(t.notices(), '');
    t.newLine();
    assert.equal(t.notices(), '[1]+  Done                    true\n');
    assert.equal(t.notices(), '');
  });
});

describe('jobs: specs', () => {
  const t = table('kubectl port-forward svc/web 8080:80', 'sleep 30', 'kubectl proxy');
  const cases = [
    { name: 'number', spec: '%2', want: 'sleep 30' },
    { name: 'current', spec: '%%', want: 'kubectl proxy' },
    { name: 'plus', spec: '%+', want: 'kubectl proxy' },
    { name: 'previous', spec: '%-', want: 'sleep 30' },
    { name: 'prefix', spec: '%sleep', want: 'sleep 30' },
    { name: 'contains', spec: '%?web', want: 'kubectl port-forward svc/web 8080:80' },
    { name: 'ambiguous prefix', spec: '%kubectl', want: '%kubectl: ambiguous job spec' },
    { name: 'no such job', spec: '%9', want: '%9: no such job' },
  ];
  for (const c of cases) {
    it(c.name, () => {
      const j = t.find(c.spec);
      assert.equal(typeof j === 'string' ? j : j.text, c.want);
    });
  }
});

describe('job builtins', () => {
  const cases = [
    { name: 'kill without arguments', args: [], want: { errors: [], usage: 'kill: usage: kill [-s sigspec | -n signum | -sigspec] pid | jobspec ... or kill -l [sigspec]', status: 2 } },
    { name: 'kill with a bad signal', args: ['-FOO', '%1'], want: { errors: ['kill: FOO: invalid signal specification'], status: 1 } },
    { name: 'kill a word', args: ['foo'], want: { errors: ['kill: foo: arguments must be process or job IDs'], status: 1 } },
    { name: 'kill -l NUMBER', args: ['-l', '9'], want: { stdout: 'KILL\n', status: 0 } },
    { name: 'kill -l exit status', args: ['-l', '143'], want: { stdout: 'TERM\n', status: 0 } },
    { name: 'kill -s missing', args: ['-s'], want: { errors: ['kill: -s: option requires an argument'], status: 1 } },
  ];
  for (const c of cases) {
    it(c.name, () => {
      const r = jobBuiltin('kill', c.args, table('sleep 30'), {});
      for (const [k, v] of Object.entries(c.want)) assert.deepEqual(r[k as keyof typeof r], v, k);
    });
  }

  it('wait for a sleeping job lets its time pass and returns its status', () => {
    const t = table('sleep 30');
    t.jobs[0]!.until = { at: 30_000, status: 0 };
    const r = jobBuiltin('wait', ['%1'], t, {});
    assert.equal(r.status, 0);
    assert.equal(r.waitUntil, 30_000);
    assert.equal(t.jobs.length, 0);
  });
});

describe('the text of a background list', () => {
  const cases = [
    { name: 'simple', line: 'kubectl  port-forward   svc/web 8080:80 &', want: 'kubectl port-forward svc/web 8080:80' },
    { name: 'redirects', line: 'kubectl port-forward svc/web 8080:80 > /tmp/pf.log 2>&1 &', want: 'kubectl port-forward svc/web 8080:80 > /tmp/pf.log 2>&1' },
    { name: 'pipeline and list', line: 'sleep 1 && echo x | tr x y &', want: 'sleep 1 && echo x | tr x y' },
    { name: 'assignment', line: 'A=1 env &', want: 'A=1 env' },
  ];
  for (const c of cases) {
    it(c.name, () => {
      const p = parseScript(c.line);
      assert.ok(p.ok);
      assert.equal(p.ok && p.script.items[0]!.background, true);
      assert.equal(p.ok ? andOrText(p.script.items[0]!) : '', c.want);
    });
  }
});

describe('background kubectl in a session', () => {
  async function withForward(): Promise<Session> {
    const s = new Session(loadFixture('kubeadm-calico', 1));
    await s.exec('kubectl run web --image=nginx --port=80');
    await s.exec('kubectl wait --for=condition=ready pod/web');
    const r = await s.exec('kubectl port-forward pod/web 8080:80 &');
    assert.equal(r.stderr, '[1] 4300\n');
    return s;
  }

  it('a saved session keeps the job and its listener', async () => {
    const s = await withForward();
    const back = Session.fromJSON(JSON.parse(JSON.stringify(s.toJSON())) as SessionData, new ManualClock(s.cluster.now()), CONTROLLERS);
    assert.equal((await back.exec('jobs')).stdout, '[1]+  Running                 kubectl port-forward pod/web 8080:80 &\n');
    const r = await back.exec('curl -s localhost:8080 | grep -c nginx');
    assert.equal(r.stdout, 'Handling connection for 8080\n6\n');
  });

  it('kill closes the sockets; the next curl is refused', async () => {
    const s = await withForward();
    await s.exec('kill %1');
    assert.deepEqual(userSockets(s.cluster.host(s.cluster.meta.workstation)!), []);
    const r = await s.exec('curl -sS localhost:8080');
    assert.equal(r.exitCode, 7);
    assert.match(r.stderr, /\[1\]\+ {2}Terminated {14}kubectl port-forward pod\/web 8080:80\n$/);
  });

  it('a job started on a node ends when its login does', async () => {
    const s = new Session(loadFixture('kubeadm-calico', 1));
    await s.exec('ssh cka-cp1');
    await s.exec('kubectl -n kube-system port-forward svc/kube-dns 5353:53 &');
    const cp = s.cluster.host('cka-cp1')!;
    assert.equal(userSockets(cp).length, 2);
    await s.exec('exit');
    assert.deepEqual(userSockets(cp), []);
  });

  it('a sleeping job ends when its time has passed', async () => {
    const s = new Session(loadFixture('kubeadm-calico', 1));
    await s.exec('sleep 30 &');
    assert.equal((await s.exec('jobs')).stdout, '[1]+  Running                 sleep 30 &\n');
    const r = await s.exec('sleep 31');
    assert.equal(r.stderr, '[1]+  Done                    sleep 30\n');
  });
});
