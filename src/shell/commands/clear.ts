/** clear — ncurses clear: the escape sequence it writes for TERM=xterm (home, erase screen, erase scrollback). */
import type { CommandFn } from '../types.js';

export const clear: CommandFn = () => ({ stdout: '\x1b[H\x1b[2J\x1b[3J', stderr: '', exitCode: 0 });
