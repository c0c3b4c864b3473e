/** Inputs and output shared by the DNS client emulations (pure: argv in, printed text out). */
import type { Clock } from '../../../util/clock.js';
import type { Random } from '../../../util/random.js';
import type { QueryFn } from '../stub/query.js';

export interface ClientInput {
  /** argv without the program name. */
  args: string[];
  /** The container's /etc/resolv.conf text. */
  resolvConf: string;
  /** The container's /etc/hosts text (getaddrinfo's `files` source), when the client reads it. */
  hosts?: string;
  query: QueryFn;
  clock: Clock;
  random: Random;
  /**
   * How the tool turns a server given by name (`dig @NAME`, `host NAME SERVER`, `nslookup NAME
   * SERVER`) into addresses: getaddrinfo in the container (/etc/hosts, then its resolv.conf with
   * the image's stub-resolver rules). Absent: the argument is used as the address as it is.
   */
  resolveServer?: (name: string) => ServerLookup;
}

/**
 * The outcome of resolving a server name. `error` is bind9's isc_result text for the getaddrinfo
 * failure (lib/isc/getaddresses.c: EAI_NONAME/EAI_NODATA → "not found", anything else → "failure").
 */
export type ServerLookup =
  | { ok: true; addresses: string[]; elapsedMs: number }
  | { ok: false; error: 'not found' | 'failure'; elapsedMs: number };

export interface ClientResult {
  stdout: string;
  stderr: string;
  exitCode: number;
  /** Simulated time the command took (timeouts), ms: the shell advances its clock by this. */
  elapsedMs: number;
}
