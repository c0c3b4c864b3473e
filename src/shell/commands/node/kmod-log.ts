/**
 * kmod's tools print errors through tools/log.c log_printf: `PROG: ERROR: message` (kmod 31,
 * Ubuntu 24.04's kmod package). Shared by rmmod, insmod and modinfo.
 */
export function kmodError(prog: string, msg: string): string {
  return `${prog}: ERROR: ${msg}\n`;
}

/** getopt_long's complaint for an option a kmod tool does not know (then exit 1). */
export function kmodBadOption(prog: string, arg: string): string {
  return arg.startsWith('--') ? `${prog}: unrecognized option '${arg}'\n` : `${prog}: invalid option -- '${arg.slice(1, 2)}'\n`;
}
