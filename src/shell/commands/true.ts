/**
 * /bin/true as an executable (coreutils src/true.c; busybox's applet): what `kubectl exec POD --
 * true` and `xargs true` run, where no shell's builtin answers. It ignores its arguments.
 */
import type { CommandFn } from '../types.js';

export const trueCmd: CommandFn = () => ({ stdout: '', stderr: '', exitCode: 0 });
