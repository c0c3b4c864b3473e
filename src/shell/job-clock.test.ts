/**
 * Background jobs on the simulated clock (job-clock.ts): a list paused in a `sleep` runs on when the
 * clock reaches its time, whoever moves the clock, and a foreground `kubectl get -w` interleaves
 * its rows with the job's output in clock order. Ctrl-C reaches the foreground watch only (bash
 * sends SIGINT to the foreground process group): the watch ends with what it printed, status 130,
 * and the job goes on.
 */
import { describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { loadFixture } from '../testing/fixtures.js';
import { Session } from './session.js';
import type { Pod } from '../sim/api/types.js';
import { ManualClock } from '../util/clock.js';
import { WallClock, syncClock } from '../app/wallclock.js';

function session(): Session {
  return new Session(loadFixture('kubeadm-calico', 1));
}

const text = (r: { output: { text: string }[] }): string => r.output.map((c) => c.text).join('');

describe('background jobs follow the simulated clock', () => {
  it('the commands after a job\'s sleep run at the sleep\'s end, not when the job starts', async () => {
    const s = session();
    await s.exec('kubectl create deploy web --image=nginx');
    const t0 = s.cluster.now();
    await s.exec('sleep 30 && kubectl scale deploy web --replicas=3 >/dev/null &');
    assert.equal((await s.exec("kubectl get deploy web -o jsonpath='{.spec.replicas}'")).stdout, '1', 'not scaled before its time');
    const r = await s.exec("sleep 29; kubectl get deploy web -o jsonpath='{.spec.replicas}'; echo; sleep 1; kubectl get deploy web -o jsonpath='{.spec.replicas}'");
    assert.equal(r.stdout, '1\n3');
    assert.equal(r.stderr, '[1]+  Done                    sleep 30 && kubectl scale deploy web --replicas=3 > /dev/null\n');
    const scaled = s.cluster.store.list<Pod>('Pod').filter((p) => p.metadata.name?.startsWith('web-')).map((p) => Date.parse(p.metadata.creationTimestamp ?? '') - t0).sort((a, b) => a - b);
    assert.deepEqual(scaled.slice(1), [30_000, 30_000], 'the new pods were created at the job\'s time');
  });

  it('output of jobs and of the foreground line come in clock order; wait runs the jobs to their end', async () => {
    const s = session();
    await s.exec('(sleep 3; echo three; sleep 3; echo six) &');
    await s.exec('sleep 2 && echo two &');
    const r = await s.exec('sleep 1; echo one; sleep 3; echo four; wait; echo waited');
    assert.equal(r.stdout, 'one\ntwo\nthree\nfour\nsix\nwaited\n');
  });

  it('a job killed while it sleeps never runs on', async () => {
    const s = session();
    await s.exec('sleep 5 && echo never > /tmp/never &');
    await s.exec('kill %1');
    const r = await s.exec('sleep 10; cat /tmp/never');
    // bash reaps a job the line's own kill ended after the next line
    assert.equal(text(r), 'cat: /tmp/never: No such file or directory\n[1]+  Terminated              sleep 5 && echo never > /tmp/never\n');
  });

  it('a job due while the learner typed runs before the next line', async () => {
    const s = session();
    await s.exec('sleep 5 && echo woke &');
    // the wall moved on while the learner typed (the REPL syncs the clock before the line)
    const clock = s.cluster.clock;
    assert.ok(clock instanceof ManualClock);
    clock.advance(6000);
    const r = await s.exec('echo next');
    assert.equal(text(r), 'woke\nnext\n[1]+  Done                    sleep 5 && echo woke\n');
    assert.equal(r.stdout, 'woke\nnext\n');
  });

  it('Ctrl-C ends the foreground watch with what it printed; the paused job goes on', async () => {
    const s = session();
    await s.exec('kubectl create deploy web --image=nginx; sleep 5');
    await s.exec('sleep 5 && kubectl scale deploy web --replicas=2 && sleep 20 && kubectl scale deploy web --replicas=1 &');
    // the learner presses Ctrl-C once the new pod runs
    const ctl = new AbortController();
    const stop = s.cluster.store.observe((_type, obj) => {
      if (obj.kind === 'Pod' && (obj as Pod).status?.phase === 'Running' && obj.metadata.creationTimestamp !== undefined) {
        const started = Date.parse(obj.metadata.creationTimestamp);
        if (started > s.cluster.now() - 5000) ctl.abort();
      }
    });
    const r = await s.exec('kubectl get pods -w', { signal: ctl.signal });
    stop();
    assert.equal(r.exitCode, 130);
    assert.equal(r.stderr, '', 'an interrupt prints nothing of its own (the terminal echoes ^C)');
    assert.match(r.stdout, /^NAME +READY +STATUS +RESTARTS +AGE\nweb-\S+ +1\/1 +Running +0 +5s\ndeployment\.apps\/web scaled\n(web-\S+ +0\/1 +(Pending|ContainerCreating) +0 +0s\n)+web-\S+ +1\/1 +Running +0 +1s\n$/);
    const after = await s.exec('jobs; echo status=$?');
    assert.equal(after.stdout, '[1]+  Running                 sleep 5 && kubectl scale deploy web --replicas=2 && sleep 20 && kubectl scale deploy web --replicas=1 &\nstatus=0\n');
    const later = await s.exec("sleep 30; kubectl get deploy web -o jsonpath='{.spec.replicas}'");
    assert.equal(text(later), 'deployment.apps/web scaled\n1[1]+  Done                    sleep 5 && kubectl scale deploy web --replicas=2 && sleep 20 && kubectl scale deploy web --replicas=1\n');
  });

  it('a job that runs away stops the line with the simulator\'s message and ends with status 130', async () => {
    const s = session();
    const r = await s.exec('while true; do :; done &');
    assert.equal(r.exitCode, 130);
    assert.match(r.stderr, /^\[1\] 4300\ncka-lab: line stopped after \d+ steps/);
    const next = await s.exec('echo after');
    assert.equal(text(next), 'after\n[1]+  Exit 130                while true; do\n    :;\ndone\n');
  });

  it('on a wall clock, a job due while the learner typed runs at its own time (the REPL syncs through the session)', async () => {
    const s = session();
    let real = 1_000_000;
    const clock = new WallClock(s.cluster.now(), () => real);
    s.cluster.clock = clock;
    const sync = (limit?: number): void => syncClock(clock, limit);
    await s.exec('kubectl create deploy web --image=nginx', { sync });
    await s.exec('sleep 5 && kubectl scale deploy web --replicas=2 >/dev/null &', { sync });
    // the learner thinks for a minute before the next line
    real += 60_000;
    const r = await s.exec('kubectl get pods --no-headers | sort -k5', { sync });
    assert.match(r.stdout, /^web-\S+ +1\/1 +Running +0 +55s\nweb-\S+ +1\/1 +Running +0 +60s\n$/);
  });
});

/**
 * Every foreground wait moves the clock through kubectl/poll.ts pollUntil, which stops at the
 * paused jobs' times: the job runs at its time in the middle of the wait, and the wait sees what
 * it did; what the wait printed before comes first.
 */
describe('foreground waits let paused jobs run at their time', () => {
  const elapsed = async (s: Session, line: string): Promise<{ out: string; stderr: string; secs: number }> => {
    const t0 = s.cluster.now();
    const r = await s.exec(line);
    return { out: r.output.filter((c) => c.stream === 'stdout').map((c) => c.text).join(''), stderr: r.stderr, secs: (s.cluster.now() - t0) / 1000 };
  };

  it('watch: the next screen shows what the job did (-g ends on the change)', async () => {
    const s = session();
    await s.exec('kubectl create deploy web --image=nginx; sleep 10');
    await s.exec('sleep 5 && kubectl scale deploy web --replicas=3 >/dev/null &');
    const r = await elapsed(s, `watch -g -t -n 2 "kubectl get deploy web -o jsonpath='{.spec.replicas}'"`);
    assert.deepEqual(r, { out: '3', stderr: '[1]+  Done                    sleep 5 && kubectl scale deploy web --replicas=3 > /dev/null\n', secs: 6 });
  });

  it('delete: the job that lifts the finalizer runs during the wait, after the deletion message', async () => {
    const s = session();
    await s.exec(`kubectl run fin --image=nginx; sleep 10; kubectl patch pod fin --type=merge -p '{"metadata":{"finalizers":["example.com/hold"]}}'`);
    await s.exec(`sleep 5 && kubectl patch pod fin --type=merge -p '{"metadata":{"finalizers":null}}' &`);
    const r = await elapsed(s, 'kubectl delete pod fin; echo status=$?');
    assert.equal(r.out, 'pod "fin" deleted from default namespace\npod/fin patched\nstatus=0\n');
    assert.equal(r.secs, 5);
  });

  it('drain: the job that deletes the blocking budget runs between the retries', async () => {
    const s = session();
    await s.exec('kubectl create deploy web --image=nginx --replicas=2; kubectl create pdb web --selector=app=web --min-available=2; sleep 30');
    const pod = (await s.exec("kubectl get pods -l app=web -o wide --no-headers | awk '$7 == \"cka-w1\" {print $1}'")).stdout.trim();
    assert.match(pod, /^web-/);
    await s.exec('sleep 7 && kubectl delete pdb web &');
    const r = await s.exec('kubectl drain cka-w1 --ignore-daemonsets');
    const refused = `error when evicting pods/"${pod}" -n "default" (will retry after 5s): Cannot evict pod as it would violate the pod's disruption budget.\n`;
    assert.deepEqual(
      r.output.map((c) => c.text).join('').split('\n').filter((l) => !/coredns|Warning|cordoned/.test(l)).join('\n'),
      [`evicting pod default/${pod}`, refused.trim(), `evicting pod default/${pod}`, refused.trim(), 'poddisruptionbudget.policy "web" deleted from default namespace', `evicting pod default/${pod}`, `pod/${pod} evicted`, 'node/cka-w1 drained', '[1]+  Done                    sleep 7 && kubectl delete pdb web', ''].join('\n'),
    );
    assert.equal(r.exitCode, 0);
  });

  it('logs -f under timeout: the job writes between the lines of its time', async () => {
    const s = session();
    await s.exec("kubectl run ticker --image=busybox -- sh -c 'i=0; while true; do echo tick $i; i=$((i+1)); sleep 2; done'; sleep 10");
    await s.exec('sleep 3 && echo job-ran &');
    const r = await elapsed(s, 'timeout 7 kubectl logs -f ticker --tail=1');
    assert.deepEqual(r, { out: 'tick 4\ntick 5\njob-ran\ntick 6\ntick 7\n', stderr: '[1]+  Done                    sleep 3 && echo job-ran\n', secs: 7 });
  });

  it('replace --force: the deletion message comes before the job that lifts the finalizer, the replacement after', async () => {
    const s = session();
    await s.exec(`kubectl run fin --image=nginx; sleep 10; kubectl patch pod fin --type=merge -p '{"metadata":{"finalizers":["example.com/hold"]}}'; kubectl get pod fin -o yaml > /root/fin.yaml`);
    await s.exec(`sleep 5 && kubectl patch pod fin --type=merge -p '{"metadata":{"finalizers":null}}' &`);
    const r = await elapsed(s, 'kubectl replace --force -f /root/fin.yaml; echo status=$?');
    assert.equal(r.out, 'pod "fin" deleted from default namespace\npod/fin patched\npod/fin replaced\nstatus=0\n');
    assert.equal(r.secs, 5);
  });

  it('run --rm -i: what run printed before waiting for the pod comes before the job; the pod and Service are deleted without a wait', async () => {
    const s = session();
    await s.exec('sleep 1 && echo job-ran &');
    const r = await s.exec('kubectl run tmp --rm -i -q --restart=Never --image=busybox --expose --port=80 -- echo hi');
    assert.equal(text(r), 'service/tmp created\njob-ran\nhi\npod "tmp" deleted from default namespace\nservice "tmp" deleted from default namespace\n[1]+  Done                    sleep 1 && echo job-ran\n');
  });

  it('debug: the creation line comes before the job that wakes while the debugging pod starts', async () => {
    const s = session();
    await s.exec('sleep 1 && echo job-ran &');
    const r = await s.exec('kubectl debug node/cka-w1 -it --image=busybox');
    assert.match(text(r), /^--profile=legacy is deprecated.*\nCreating debugging pod node-debugger-cka-w1-\w{5} with container debugger on node cka-w1\.\njob-ran\nAll commands and output/);
  });

  it('helm install --wait: the log helm wrote before waiting comes before the job', async () => {
    const s = session();
    await s.exec('helm repo add stable https://charts.example.com/stable');
    await s.exec('sleep 1 && echo job-ran &');
    const r = await s.exec('helm install web2 stable/web --version 1.0.0 --wait=true -n shop --create-namespace >/dev/null; echo installed');
    assert.equal(text(r), 'level=WARN msg="--wait=true is deprecated (boolean value) and can be replaced with --wait=watcher"\njob-ran\ninstalled\n[1]+  Done                    sleep 1 && echo job-ran\n');
  });

  it('helm install --wait: the job sees the release still starting', async () => {
    const s = session();
    await s.exec('helm repo add stable https://charts.example.com/stable');
    await s.exec('sleep 1 && kubectl -n shop get pods --no-headers &');
    const r = await elapsed(s, 'helm install web2 stable/web --version 1.0.0 --wait -n shop --create-namespace >/dev/null; echo installed');
    assert.match(r.out, /^web2-\S+ +0\/1 +ContainerCreating +0 +1s\ninstalled\n$/);
  });
});
