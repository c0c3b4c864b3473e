/**
 * The REPL on a real pseudo-terminal (util-linux `script` allocates it; Debian ships it in the
 * essential bsdutils package): the bytes a terminal sends for Ctrl-R, Tab and Enter go through
 * the kernel's tty layer, node:readline's raw-mode key decoding, and `cka-lab shell` as a learner
 * runs it. Skipped, and saying why, where `script` is missing.
 */
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { spawn, spawnSync } from 'node:child_process';
import { mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { extname, join } from 'node:path';

/** run-main beside the CLI: .ts under tsx, .js when the tests run compiled (scripts/test.mjs). */
const EXT = extname(new URL(import.meta.url).pathname);
const MAIN = new URL(`../cli/testing/run-main${EXT}`, import.meta.url).pathname;
const LOADER = EXT === '.ts' ? '--import tsx ' : '';
const HAS_SCRIPT = spawnSync('script', ['--version'], { encoding: 'utf8' }).status === 0;

/** `cka-lab shell` on a pseudo-terminal: type bytes, wait for what the screen shows. */
function ptyShell(): { type(bytes: string): void; waitFor(re: RegExp, from?: number): Promise<number>; screen(): string; close(): Promise<void> } {
  const data = mkdtempSync(join(tmpdir(), 'cka-lab-tty-'));
  const cmd = `${process.execPath} ${LOADER}${MAIN} shell --session tty`;
  const p = spawn('script', ['-qfec', cmd, '/dev/null'], { env: { ...process.env, XDG_DATA_HOME: data, HOME: data, TERM: 'xterm', TZ: 'UTC' }, stdio: ['pipe', 'pipe', 'pipe'] });
  let out = '';
  p.stdout.on('data', (b: Buffer) => (out += b.toString('utf8')));
  const closed = new Promise<void>((r) => p.on('close', () => r()));
  return {
    type: (bytes) => void p.stdin.write(bytes),
    screen: () => out,
    async waitFor(re, from = 0) {
      const until = Date.now() + 20_000;
      for (;;) {
        const m = re.exec(out.slice(from));
        if (m) return from + m.index + m[0].length;
        if (Date.now() > until) throw new Error(`the terminal never showed ${re}; it shows:\n${JSON.stringify(out.slice(from).slice(-600))}`);
        await new Promise((r) => setTimeout(r, 25));
      }
    },
    async close() {
      p.stdin.write('exit\r');
      p.stdin.end();
      await closed;
    },
  };
}

const PROMPT = /root@cka-ws:[^#]*# /;

test('on a real terminal: Ctrl-R, Tab on paths and flags, kubectl completion sourced', { skip: HAS_SCRIPT ? false : 'util-linux `script` is not installed' }, async () => {
  const t = ptyShell();
  try {
    let at = await t.waitFor(PROMPT);
    t.type('kubectl get ns kube-system\r');
    at = await t.waitFor(/kube-system\s+Active/, at);
    at = await t.waitFor(PROMPT, at);
    t.type('echo other\r');
    at = await t.waitFor(PROMPT, await t.waitFor(/other\r\n/, at));

    // Ctrl-R finds the earlier command; Enter runs it again
    t.type('\x12kube-sy');
    at = await t.waitFor(/\(reverse-i-search\)`kube-sy': kubectl get ns kube-system/, at);
    t.type('\r');
    at = await t.waitFor(/kube-system\s+Active/, at);
    at = await t.waitFor(PROMPT, at);

    // Tab on a path, from the working directory after cd
    t.type('mkdir -p /opt/course/7 && touch /opt/course/7/answer.txt && cd /opt/course\r');
    at = await t.waitFor(/root@cka-ws:\/opt\/course# /, at);
    t.type('ls 7/ans\t');
    at = await t.waitFor(/ls 7\/answer\.txt/, at);
    t.type('\r');
    at = await t.waitFor(/7\/answer\.txt\r\n/, at);
    at = await t.waitFor(PROMPT, at);

    // kubectl's completion script sourced from a process substitution, the alias completed too
    t.type('source <(kubectl completion bash); alias k=kubectl; complete -o default -F __start_kubectl k\r');
    at = await t.waitFor(PROMPT, at);
    t.type('k get po --sel\t');
    at = await t.waitFor(/k get po --selector=/, at);
    t.type('tier=none -A\r');
    await t.waitFor(/No resources found/, at);
  } finally {
    await t.close();
  }
  assert.ok(!/Error|at .*\.js:\d+/.test(t.screen().replace(/No resources found/g, '')), `no stack trace on the terminal:\n${t.screen().slice(-800)}`);
});

test('on a real terminal: Ctrl-Z stops the job the terminal holds, bg and fg continue it, Ctrl-C ends it', { skip: HAS_SCRIPT ? false : 'util-linux `script` is not installed' }, async () => {
  const t = ptyShell();
  try {
    let at = await t.waitFor(PROMPT);
    t.type('sleep 300\r');
    await new Promise((r) => setTimeout(r, 300));
    t.type('\x1a');
    // the key comes through node:readline's raw mode as ours: ^Z, then bash's notice
    at = await t.waitFor(/\^Z\r\n\[1\]\+ {2}Stopped {17}sleep 300\r\n/, at);
    at = await t.waitFor(PROMPT, at);
    t.type('kubectl get ns -w\r');
    at = await t.waitFor(/kube-system\s+Active\s+\S+\r\n/, at);
    t.type('\x1a');
    at = await t.waitFor(/\^Z\r\n\[2\]\+ {2}Stopped {17}kubectl get ns -w\r\n/, at);
    at = await t.waitFor(PROMPT, at);
    t.type('jobs\r');
    at = await t.waitFor(/\[1\]- {2}Stopped {17}sleep 300\r\n\[2\]\+ {2}Stopped {17}kubectl get ns -w\r\n/, at);
    t.type('bg\r');
    at = await t.waitFor(/\[2\]\+ kubectl get ns -w &\r\n/, at);
    t.type('fg %1\r');
    at = await t.waitFor(/sleep 300\r\n/, at);
    await new Promise((r) => setTimeout(r, 300));
    t.type('\x03');
    at = await t.waitFor(/\^C\r\n/, at);
    t.type('echo "rc=$?"\r');
    at = await t.waitFor(/rc=130\r\n/, at);
    t.type('fg\r');
    at = await t.waitFor(/kubectl get ns -w\r\n/, at);
    await new Promise((r) => setTimeout(r, 300));
    t.type('\x03');
    at = await t.waitFor(/\^C\r\n/, at);
    t.type('jobs; echo done\r');
    await t.waitFor(/jobs; echo done\r+\ndone\r\n/, at);
  } finally {
    await t.close();
  }
});
