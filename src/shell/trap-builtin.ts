/**
 * The pure parts of bash's `trap` (builtins/trap.def, trap.c, sig.c): signal specifications
 * (names with or without SIG in any case, numbers, the EXIT/ERR/DEBUG/RETURN pseudo-signals),
 * the `trap -p` listing in bash's order and quoting, and `trap -l` (recorded from bash 5.2 on
 * Linux x86_64). The interpreter keeps the traps per shell and runs EXIT and ERR ones.
 */

/** `trap -l`, as bash 5.2 prints it on Linux x86_64. */
export const TRAP_LIST = " 1) SIGHUP\t 2) SIGINT\t 3) SIGQUIT\t 4) SIGILL\t 5) SIGTRAP\n 6) SIGABRT\t 7) SIGBUS\t 8) SIGFPE\t 9) SIGKILL\t10) SIGUSR1\n11) SIGSEGV\t12) SIGUSR2\t13) SIGPIPE\t14) SIGALRM\t15) SIGTERM\n16) SIGSTKFLT\t17) SIGCHLD\t18) SIGCONT\t19) SIGSTOP\t20) SIGTSTP\n21) SIGTTIN\t22) SIGTTOU\t23) SIGURG\t24) SIGXCPU\t25) SIGXFSZ\n26) SIGVTALRM\t27) SIGPROF\t28) SIGWINCH\t29) SIGIO\t30) SIGPWR\n31) SIGSYS\t34) SIGRTMIN\t35) SIGRTMIN+1\t36) SIGRTMIN+2\t37) SIGRTMIN+3\n38) SIGRTMIN+4\t39) SIGRTMIN+5\t40) SIGRTMIN+6\t41) SIGRTMIN+7\t42) SIGRTMIN+8\n43) SIGRTMIN+9\t44) SIGRTMIN+10\t45) SIGRTMIN+11\t46) SIGRTMIN+12\t47) SIGRTMIN+13\n48) SIGRTMIN+14\t49) SIGRTMIN+15\t50) SIGRTMAX-14\t51) SIGRTMAX-13\t52) SIGRTMAX-12\n53) SIGRTMAX-11\t54) SIGRTMAX-10\t55) SIGRTMAX-9\t56) SIGRTMAX-8\t57) SIGRTMAX-7\n58) SIGRTMAX-6\t59) SIGRTMAX-5\t60) SIGRTMAX-4\t61) SIGRTMAX-3\t62) SIGRTMAX-2\n63) SIGRTMAX-1\t64) SIGRTMAX\t\n";

export const TRAP_USAGE = 'trap: usage: trap [-lp] [[arg] signal_spec ...]';

/** Linux signal numbers of the names bash knows (sig.c), without the SIG prefix. */
export const SIGNALS: Record<string, number> = {
  HUP: 1, INT: 2, QUIT: 3, ILL: 4, TRAP: 5, ABRT: 6, BUS: 7, FPE: 8, KILL: 9, USR1: 10, SEGV: 11, USR2: 12, PIPE: 13, ALRM: 14, TERM: 15,
  STKFLT: 16, CHLD: 17, CONT: 18, STOP: 19, TSTP: 20, TTIN: 21, TTOU: 22, URG: 23, XCPU: 24, XFSZ: 25, VTALRM: 26, PROF: 27, WINCH: 28, IO: 29, PWR: 30, SYS: 31,
};
const PSEUDO = ['EXIT', 'ERR', 'DEBUG', 'RETURN'];

/** The canonical key of a signal spec (`EXIT`, `SIGINT`, `ERR`…), or undefined when bash would not know it. */
export function signalKey(spec: string): string | undefined {
  if (/^\d+$/.test(spec)) {
    const n = Number(spec);
    if (n === 0) return 'EXIT';
    const name = Object.keys(SIGNALS).find((k) => SIGNALS[k] === n);
    return name ? `SIG${name}` : undefined;
  }
  const up = spec.toUpperCase();
  if (PSEUDO.includes(up)) return up;
  const bare = up.startsWith('SIG') ? up.slice(3) : up;
  return SIGNALS[bare] !== undefined ? `SIG${bare}` : undefined;
}

/** trap -p order: EXIT, the signals by number, then ERR, DEBUG and RETURN (trap.c). */
function rank(key: string): number {
  if (key === 'EXIT') return 0;
  const n = SIGNALS[key.slice(3)];
  return n !== undefined ? n : 100 + PSEUDO.indexOf(key);
}

/** `trap -p [KEY…]`: one `trap -- 'ACTION' KEY` line per set trap, quoted as bash's sh_single_quote. */
export function trapListing(traps: ReadonlyMap<string, string>, only?: readonly string[]): string {
  const keys = [...traps.keys()].filter((k) => !only || only.includes(k)).sort((a, b) => rank(a) - rank(b));
  return keys.map((k) => `trap -- '${traps.get(k)!.replace(/'/g, "'\\''")}' ${k}\n`).join('');
}
