/**
 * A file kubectl reads from the machine it runs on (`--patch-file`, `--from-file`, `-f`): Go's
 * os.ReadFile, for which /dev/stdin (and /dev/fd/0, /proc/self/fd/0) is the command's standard
 * input — `kubectl patch … --patch-file=/dev/stdin <<'EOF'` works as it does for real.
 */
import { resolvePath } from '../../sim/node/vfs.js';
import type { KubectlEnv } from './context.js';

const STDIN_PATHS = new Set(['/dev/stdin', '/dev/fd/0', '/proc/self/fd/0']);

/** The file's text, or undefined when it does not exist. */
export function readLocalFile(env: Pick<KubectlEnv, 'fs' | 'cwd' | 'stdin'>, path: string): string | undefined {
  const abs = resolvePath(env.cwd, path);
  return STDIN_PATHS.has(abs) ? env.stdin : env.fs.tryRead(abs);
}

/** Whether the path names the command's standard input. */
export function isStdinPath(env: Pick<KubectlEnv, 'cwd'>, path: string): boolean {
  return STDIN_PATHS.has(resolvePath(env.cwd, path));
}
