/**
 * Stopped jobs through the REPL, against bash 5.2.15 on a pseudo-terminal (src/shell/testdata/
 * record-job-control.py: job-control*.txt): the same
 * keys go to a Session through runRepl with a terminal stand-in that echoes each line after the
 * recording's `$ ` prompt and, for Ctrl-Z / Ctrl-C while a job holds the terminal, echoes `^Z` /
 * `^C` and a newline as the tty does. What the shell prints (`[1]+  Stopped`, jobs' marks, bg's
 * `[1]+ CMD &`, fg echoing the command, kill %N of a stopped job, `There are stopped jobs.`) must
 * be the recording's bytes; `[N] PID` is normalised as the recording is.
 */
import { describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import { Writable } from 'node:stream';
import { loadFixture } from '../testing/fixtures.js';
import { Session } from '../shell/session.js';
import { runRepl } from './repl.js';
import type { InputEvent, LineSource } from './input.js';
import { WallClock } from '../app/wallclock.js';
import { CONTROLLERS } from '../sim/controllers/index.js';

const TESTDATA = fileURLToPath(new URL('../../src/shell/testdata/', import.meta.url));

/**
 * A terminal that types `keys` (lines end in \n; \x1a is Ctrl-Z, \x03 Ctrl-C; a number lets that
 * many wall-clock milliseconds pass, `tick` ones while a job holds the terminal) and echoes as a
 * pty with PS1='$ ' shows it.
 */
type Key = string | number;

class Keys implements LineSource {
  readonly interactive = true;
  constructor(
    private readonly keys: Key[],
    private readonly echo: (t: string) => void,
    private readonly wall: (ms: number) => void = () => undefined,
  ) {}

  async next(): Promise<InputEvent> {
    this.echo('$ ');
    let k = this.keys.shift();
    while (typeof k === 'number') {
      this.wall(k);
      k = this.keys.shift();
    }
    // Ctrl-D on an empty line: end of input (the REPL echoes `exit`)
    if (k === undefined || k === '\x04') return null;
    if (!k.endsWith('\n')) throw new Error(`a control key ${JSON.stringify(k)} at the prompt`);
    this.echo(k);
    return k.slice(0, -1);
  }

  async hold(_ms: number, opts: { noEcho?: boolean } = {}): Promise<'interrupt' | 'stop' | 'tick'> {
    const k = this.keys.shift();
    if (typeof k === 'number') {
      this.wall(k);
      return 'tick';
    }
    // a full-screen program holds the terminal in noecho mode: the keys are not echoed
    if (k === '\x1a') {
      if (!opts.noEcho) this.echo('^Z');
      return 'stop';
    }
    if (k === '\x03') {
      if (!opts.noEcho) this.echo('^C\n');
      return 'interrupt';
    }
    throw new Error(`the terminal is held, but the next key is ${JSON.stringify(k)}`);
  }

  wake(): void {}
  suspend(): void {}
  resume(): void {}
  close(): void {}
  onInterrupt(): () => void {
    return () => undefined;
  }
}

async function replay(keys: Key[], wallClock = false): Promise<string> {
  let out = '';
  const sink = new Writable({
    write(chunk: Buffer | string, _enc, cb) {
      out += chunk.toString();
      cb();
    },
  });
  const s = new Session(loadFixture('kubeadm-calico', 1));
  let real = 1_000_000;
  if (wallClock) s.cluster.clock = new WallClock(s.cluster.now(), () => real);
  await runRepl(() => s, new Keys([...keys], (t) => (out += t), (ms) => (real += ms)), { stdout: sink, stderr: sink });
  return out.replace(/^(\[\d+\]) \d+$/gm, '$1 PID');
}

const CASES: Array<{ file: string; keys: string[] }> = [
  {
    file: 'job-control.txt',
    keys: ['sleep 100\n', '\x1a', 'jobs\n', 'bg\n', 'jobs\n', 'fg\n', '\x1a', 'kill %1\n', '\n', 'sleep 200 &\n', 'jobs\n', 'fg %1\n', '\x03', 'sleep 300\n', '\x1a', 'sleep 400 &\n', 'jobs\n', 'kill %1 %2\n', 'jobs\n', 'exit\n'],
  },
  {
    file: 'job-control-marks.txt',
    keys: ['sleep 100\n', '\x1a', 'sleep 200\n', '\x1a', 'jobs\n', 'fg\n', '\x1a', 'jobs\n', 'bg %1\n', 'jobs\n', 'bg %1\n', 'fg %2\n', '\x03', 'echo $?\n', 'jobs\n', 'kill %1\n', 'jobs\n', 'exit\n'],
  },
  {
    file: 'job-control-exit.txt',
    keys: ['sleep 100\n', '\x1a', 'exit\n', 'echo hi\n', 'exit\n', 'jobs\n', 'exit\n'],
  },
  {
    // a job that died keeps no mark once a newer one starts (jobs.c reset_current looks at live jobs)
    file: 'job-control-dead.txt',
    keys: ['sleep 100 &\n', 'sleep 200 &\n', 'kill %2\n', 'sleep 300 &\n', 'jobs\n', 'kill %1 %3\n', 'jobs\n', 'exit\n'],
  },
  {
    // a pipeline the terminal holds is one job, printed whole (its later members wait for its end)
    file: 'job-control-pipeline.txt',
    keys: ['sleep 100 | cat\n', '\x1a', 'jobs\n', 'fg\n', '\x1a', 'bg\n', 'jobs\n', 'fg\n', '\x03', 'echo $?\n', 'sleep 100 | grep x | wc -l\n', '\x1a', 'jobs\n', 'kill %1\n', '\n', 'exit\n'],
  },
  {
    // a list: Ctrl-Z stops its running pipeline (the job) and the list runs on with status 148; Ctrl-C ends it all
    file: 'job-control-list.txt',
    keys: ['sleep 100; echo hi\n', '\x1a', 'echo $?\n', 'sleep 100 && echo hi\n', '\x1a', 'echo $?\n', 'sleep 100 || echo hi\n', '\x1a', 'jobs\n', 'sleep 100; echo hi\n', '\x03', 'echo $?\n', 'sleep 100; echo $?; sleep 200 | cat; echo end\n', '\x1a', '\x1a', 'jobs\n', 'exit\n'],
  },
  // Ctrl-D with a stopped job warns as `exit` does, and leaves right after exit, jobs or Ctrl-D
  { file: 'job-control-eof.txt', keys: ['sleep 100\n', '\x1a', '\x04', 'echo hi\n', '\x04', 'jobs\n', '\x04'] },
  { file: 'job-control-eof-exit.txt', keys: ['sleep 100\n', '\x1a', 'exit\n', '\x04'] },
  { file: 'job-control-eof-twice.txt', keys: ['sleep 100\n', '\x1a', '\x04', '\x04'] },
  {
    // kill -STOP/-TSTP/-TTIN stop a background job, told at the end of the next line; -CONT runs it on, marks unmoved
    file: 'job-control-signals.txt',
    keys: ['sleep 100 &\n', 'sleep 200 &\n', 'kill -STOP %1\n', 'jobs\n', 'kill -CONT %1\n', 'jobs\n', 'kill -STOP %2\n', '\n', 'jobs\n', 'kill -CONT %2\n', 'jobs\n', 'kill -TSTP %1\n', 'echo hi\n', 'echo ho\n', 'kill -CONT %1\n', 'kill -s STOP %2; kill -CONT %2\n', 'jobs\n', 'kill -TTIN %2\n', '\n', 'kill %1\n', '\n', 'kill -CONT %2\n', 'kill %2\n', '\n', 'exit\n'],
  },
];

describe('stopped jobs as bash 5.2 shows them on a terminal', () => {
  for (const c of CASES) {
    it(c.file, async () => {
      const want = readFileSync(`${TESTDATA}${c.file}`, 'utf8');
      assert.equal(await replay(c.keys), want);
    });
  }
});

describe('a watch the terminal holds', () => {
  it('kubectl get -w follows the wall clock in the foreground; Ctrl-Z stops it, fg resumes it with what changed meanwhile, Ctrl-C ends it', async () => {
    const out = await replay(
      ['kubectl create deploy web --image=nginx\n', 60_000, 'kubectl get deploy web -w\n', 1000, '\x1a', 'kubectl scale deploy web --replicas=2\n', 'jobs\n', 30_000, 'fg\n', 1000, 1000, '\x03', 'echo $?\n', 'jobs\n', 'kubectl get deploy web -w &\n', 'fg\n', '\x03', 'jobs\n', 'exit\n'],
      true,
    );
    if (process.env['SHOW']) console.log(out);
    const parts = out.split(/^\$ /m);
    assert.equal(parts[2], 'kubectl get deploy web -w\nNAME   READY   UP-TO-DATE   AVAILABLE   AGE\nweb    1/1     1            1           60s\n^Z\n[1]+  Stopped                 kubectl get deploy web -w\n');
    assert.equal(parts[3], 'kubectl scale deploy web --replicas=2\ndeployment.apps/web scaled\n');
    assert.equal(parts[4], 'jobs\n[1]+  Stopped                 kubectl get deploy web -w\n');
    // nothing was read while it stood still; continued 30 s later, it writes what changed, aged as of then
    assert.equal(parts[5], 'fg\nkubectl get deploy web -w\nweb    1/2     1            1           91s\nweb    1/2     1            1           91s\nweb    1/2     2            1           91s\nweb    2/2     2            2           91s\n^C\n');
    assert.equal(parts[6], 'echo $?\n130\n');
    assert.equal(parts[7], 'jobs\n');
    assert.equal(parts[8], 'kubectl get deploy web -w &\n[1] PID\nNAME   READY   UP-TO-DATE   AVAILABLE   AGE\nweb    2/2     2            2           93s\n');
    assert.equal(parts[9], 'fg\nkubectl get deploy web -w\n^C\n');
    assert.equal(parts[10], 'jobs\n');
    assert.equal(parts[11], 'exit\nexit\n');
  });

  it('sleep at the prompt holds the terminal until the clock reaches its end (no Ctrl-Z needed)', async () => {
    const out = await replay(['sleep 2\n', 1000, 1000, 'echo $?\n', 'exit\n'], true);
    assert.equal(out, '$ sleep 2\n$ echo $?\n0\n$ exit\nexit\n');
  });
});

describe('another process works on the session while a job holds the terminal', () => {
  it('the REPL lets the session go around each wait for a tick and takes back what was written meanwhile; the held watch shows it', async () => {
    const s = new Session(loadFixture('kubeadm-calico', 1));
    let real = 1_000_000;
    s.cluster.clock = new WallClock(s.cluster.now(), () => real);
    let out = '';
    const sink = new Writable({
      write(chunk: Buffer | string, _enc, cb) {
        out += chunk.toString();
        cb();
      },
    });
    const events: string[] = [];
    let wrote = false;
    await runRepl(() => s, new Keys(['kubectl get cm -w\n', 1000, 1000, '\x03', 'exit\n'], (t) => (out += t), (ms) => (real += ms)), { stdout: sink, stderr: sink }, {
      beforeCommand: () => void events.push('lock'),
      afterCommand: () => void events.push('save'),
      holdPause: () => void events.push('pause'),
      holdResume: async () => {
        events.push('resume');
        if (wrote) return;
        wrote = true;
        // a one-shot `cka-lab kubectl create cm added` from another terminal, read back from its file
        const other = Session.fromJSON(JSON.parse(JSON.stringify(s.toJSON())), new WallClock(s.cluster.now(), () => real), CONTROLLERS);
        await other.exec('kubectl create cm added');
        s.adopt(other);
      },
    });
    assert.deepEqual(events, ['lock', 'pause', 'resume', 'pause', 'resume', 'pause', 'resume', 'save', 'lock', 'save']);
    assert.match(out, /^added\s+0\s+\d+s$/m, out);
    assert.match(out, /\^C\n\$ exit\nexit\n$/, out);
  });
});

describe('kill -STOP and -CONT on a list paused in a sleep', () => {
  it('a stopped list does not wake at its time; continued, it wakes later by the time it stood still', async () => {
    const out = await replay(['sleep 5 && echo done &\n', 'kill -STOP %1\n', 10_000, 'jobs\n', 'kill -CONT %1\n', 3000, '\n', 3000, '\n', 'exit\n'], true);
    assert.equal(
      out,
      '$ sleep 5 && echo done &\n[1] PID\n$ kill -STOP %1\n$ jobs\n[1]+  Stopped                 sleep 5 && echo done\n$ kill -CONT %1\n$ \n$ \ndone\n[1]+  Done                    sleep 5 && echo done\n$ exit\nexit\n',
    );
  });
});

describe('a pipeline the terminal holds', () => {
  it('kubectl get -w | grep: grep shows each new row as it comes; Ctrl-Z stops the whole pipeline; | wc -l shows nothing until the end; sleep | wc -l counts at the sleep end', async () => {
    const out = await replay(
      [
        'kubectl create deploy web --image=nginx\n',
        'kubectl create deploy api --image=nginx\n',
        60_000,
        'kubectl get deploy -w | grep web\n',
        1000,
        '\x1a',
        'kubectl scale deploy web --replicas=2\n',
        'kubectl scale deploy api --replicas=2\n',
        'fg\n',
        1000,
        '\x03',
        'echo $?\n',
        'kubectl get deploy -w | wc -l\n',
        1000,
        '\x03',
        'sleep 2 | wc -l\n',
        1000,
        1000,
        'jobs\n',
        'exit\n',
      ],
      true,
    );
    if (process.env['SHOW']) console.log(out);
    const parts = out.split(/^\$ /m);
    assert.equal(parts[3], 'kubectl get deploy -w | grep web\nweb    1/1     1            1           60s\n^Z\n[1]+  Stopped                 kubectl get deploy -w | grep web\n');
    // continued, grep shows the rows of what changed meanwhile (web's, not api's), aged as of then
    assert.equal(parts[6], 'fg\nkubectl get deploy -w | grep web\nweb    1/2     1            1           61s\nweb    1/2     1            1           61s\nweb    1/2     2            1           61s\n^C\n');
    assert.equal(parts[7], 'echo $?\n130\n');
    assert.equal(parts[8], 'kubectl get deploy -w | wc -l\n^C\n');
    assert.equal(parts[9], 'sleep 2 | wc -l\n0\n');
    assert.equal(parts[10], 'jobs\n');
  });
});

/** Wall-clock seconds a held `kubectl wait` gets (the ones left when it ends pass at the next prompt). */
const WAIT_TICKS = Array.from({ length: 10 }, () => 1000);

describe('kubectl wait the terminal holds', () => {
  it('prints condition met as the clock makes it true, one object after the other; --timeout ends it with the error on the object waited on; Ctrl-Z stops it, Ctrl-C ends it; & runs it in the background', async () => {
    const out = await replay(
      [
        'kubectl create deploy web --image=nginx --replicas=2\n',
        'kubectl run ok --image=nginx\n',
        'kubectl wait --for=condition=Available deploy/web --timeout=20s\n',
        ...WAIT_TICKS,
        'kubectl run nope --image=nosuch.example/x\n',
        'kubectl wait --for=condition=Ready pod/nope pod/ok --timeout=3s\n',
        1000,
        1000,
        1000,
        'echo $?\n',
        'kubectl wait --for=condition=Ready pod/nope\n',
        1000,
        '\x1a',
        'jobs\n',
        'fg\n',
        '\x03',
        'echo $?\n',
        'kubectl wait --for=delete pod/nope --timeout=60s &\n',
        'kubectl delete pod nope --wait=false\n',
        ...WAIT_TICKS,
        '\n',
        'kubectl wait --for=condition=Ready pod/nope --timeout=0\n',
        'exit\n',
      ],
      true,
    );
    if (process.env['SHOW']) console.log(out);
    const parts = out.split(/^\$ /m);
    // held until the deployment's pods are available on the wall clock (not at once, as a one-shot wait would end)
    assert.equal(parts[3], 'kubectl wait --for=condition=Available deploy/web --timeout=20s\ndeployment.apps/web condition met\n');
    // the second object is checked once the first timed out (kubectl's one deadline for the command);
    // the errors come at the end, as the visitor's aggregate
    assert.equal(parts[5], 'kubectl wait --for=condition=Ready pod/nope pod/ok --timeout=3s\npod/ok condition met\nerror: timed out waiting for the condition on pods/nope\n');
    assert.equal(parts[6], 'echo $?\n1\n');
    assert.equal(parts[7], 'kubectl wait --for=condition=Ready pod/nope\n^Z\n[1]+  Stopped                 kubectl wait --for=condition=Ready pod/nope\n');
    assert.equal(parts[8], 'jobs\n[1]+  Stopped                 kubectl wait --for=condition=Ready pod/nope\n');
    assert.equal(parts[9], 'fg\nkubectl wait --for=condition=Ready pod/nope\n^C\n');
    assert.equal(parts[10], 'echo $?\n130\n');
    assert.match(parts[11]!, /^kubectl wait --for=delete pod\/nope --timeout=60s &\n\[1\] PID\n$/);
    assert.match(parts[12]!, /^kubectl delete pod nope --wait=false\npod "nope" deleted from default namespace\n/);
    assert.match(parts[12]! + parts[13]!, /pod\/nope condition met\n\[1\]\+ {2}Done {20}kubectl wait --for=delete pod\/nope --timeout=60s\n/);
    assert.equal(parts[14], 'kubectl wait --for=condition=Ready pod/nope --timeout=0\nError from server (NotFound): pods "nope" not found\n');
  });
});

describe('watch the terminal holds', () => {
  it('draws on the alternate screen and redraws each interval as the clock moves; Ctrl-C gives the screen back and ends it with 0, unechoed; Ctrl-Z stops it, fg redraws it; & stops it at once', async () => {
    const out = await replay(
      ['kubectl create deploy web --image=nginx\n', 60_000, 'watch -n 2 kubectl get deploy web\n', 1000, 1000, '\x1a', 'kubectl scale deploy web --replicas=2\n', 'fg\n', 1000, 1000, '\x03', 'echo $?\n', 'watch -t date &\n', 'jobs\n', 'exit\n', 'exit\n'],
      true,
    );
    if (process.env['SHOW']) console.log(JSON.stringify(out));
    const parts = out.split(/^\$ /m);
    const screen = (time: string, row: string): string =>
      `\x1b[H\x1b[2JEvery 2.0s: kubectl get deploy web              cka-ws: Wed Dec  2 ${time} 2026\n\nNAME   READY   UP-TO-DATE   AVAILABLE   AGE\nweb    ${row}\n`;
    // the alternate screen (smcup), a screen every 2 s of the clock; Ctrl-Z: the screen comes back (rmcup), then bash's line
    assert.equal(
      parts[2],
      `watch -n 2 kubectl get deploy web\n\x1b[?1049h${screen('10:01:00', '1/1     1            1           60s')}${screen('10:01:02', '1/1     1            1           62s')}\x1b[?1049l\n[1]+  Stopped                 watch -n 2 kubectl get deploy web\n`,
    );
    // fg redraws the last screen, then what the scale did; Ctrl-C gives the screen back, no ^C echoed
    assert.equal(
      parts[4],
      `fg\nwatch -n 2 kubectl get deploy web\n\x1b[?1049h${screen('10:01:02', '1/1     1            1           62s')}${screen('10:01:04', '2/2     2            2           64s')}\x1b[?1049l$ echo $?\n0\n`,
    );
    // started with &, it stops at once (SIGTTOU); bash tells it when `jobs` asks
    assert.match(parts[5]!, /^watch -t date &\n\[1\] PID\n$/);
    assert.equal(parts[6], 'jobs\n[1]+  Stopped                 watch -t date\n');
  });
});

describe('a pipeline in the background', () => {
  it('kubectl get -w | grep web &: the rows of later changes reach the terminal through grep, as bash prints a background job\'s output', async () => {
    const out = await replay(
      ['kubectl create deploy web --image=nginx\n', 'kubectl create deploy api --image=nginx\n', 60_000, 'kubectl get deploy -w | grep web &\n', 'kubectl scale deploy web --replicas=2\n', 'kubectl scale deploy api --replicas=2\n', 5000, '\n', 'kill %1\n', '\n', 'exit\n'],
      true,
    );
    if (process.env['SHOW']) console.log(out);
    const parts = out.split(/^\$ /m);
    assert.match(parts[3]!, /^kubectl get deploy -w \| grep web &\n\[1\] PID\nweb {4}1\/1 {5}1 {12}1 {11}60s\n$/);
    // grep passes web's rows (not api's) as the watch writes them
    assert.equal(parts[4], 'kubectl scale deploy web --replicas=2\ndeployment.apps/web scaled\nweb    1/2     1            1           60s\nweb    1/2     1            1           60s\nweb    1/2     2            1           60s\n');
    assert.equal(parts[5], 'kubectl scale deploy api --replicas=2\ndeployment.apps/api scaled\n');
    assert.equal(parts[6], '\nweb    2/2     2            2           65s\n');
    assert.equal(parts[8], '\n[1]+  Terminated              kubectl get deploy -w | grep web\n');
  });
});

describe('kubectl logs -f the terminal holds', () => {
  it('prints each new line as the wall clock moves; Ctrl-Z stops it (the lines wait), fg writes them, Ctrl-C ends it', async () => {
    const out = await replay(
      ["kubectl run p --image=busybox -- sh -c 'while true; do echo tick; sleep 2; done'\n", 'kubectl wait --for=condition=Ready pod/p\n', ...WAIT_TICKS, 'kubectl logs -f p --tail=1\n', 1000, 1000, 1000, 1000, '\x1a', 'jobs\n', 4000, 'fg\n', '\x03', 'echo $?\n', 'exit\n'],
      true,
    );
    if (process.env['SHOW']) console.log(out);
    const parts = out.split(/^\$ /m);
    assert.equal(parts[3], 'kubectl logs -f p --tail=1\ntick\ntick\ntick\n^Z\n[1]+  Stopped                 kubectl logs -f p --tail=1\n');
    assert.equal(parts[4], 'jobs\n[1]+  Stopped                 kubectl logs -f p --tail=1\n');
    assert.equal(parts[5], 'fg\nkubectl logs -f p --tail=1\ntick\ntick\n^C\n');
    assert.equal(parts[6], 'echo $?\n130\n');
  });
});

describe('kubectl rollout status the terminal holds', () => {
  it('prints each new message as the wall clock moves and ends 0 when the rollout is done; Ctrl-Z stops it', async () => {
    const out = await replay(['kubectl create deploy web --image=nginx --replicas=3\n', 'kubectl rollout status deploy/web\n', 500, '\x1a', 'jobs\n', 'fg\n', 1000, 1000, 1000, 1000, 1000, 1000, 'echo $?\n', 'jobs\n', 'exit\n'], true);
    if (process.env['SHOW']) console.log(out);
    const parts = out.split(/^\$ /m);
    assert.match(parts[2]!, /^kubectl rollout status deploy\/web\nWaiting for deployment "web" rollout to finish: 0 of 3 updated replicas are available\.\.\.\n\^Z\n\[1\]\+ {2}Stopped {17}kubectl rollout status deploy\/web\n$/);
    assert.match(parts[4]!, /^fg\nkubectl rollout status deploy\/web\n(Waiting for deployment "web" rollout to finish: [12] of 3 updated replicas are available\.\.\.\n)*deployment "web" successfully rolled out\n$/);
    assert.equal(parts[5], 'echo $?\n0\n');
    assert.equal(parts[6], 'jobs\n');
  });
});

describe('a list the terminal holds', () => {
  it('sleep 2; kubectl get …; sleep 100: the list runs on when the sleep ends on the wall clock, and its next sleep is held in turn', async () => {
    const out = await replay(['kubectl create deploy web --image=nginx\n', 'sleep 2; kubectl get deploy web; sleep 100\n', 1000, 1000, '\x1a', 'echo $?\n', 'jobs\n', 'exit\n'], true);
    if (process.env['SHOW']) console.log(out);
    const parts = out.split(/^\$ /m);
    assert.equal(parts[2], 'sleep 2; kubectl get deploy web; sleep 100\nNAME   READY   UP-TO-DATE   AVAILABLE   AGE\nweb    1/1     1            1           2s\n^Z\n[1]+  Stopped                 sleep 100\n');
    assert.equal(parts[3], 'echo $?\n148\n');
    assert.equal(parts[4], 'jobs\n[1]+  Stopped                 sleep 100\n');
  });
});
