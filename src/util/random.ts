/**
 * Seeded random source (xoshiro128**). The simulation takes one as input so that the same seed
 * and the same commands give the same pod names, IPs, NodePorts and statistic-match choices.
 * Its state is four 32-bit words, so it serializes with a snapshot.
 */
export class Random {
  private s: [number, number, number, number];

  constructor(seed: number | readonly number[]) {
    if (typeof seed === 'number') {
      // splitmix32 to spread a small seed over the state
      let x = seed >>> 0;
      const next = (): number => {
        x = (x + 0x9e3779b9) >>> 0;
        let z = x;
        z = Math.imul(z ^ (z >>> 16), 0x85ebca6b) >>> 0;
        z = Math.imul(z ^ (z >>> 13), 0xc2b2ae35) >>> 0;
        return (z ^ (z >>> 16)) >>> 0;
      };
      this.s = [next(), next(), next(), next()];
    } else {
      this.s = [seed[0] ?? 1, seed[1] ?? 2, seed[2] ?? 3, seed[3] ?? 4];
    }
  }

  /** Next unsigned 32-bit integer. */
  nextU32(): number {
    const s = this.s;
    const result = Math.imul(rotl(Math.imul(s[1], 5) >>> 0, 7), 9) >>> 0;
    const t = (s[1] << 9) >>> 0;
    s[2] = (s[2] ^ s[0]) >>> 0;
    s[3] = (s[3] ^ s[1]) >>> 0;
    s[1] = (s[1] ^ s[2]) >>> 0;
    s[0] = (s[0] ^ s[3]) >>> 0;
    s[2] = (s[2] ^ t) >>> 0;
    s[3] = rotl(s[3], 11);
    return result;
  }

  /** Uniform float in [0, 1). */
  float(): number {
    return this.nextU32() / 4294967296;
  }

  /** Uniform integer in [0, n). */
  int(n: number): number {
    return Math.floor(this.float() * n);
  }

  state(): [number, number, number, number] {
    return [...this.s];
  }
}

function rotl(x: number, k: number): number {
  return ((x << k) | (x >>> (32 - k))) >>> 0;
}

/**
 * Random suffix alphabet of apimachinery's `util/rand.String` (consonants and digits without
 * vowels or confusable characters), used for generateName suffixes such as `web-4bnv6`.
 * Source: k8s.io/apimachinery/pkg/util/rand/rand.go (alphanums = "bcdfghjklmnpqrstvwxz2456789").
 */
export const ALPHANUMS = 'bcdfghjklmnpqrstvwxz2456789';

export function randString(rng: Random, n: number): string {
  let out = '';
  for (let i = 0; i < n; i++) out += ALPHANUMS[rng.int(ALPHANUMS.length)];
  return out;
}
