/**
 * bcrypt (Provos & Mazières, "A Future-Adaptable Password Scheme", 1999: eksblowfish), as
 * golang.org/x/crypto/bcrypt writes it: `$2a$CC$` + 22 characters of salt + 31 of hash in bcrypt's
 * base64 alphabet (`./A-Za-z0-9`, no padding). The key is the password plus a NUL byte; the
 * salted setup is followed by 2^cost rounds of ExpandKey(key), ExpandKey(salt); the hash is
 * "OrpheanBeholderScryDoubt" encrypted 64 times, of which 23 bytes are kept (the C
 * implementations' bug, kept for compatibility). Blowfish (Schneier 1993; golang.org/x/crypto/
 * blowfish block.go) starts from the hexadecimal digits of π's fraction: the P-array takes the
 * first 18 words and the four S-boxes the next 1024; they are computed here (Machin's formula)
 * rather than tabulated.
 */

const WORDS = 18 + 4 * 256;

let piWords: Uint32Array | undefined;

/** The first WORDS 32-bit words of π's fractional part (0x243f6a88, 0x85a308d3, …). */
function piFraction(): Uint32Array {
  if (piWords) return piWords;
  const bits = BigInt(WORDS * 32 + 64);
  const one = 1n << bits;
  const arctanInv = (x: bigint): bigint => {
    let sum = 0n;
    let term = one / x;
    const x2 = x * x;
    for (let k = 1n; term !== 0n; k += 2n) {
      sum += (k & 2n ? -term : term) / k;
      term /= x2;
    }
    return sum;
  };
  const pi = 16n * arctanInv(5n) - 4n * arctanInv(239n);
  const frac = (pi - 3n * one) >> 64n;
  const out = new Uint32Array(WORDS);
  for (let i = 0; i < WORDS; i++) out[i] = Number((frac >> BigInt((WORDS - 1 - i) * 32)) & 0xffffffffn);
  piWords = out;
  return out;
}

class Blowfish {
  p: Uint32Array;
  s: Uint32Array[];

  constructor() {
    const pi = piFraction();
    this.p = pi.slice(0, 18);
    this.s = [0, 1, 2, 3].map((i) => pi.slice(18 + i * 256, 18 + (i + 1) * 256));
  }

  private f(x: number): number {
    const [s0, s1, s2, s3] = this.s as [Uint32Array, Uint32Array, Uint32Array, Uint32Array];
    return ((((s0[x >>> 24]! + s1[(x >>> 16) & 0xff]!) >>> 0) ^ s2[(x >>> 8) & 0xff]!) + s3[x & 0xff]!) >>> 0;
  }

  encrypt(l0: number, r0: number): [number, number] {
    let l = l0;
    let r = r0;
    l = (l ^ this.p[0]!) >>> 0;
    for (let i = 1; i <= 16; i += 2) {
      r = (r ^ this.f(l) ^ this.p[i]!) >>> 0;
      l = (l ^ this.f(r) ^ this.p[i + 1]!) >>> 0;
    }
    r = (r ^ this.p[17]!) >>> 0;
    return [r, l];
  }

  /** blowfish.ExpandKey (salt absent) / expandKeyWithSalt. */
  expand(key: Uint8Array, salt?: Uint8Array): void {
    let j = 0;
    for (let i = 0; i < 18; i++) {
      let d = 0;
      for (let k = 0; k < 4; k++) {
        d = ((d << 8) | key[j]!) >>> 0;
        j = (j + 1) % key.length;
      }
      this.p[i] = (this.p[i]! ^ d) >>> 0;
    }
    let sj = 0;
    const word = (): number => {
      if (!salt) return 0;
      let d = 0;
      for (let k = 0; k < 4; k++) {
        d = ((d << 8) | salt[sj]!) >>> 0;
        sj = (sj + 1) % salt.length;
      }
      return d;
    };
    let l = 0;
    let r = 0;
    const fill = (arr: Uint32Array): void => {
      for (let i = 0; i < arr.length; i += 2) {
        l = (l ^ word()) >>> 0;
        r = (r ^ word()) >>> 0;
        [l, r] = this.encrypt(l, r);
        arr[i] = l;
        arr[i + 1] = r;
      }
    };
    fill(this.p);
    for (const s of this.s) fill(s);
  }
}

const ALPHABET = './ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789';
const STD = 'ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789+/';

/** bcrypt's base64: the standard encoding in its own alphabet, padding removed. */
export function bcryptBase64(b: Uint8Array): string {
  return Buffer.from(b)
    .toString('base64')
    .replace(/=+$/, '')
    .replace(/[A-Za-z0-9+/]/g, (c) => ALPHABET[STD.indexOf(c)]!);
}

export function bcryptBase64Decode(s: string): Buffer {
  const std = s.replace(/[./A-Za-z0-9]/g, (c) => STD[ALPHABET.indexOf(c)]!);
  return Buffer.from(std + '='.repeat((4 - (std.length % 4)) % 4), 'base64');
}

/** The raw 23-byte hash of `password` (without its NUL) under a 16-byte salt and a cost. */
function rawHash(password: Uint8Array, salt: Uint8Array, cost: number): Buffer {
  const key = Buffer.concat([Buffer.from(password), Buffer.from([0])]);
  const bf = new Blowfish();
  bf.expand(key, salt);
  for (let i = 0, rounds = 2 ** cost; i < rounds; i++) {
    bf.expand(key);
    bf.expand(salt);
  }
  const data = Buffer.from('OrpheanBeholderScryDoubt', 'latin1');
  for (let i = 0; i < 24; i += 8) {
    let l = data.readUInt32BE(i);
    let r = data.readUInt32BE(i + 4);
    for (let j = 0; j < 64; j++) [l, r] = bf.encrypt(l, r);
    data.writeUInt32BE(l, i);
    data.writeUInt32BE(r, i + 4);
  }
  return data.subarray(0, 23);
}

export class BcryptError extends Error {}

/** bcrypt.GenerateFromPassword with the given 16 salt bytes: `$2a$10$…`. */
export function bcryptHash(password: Uint8Array, salt: Uint8Array, cost = 10): string {
  if (password.length > 72) throw new BcryptError('bcrypt: password length exceeds 72 bytes');
  const encodedSalt = bcryptBase64(salt);
  return `$2a$${String(cost).padStart(2, '0')}$${encodedSalt}${bcryptBase64(rawHash(password, salt, cost))}`;
}

/** bcrypt.CompareHashAndPassword's verdict. */
export function bcryptVerify(hash: string, password: Uint8Array): boolean {
  const m = /^\$2[abxy]?\$(\d\d)\$([./A-Za-z0-9]{22})([./A-Za-z0-9]{31})$/.exec(hash);
  if (!m) return false;
  const salt = bcryptBase64Decode(m[2]!).subarray(0, 16);
  return bcryptBase64(rawHash(password, salt, Number(m[1]))) === m[3];
}
