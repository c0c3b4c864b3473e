/**
 * bash's associative arrays (`declare -A`): a hash table whose iteration order is what
 * `${!a[@]}`, `${a[@]}` and `declare -p` show. bash 5.2 hashlib.c: FNV-1 `hash_string` over the
 * key's bytes (each a signed `char`), ASSOC_HASH_BUCKETS (assoc.h) = 1024 buckets, a new item
 * goes to the head of its bucket's list, and the table doubles (hash_rehash, walking the old
 * buckets in order and pushing each item onto its new bucket's head) once it holds
 * HASH_REHASH_FACTOR (2) items per bucket. Iteration walks the buckets in index order.
 */

const FNV_OFFSET = 2166136261;
const FNV_PRIME = 16777619;
const INITIAL_BUCKETS = 1024;
const REHASH_FACTOR = 2;
const REHASH_MULTIPLIER = 4;

/** hashlib.c hash_string: FNV-1, multiply then XOR, over `char`s (sign-extended above 0x7f). */
export function bashHashString(key: string): number {
  let h = FNV_OFFSET;
  for (const b of Buffer.from(key, 'utf8')) {
    h = Math.imul(h, FNV_PRIME) >>> 0;
    h = (h ^ (b >= 0x80 ? b - 0x100 : b)) >>> 0;
  }
  return h;
}

export class BashAssoc {
  private buckets: string[][];
  private readonly values = new Map<string, string>();
  /** False for `declare -A a` before any assignment (bash's invisible variable: `declare -p` shows no `=()`). */
  assigned = true;

  constructor(nbuckets = INITIAL_BUCKETS) {
    this.buckets = Array.from({ length: nbuckets }, () => []);
  }

  get size(): number {
    return this.values.size;
  }

  get(key: string): string | undefined {
    return this.values.get(key);
  }

  has(key: string): boolean {
    return this.values.has(key);
  }

  set(key: string, value: string): void {
    this.assigned = true;
    if (!this.values.has(key)) {
      // hash_insert: grow before placing the new item (HASH_SHOULDGROW)
      if (this.values.size >= this.buckets.length * REHASH_FACTOR) this.rehash(this.buckets.length * REHASH_MULTIPLIER);
      this.buckets[bashHashString(key) & (this.buckets.length - 1)]!.unshift(key);
    }
    this.values.set(key, value);
  }

  delete(key: string): boolean {
    if (!this.values.delete(key)) return false;
    const b = this.buckets[bashHashString(key) & (this.buckets.length - 1)]!;
    b.splice(b.indexOf(key), 1);
    return true;
  }

  /** The keys in bash's order (assoc_keys_to_word_list). */
  keys(): string[] {
    return this.buckets.flat();
  }

  /** The values in the same order (assoc_to_word_list). */
  valuesInOrder(): string[] {
    return this.keys().map((k) => this.values.get(k)!);
  }

  /**
   * The table `keys()` listed, rebuilt in that order (a saved session's): each key goes to the
   * tail of its bucket, so the buckets read as they did. The bucket count is the one inserting
   * that many items reaches (exact unless deletions followed a growth past 2048 items).
   */
  static fromOrder(entries: ReadonlyArray<readonly [string, string]>): BashAssoc {
    let n = INITIAL_BUCKETS;
    while (entries.length > n * REHASH_FACTOR) n *= REHASH_MULTIPLIER;
    const a = new BashAssoc(n);
    for (const [k, v] of entries) {
      if (a.values.has(k)) continue;
      a.buckets[bashHashString(k) & (n - 1)]!.push(k);
      a.values.set(k, v);
    }
    return a;
  }

  clone(): BashAssoc {
    const c = new BashAssoc(this.buckets.length);
    c.buckets = this.buckets.map((b) => [...b]);
    c.assigned = this.assigned;
    for (const [k, v] of this.values) c.values.set(k, v);
    return c;
  }

  private rehash(n: number): void {
    const old = this.buckets;
    this.buckets = Array.from({ length: n }, () => []);
    for (const b of old) for (const k of b) this.buckets[bashHashString(k) & (n - 1)]!.unshift(k);
  }
}

/**
 * A key as `declare -p` prints it (arrayfunc.c/assoc.c assoc_to_assign): double-quoted when it
 * holds shell metacharacters (lib/sh/shquote.c sh_contains_shell_metas: blanks, quotes, `|&;()<>!{}`,
 * glob and expansion characters, `~` at the start or after `=`/`:`, `#` at the start) or is a
 * lone `@`/`*`, bare otherwise.
 */
export function assocKeyText(k: string, dquote: (v: string) => string): string {
  const metas = /[ \t\n'"\\|&;()<>!{}*[\]?^$`]|^[~#]|[=:]~/.test(k) || k === '@' || k === '*';
  return metas ? dquote(k) : k;
}
