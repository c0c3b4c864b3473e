/**
 * How OpenSSH's ssh(1) reads its command line (openssh-portable ssh.c main(): the getopt string
 * "1246ab:c:e:fgi:kl:m:no:p:qstvxAB:CD:E:F:GI:J:KL:MNO:P:Q:R:S:TVw:W:XYy"): options may come before
 * and right after the destination; the first word that is not an option after the destination
 * starts the remote command, whose words are joined with single spaces into one string that the
 * remote user's shell runs (`bash -c`). `--` ends the options. `-l USER` and `USER@HOST` name the user.
 */

/** Option letters that take an argument (the letters followed by ':' in ssh.c's getopt string). */
const WITH_ARG = new Set('bceilmopBDEFIJLOPQRSwW'.split(''));
const FLAGS = new Set('1246afgknqstvxACGKMNTVXYy'.split(''));

export const SSH_USAGE = 'usage: ssh [-46AaCfGgKkMNnqsTtVvXxYy] [-B bind_interface] [-b bind_address]\n           [-c cipher_spec] [-D [bind_address:]port] [-E log_file]\n           [-e escape_char] [-F configfile] [-I pkcs11] [-i identity_file]\n           [-J destination] [-L address] [-l login_name] [-m mac_spec]\n           [-O ctl_cmd] [-o option] [-P tag] [-p port] [-R address]\n           [-S ctl_path] [-W host:port] [-w local_tun[:remote_tun]]\n           destination [command [argument ...]]\n       ssh [-Q query_option]\n';

export interface SshArgs {
  /** The destination as typed: `host` or `user@host`. */
  destination: string;
  /** `-l` login name, when given. */
  login?: string;
  /** The remote command line, when words follow the destination. */
  command?: string;
}

/** Parse ssh's arguments (argv without `ssh`); a string is the usage or option error to print. */
export function parseSshArgs(args: readonly string[]): SshArgs | string {
  let destination: string | undefined;
  let login: string | undefined;
  const rest: string[] = [];
  let i = 0;
  let optionsDone = false;
  while (i < args.length) {
    const a = args[i]!;
    if (!optionsDone && a === '--') {
      optionsDone = true;
      i++;
      continue;
    }
    if (!optionsDone && a.startsWith('-') && a.length > 1) {
      // a cluster of letters: `-tt`, `-p22`, `-lroot`
      for (let j = 1; j < a.length; j++) {
        const ch = a[j]!;
        if (WITH_ARG.has(ch)) {
          const value = j + 1 < a.length ? a.slice(j + 1) : args[++i];
          if (value === undefined) return `option requires an argument -- ${ch}\n${SSH_USAGE}`;
          if (ch === 'l') login = value;
          break;
        }
        if (!FLAGS.has(ch)) return `unknown option -- ${ch}\n${SSH_USAGE}`;
      }
      i++;
      continue;
    }
    if (destination === undefined) {
      destination = a;
      i++;
      continue;
    }
    rest.push(...args.slice(i));
    break;
  }
  if (destination === undefined) return SSH_USAGE;
  return { destination, ...(login !== undefined ? { login } : {}), ...(rest.length ? { command: rest.join(' ') } : {}) };
}
