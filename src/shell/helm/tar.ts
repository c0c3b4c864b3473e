/**
 * Chart archives: gzip'd ustar as `helm package` writes them (Go archive/tar; PAX `x` headers
 * carry long paths). Reading and writing in memory, for `helm pull`, `helm package` and the
 * repository fixtures.
 */
import { gunzipSync, gzipSync } from 'node:zlib';

export type FileMap = Map<string, Buffer>;

const str = (b: Buffer, off: number, len: number): string => {
  const s = b.subarray(off, off + len);
  const nul = s.indexOf(0);
  return (nul < 0 ? s : s.subarray(0, nul)).toString('utf8');
};

/** Every regular file of a .tgz, by path. Throws on data that is not a gzip'd tar. */
export function untgz(data: Buffer): FileMap {
  const tar = gunzipSync(data);
  const out: FileMap = new Map();
  let off = 0;
  let longName: string | undefined;
  while (off + 512 <= tar.length) {
    const h = tar.subarray(off, off + 512);
    if (h.every((x) => x === 0)) break;
    const name = str(h, 0, 100);
    const size = Number.parseInt(str(h, 124, 12).trim() || '0', 8);
    const type = String.fromCharCode(h[156]!);
    const prefix = str(h, 345, 155);
    const body = tar.subarray(off + 512, off + 512 + size);
    off += 512 + Math.ceil(size / 512) * 512;
    if (type === 'x') {
      const m = /\d+ path=([^\n]*)\n/.exec(body.toString('utf8'));
      longName = m?.[1];
      continue;
    }
    if (type !== '0' && type !== '\0') continue;
    out.set(longName ?? (prefix ? `${prefix}/${name}` : name), Buffer.from(body));
    longName = undefined;
  }
  return out;
}

function header(path: string, size: number, mtime: number): Buffer {
  const h = Buffer.alloc(512);
  // ustar: a path longer than 100 bytes splits at a slash into prefix (155) and name (100)
  let name = path;
  let prefix = '';
  if (Buffer.byteLength(path) > 100) {
    const cut = path.lastIndexOf('/', 155);
    if (cut > 0 && Buffer.byteLength(path.slice(cut + 1)) <= 100) {
      prefix = path.slice(0, cut);
      name = path.slice(cut + 1);
    }
  }
  h.write(name.slice(0, 100), 0, 'utf8');
  if (prefix) h.write(prefix, 345, 'utf8');
  h.write('0000644\0', 100);
  h.write('0000000\0', 108);
  h.write('0000000\0', 116);
  h.write(`${size.toString(8).padStart(11, '0')}\0`, 124);
  h.write(`${Math.floor(mtime / 1000).toString(8).padStart(11, '0')}\0`, 136);
  h.write('        ', 148);
  h.write('0', 156);
  h.write('ustar\0' + '00', 257);
  let sum = 0;
  for (const b of h) sum += b;
  h.write(`${sum.toString(8).padStart(6, '0')}\0 `, 148);
  return h;
}

/** A .tgz of the files, in the order given. */
export function tgz(files: FileMap, mtime: number): Buffer {
  const parts: Buffer[] = [];
  for (const [path, data] of files) {
    parts.push(header(path, data.length, mtime), data, Buffer.alloc((512 - (data.length % 512)) % 512));
  }
  parts.push(Buffer.alloc(1024));
  return gzipSync(Buffer.concat(parts));
}
