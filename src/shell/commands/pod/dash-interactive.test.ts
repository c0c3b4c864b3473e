/**
 * `kubectl exec -it POD -- sh` in a Debian-based image is an interactive dash (Debian's /bin/sh):
 * prompt `# `, errors `sh: N: …` with N the count of lines typed (empty ones too; a line with a
 * syntax error is not counted), `not found` also for a path, and dash's cd and exit. Replayed
 * against testdata/dash-interactive.txt, recorded from the real dash 0.5.12 on a pseudo-terminal by
 * testdata/record-dash-interactive.sh with the lines of testdata/dash-interactive-input.txt.
 */
import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import { test } from 'node:test';
import { loadFixture } from '../../../testing/fixtures.js';
import { CONTROLLERS } from '../../../sim/controllers/index.js';
import { ManualClock } from '../../../util/clock.js';
import { Session, type SessionData } from '../../session.js';

const read = (name: string): string => readFileSync(new URL(`./testdata/${name}`, import.meta.url), 'utf8');

/** The session as `cka-lab shell` saves it after a line and opens it again. */
function saveAndRestore(s: Session): Session {
  return Session.fromJSON(JSON.parse(JSON.stringify(s.toJSON())) as SessionData, new ManualClock(s.cluster.now()), CONTROLLERS);
}

for (const resume of [false, true]) {
  test(`an interactive sh in a Debian-based container speaks as dash${resume ? ', its line count kept across saved sessions' : ''}`, async () => {
    const input = read('dash-interactive-input.txt').replace(/\n$/, '').split('\n');
    let s = new Session(loadFixture('kubeadm-calico', 1));
    for (const l of ['kubectl run deb --image=nginx', 'sleep 20']) await s.exec(l);
    const enter = await s.exec('kubectl exec -it deb -- sh');
    assert.equal(enter.exitCode, 0, enter.stderr);
    let out = '';
    let code = 0;
    for (const l of input) {
      if (resume) s = saveAndRestore(s);
      out += s.prompt();
      const r = await s.exec(l);
      out += r.output.map((c) => c.text).join('');
      code = r.exitCode;
    }
    out += `[exit ${code}]\n`;
    assert.equal(out, read('dash-interactive.txt'));
    // the shell has ended: the workstation's prompt again
    assert.equal(s.prompt(), 'root@cka-ws:~# ');
  });
}
