/**
 * Where cka-lab keeps its files: the XDG Base Directory data home (`$XDG_DATA_HOME/cka-lab`, else
 * `~/.local/share/cka-lab`), per the XDG Base Directory Specification. The package root (for
 * `fixtures/` and `scenarios/`) is found from this module's own location, never from the cwd, so
 * `npx cka-lab` works from any directory.
 */
import { homedir } from 'node:os';
import { join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';

export function dataDir(env: Record<string, string | undefined>): string {
  const xdg = env['XDG_DATA_HOME'];
  // the spec says a relative XDG_DATA_HOME is invalid and must be ignored
  if (xdg && xdg.startsWith('/')) return join(xdg, 'cka-lab');
  return join(env['HOME'] || homedir(), '.local', 'share', 'cka-lab');
}

/** The package root: src/app/paths.ts and dist/app/paths.js both sit two levels below it. */
export function packageRoot(): string {
  return resolve(fileURLToPath(new URL('.', import.meta.url)), '..', '..');
}

/** A session name is a file name: keep it to a safe alphabet. */
export function validSessionName(name: string): boolean {
  return /^[A-Za-z0-9][A-Za-z0-9._-]{0,63}$/.test(name);
}
