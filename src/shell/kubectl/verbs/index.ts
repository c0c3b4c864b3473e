/**
 * The verb registry: read-only verbs (get, describe, explain, …) and verbs that change the
 * cluster (create, apply, delete, …), in the order `kubectl` help lists them.
 */
import type { Verb } from '../context.js';
import { READ_VERBS } from './read.js';
import { WRITE_VERBS } from './write.js';

export const VERBS: readonly Verb[] = [...READ_VERBS, ...WRITE_VERBS];
