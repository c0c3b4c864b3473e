import { readFileSync } from 'node:fs';
import { Session } from '../shell/session.js';
import { loadFixture } from './fixtures.js';

/**
 * The cases of a shell recording made by src/shell/testdata/record-child-shells.sh: `$ CASE` (one
 * line; its newlines are written $'\n'), then the real shell's merged stdout and stderr and
 * `[exit N]`.
 */
export function recordedShellCases(text: string): Array<{ cmd: string; expected: string }> {
  const out: Array<{ cmd: string; expected: string }> = [];
  for (const block of text.split(/^\$ /m).slice(1)) {
    const nl = block.indexOf('\n');
    out.push({ cmd: block.slice(0, nl), expected: block.slice(nl + 1) });
  }
  return out;
}

/**
 * Runs each case in `s` and returns the ones whose output differs from the recording, as a diff
 * to read. `merged`: the shell's output as it interleaved stdout and stderr (the recording's own
 * order), or stdout then stderr (cases that write to only one of them).
 */
export async function replayShellCases(s: Session, cases: ReadonlyArray<{ cmd: string; expected: string }>, merged: 'interleaved' | 'stdout-then-stderr' = 'interleaved'): Promise<string[]> {
  const wrong: string[] = [];
  for (const c of cases) {
    const r = await s.exec(c.cmd);
    const text = merged === 'interleaved' ? r.output.map((o) => o.text).join('') : `${r.stdout}${r.stderr}`;
    const got = `${text}[exit ${r.exitCode}]\n`;
    if (got !== c.expected) wrong.push(`$ ${c.cmd}\n--- bash/dash\n${c.expected}+++ cka-lab\n${got}`);
  }
  return wrong;
}

/**
 * A recording file replayed whole: a new kubeadm-calico session works in `dir` (made first) and
 * runs every case of `file`. Returns the cases that differ, or a complaint when the file holds
 * fewer than `min` cases (a recording cut short proves nothing).
 */
export async function replayRecordingFile(file: URL, dir: string, min: number): Promise<string[]> {
  const cases = recordedShellCases(readFileSync(file, 'utf8'));
  if (cases.length < min) return [`${file.pathname}: only ${cases.length} cases (at least ${min} recorded)`];
  const s = new Session(loadFixture('kubeadm-calico', 1));
  await s.exec(`mkdir -p ${dir} && cd ${dir}`);
  return replayShellCases(s, cases);
}

/**
 * A recording of BusyBox (src/shell/testdata/record-ash.sh) replayed in a busybox pod: its
 * interactive sh (ash, busybox's applets) in `dir`, every case of `file` typed there. Returns the
 * cases that differ, or a complaint when the file holds fewer than `min` cases. `banner`: the
 * recording's `BusyBox v… multi-call binary.` line (its build's date or distribution) is the
 * simulated image's own.
 */
export async function replayInBusyboxPod(file: URL, dir: string, min: number, banner?: string): Promise<string[]> {
  let text = readFileSync(file, 'utf8');
  if (banner !== undefined) text = text.replace(/^BusyBox v\S+ \(.*\) multi-call binary\.\n/gm, banner);
  const cases = recordedShellCases(text);
  if (cases.length < min) return [`${file.pathname}: only ${cases.length} cases (at least ${min} recorded)`];
  const s = new Session(loadFixture('kubeadm-calico', 1));
  const enter = await enterBusyboxPod(s);
  if (enter.exitCode !== 0) return [`kubectl exec -it bb -- sh: ${enter.stderr}`];
  await s.exec(`mkdir -p ${dir} && cd ${dir}`);
  return replayShellCases(s, cases);
}

/** A busybox pod `bb` started and its interactive sh (ash) entered. */
async function enterBusyboxPod(s: Session): Promise<{ exitCode: number; stderr: string }> {
  for (const l of ['kubectl run bb --image=busybox -- sleep 3600', 'sleep 20']) await s.exec(l);
  return s.exec('kubectl exec -it bb -- sh');
}

/**
 * Lines typed one by one at a new kubeadm-calico session's prompt (`in: 'busybox'`: a busybox
 * pod's interactive ash), each with everything it printed, stdout and stderr as they came: what a
 * table of [line, output] pairs recorded at a real prompt is compared with.
 */
export async function typedLines(lines: ReadonlyArray<readonly [string, string]>, where: 'bash' | 'busybox' = 'bash'): Promise<Array<[string, string]>> {
  const s = new Session(loadFixture('kubeadm-calico', 1));
  if (where === 'busybox') await enterBusyboxPod(s);
  const got: Array<[string, string]> = [];
  for (const [line] of lines) {
    const r = await s.exec(line);
    got.push([line, r.output.map((o) => o.text).join('')]);
  }
  return got;
}
