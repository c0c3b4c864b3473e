/** /bin/false as an executable (coreutils src/false.c; busybox's applet): exit status 1, whatever the arguments. */
import type { CommandFn } from '../types.js';

export const falseCmd: CommandFn = () => ({ stdout: '', stderr: '', exitCode: 1 });
