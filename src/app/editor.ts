/**
 * The editor hook behind `vim`, `vi`, `nano` and `kubectl edit`: the text goes to a temp file,
 * the user's own editor ($VISUAL, then $EDITOR, else vi, run through `sh -c` as git and kubectl do
 * so `EDITOR="code --wait"` works) opens it with the terminal handed over, and the saved text comes
 * back. A non-zero exit of the editor means "cancelled" (undefined), like kubectl's editor.
 */
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { createRequire } from 'node:module';
import { join } from 'node:path';
import type { Editor } from '../shell/session.js';

/**
 * node:child_process, loaded when an editor first runs: every command that opens a session builds
 * an editor, few run one, and loading the module (with its internal/child_process, dgram…) cost a
 * one-shot `cka-lab kubectl get` ~6 ms of its start.
 */
const childProcess = (): typeof import('node:child_process') => createRequire(import.meta.url)('node:child_process') as typeof import('node:child_process');

export interface EditorHooks {
  /** Called around the child process so the REPL lets go of the terminal. */
  suspend?(): void;
  resume?(): void;
}

export function editorCommand(env: Record<string, string | undefined>): string {
  return env['VISUAL'] || env['EDITOR'] || 'vi';
}

export function makeEditor(env: Record<string, string | undefined>, hooks: EditorHooks = {}): Editor {
  return async (text, fileName) => {
    const dir = mkdtempSync(join(tmpdir(), 'cka-lab-edit-'));
    const file = join(dir, fileName.replace(/[^A-Za-z0-9._-]/g, '_') || 'file');
    try {
      writeFileSync(file, text, { mode: 0o600 });
      hooks.suspend?.();
      const r = childProcess().spawnSync('sh', ['-c', `${editorCommand(env)} "$1"`, 'editor', file], { stdio: 'inherit', env: { ...process.env, ...env } });
      hooks.resume?.();
      if (r.error || r.status !== 0) return undefined;
      return readFileSync(file, 'utf8');
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }
  };
}
