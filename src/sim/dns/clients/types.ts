/** Inputs and output shared by the DNS client emulations (pure: argv in, printed text out). */
import type { Clock } from '../../../util/clock.js';
import type { Random } from '../../../util/random.js';
import type { QueryFn } from '../stub/query.js';

export interface ClientInput {
  /** argv without the program name. */
  args: string[];
  /** The container's /etc/resolv.conf text. */
  resolvConf: string;
  query: QueryFn;
  clock: Clock;
  random: Random;
}

export interface ClientResult {
  stdout: string;
  stderr: string;
  exitCode: number;
  /** Simulated time the command took (timeouts), ms: the shell advances its clock by this. */
  elapsedMs: number;
}
