/**
 * The key a user's `openssl genrsa BITS` or `openssl req -newkey rsa:BITS` gets: RSA key generation
 * cannot be seeded, so each size the lab supports has a pool of pre-generated keys (user-keys.ts for
 * 2048 bits, user-keys-sized.ts for 1024, 3072 and 4096) and the seeded random source picks one:
 * the same seed and commands give the same key.
 */
import type { Random } from '../../util/random.js';
import { USER_KEYS } from './user-keys.js';
import { USER_KEYS_SIZED } from './user-keys-sized.js';

/** The RSA sizes that have a pool. */
export const POOLED_RSA_BITS: readonly number[] = [1024, 2048, 3072, 4096];

/** A key of `bits` picked with the random source (the first of its pool without one), if the size has a pool. */
export function pooledRsaKey(bits: number, random: Random | undefined): string | undefined {
  const pool = bits === 2048 ? USER_KEYS() : USER_KEYS_SIZED()[bits];
  if (!pool) return undefined;
  return pool[random ? random.int(pool.length) : 0];
}
