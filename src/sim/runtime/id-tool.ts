/**
 * The words of `id` and `whoami` for a process identity (identity.ts), as busybox (coreutils/id.c,
 * whoami.c) and GNU coreutils 9 (src/id.c, whoami.c) print them: `kubectl exec POD -- id` and a
 * container's own `sh -c 'id && sleep 1h'` share them. Recorded from busybox 1.35 and coreutils
 * 9.1 in a chroot holding the images' /etc/passwd and /etc/group, run as the same uid, gid and
 * groups.
 */
import { userByName } from './accounts.js';
import { groupName, userName, type ProcessIdentity } from './identity.js';

export interface ToolOutput {
  /** In the order the tool writes them. */
  chunks: Array<{ stream: 'stdout' | 'stderr'; text: string }>;
  exitCode: number;
}

const BANNER = 'BusyBox v1.36.1 (2023-05-18 22:34:17 UTC) multi-call binary.\n\n';
const ID_USAGE = `${BANNER}Usage: id [-ugGnr] [USER]\n\nPrint information about USER or the current user\n\n\t-u\tUser ID\n\t-g\tGroup ID\n\t-G\tSupplementary group IDs\n\t-n\tPrint names instead of numbers\n\t-r\tPrint real ID instead of effective ID\n`;

const out = (text: string): ToolOutput => ({ chunks: [{ stream: 'stdout', text }], exitCode: 0 });
const fail = (text: string, exitCode = 1): ToolOutput => ({ chunks: [{ stream: 'stderr', text }], exitCode });
const named = (n: number, name: string | undefined): string => (name === undefined ? String(n) : `${n}(${name})`);

/** `id [-ugGnr] [USER]`. */
export function idTool(who: ProcessIdentity, busybox: boolean, args: readonly string[]): ToolOutput {
  let opts = '';
  const operands: string[] = [];
  for (const a of args) {
    if (a.startsWith('-') && a.length > 1) {
      const bad = [...a.slice(1)].find((ch) => !'ugGnr'.includes(ch));
      if (bad !== undefined) return fail(busybox ? `id: invalid option -- '${bad}'\n${ID_USAGE}` : `id: invalid option -- '${bad}'\nTry 'id --help' for more information.\n`);
      opts += a.slice(1);
    } else operands.push(a);
  }
  let ident = who;
  if (operands[0] !== undefined) {
    // id USER: the user's database entry and its groups in /etc/group (the process plays no part)
    const pw = ident.accounts ? userByName(ident.accounts, operands[0]) : undefined;
    if (!pw) return fail(busybox ? `id: unknown user ${operands[0]}\n` : `id: '${operands[0]}': no such user\n`);
    const member = (ident.accounts?.groups ?? []).filter((g) => g.members.includes(pw.name)).map((g) => g.gid);
    ident = { ...ident, uid: pw.uid, gid: pw.gid, groups: [...new Set([pw.gid, ...member])].sort((a, b) => a - b) };
  }
  const has = (c: string): boolean => opts.includes(c);
  const only = ['u', 'g', 'G'].filter(has);
  if (only.length === 0) {
    if (has('n') || has('r')) return fail(busybox ? ID_USAGE : 'id: cannot print only names or real IDs in default format\n');
    // busybox prints getgroups(2) as the kernel sorted it; coreutils puts the group first
    const list = busybox ? ident.groups : [ident.gid, ...ident.groups.filter((g) => g !== ident.gid)];
    const groups = list.length ? ` groups=${list.map((g) => named(g, groupName(ident, g))).join(',')}` : '';
    return out(`uid=${named(ident.uid, userName(ident))} gid=${named(ident.gid, groupName(ident, ident.gid))}${groups}\n`);
  }
  if (only.length > 1) return fail(busybox ? ID_USAGE : 'id: cannot print "only" of more than one choice\n');
  const ids = only[0] === 'u' ? [ident.uid] : only[0] === 'g' ? [ident.gid] : [ident.gid, ...ident.groups.filter((g) => g !== ident.gid)];
  if (!has('n')) return out(`${ids.join(' ')}\n`);
  return namesOf(ids, only[0] === 'u' ? 'user' : 'group', ident, busybox);
}

/**
 * `-n`: each id's name; an id without one is printed as a number after an error, and the exit
 * status is 1. busybox writes the number, then the error, then the separator; coreutils the error
 * first.
 */
function namesOf(ids: number[], kind: 'user' | 'group', ident: ProcessIdentity, busybox: boolean): ToolOutput {
  const chunks: ToolOutput['chunks'] = [];
  let failed = false;
  ids.forEach((n, i) => {
    const name = kind === 'user' ? userName(ident, n) : groupName(ident, n);
    const sep = i === ids.length - 1 ? '\n' : ' ';
    if (name !== undefined) chunks.push({ stream: 'stdout', text: name + sep });
    else {
      failed = true;
      if (busybox) chunks.push({ stream: 'stdout', text: String(n) }, { stream: 'stderr', text: `id: unknown ID ${n}\n` }, { stream: 'stdout', text: sep });
      else chunks.push({ stream: 'stderr', text: `id: cannot find name for ${kind} ID ${n}\n` }, { stream: 'stdout', text: String(n) + sep });
    }
  });
  return { chunks, exitCode: failed ? 1 : 0 };
}

/** `whoami`. */
export function whoamiTool(who: ProcessIdentity, busybox: boolean, args: readonly string[]): ToolOutput {
  if (args[0] !== undefined)
    return fail(busybox ? `${BANNER}Usage: whoami\n\nPrint the user name associated with the current effective user id\n` : `whoami: extra operand '${args[0]}'\nTry 'whoami --help' for more information.\n`);
  const name = userName(who);
  if (name !== undefined) return out(`${name}\n`);
  return fail(busybox ? `whoami: unknown uid ${who.uid}\n` : `whoami: cannot find name for user ID ${who.uid}\n`);
}
