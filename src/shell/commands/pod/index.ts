import type { CommandFn } from '../../types.js';
import { curl } from './curl.js';
import { dig } from './dig.js';
import { getent } from './getent.js';
import { host } from './host.js';
import { nc } from './nc.js';
import { nslookup } from './nslookup.js';
import { ping } from './ping.js';
import { wget } from './wget.js';
import { why } from './why.js';

/** Network and DNS tools that run on nodes and inside containers, one file each. */
export const POD_COMMANDS: Record<string, CommandFn> = { curl, dig, getent, host, nc, nslookup, ping, wget, why };
