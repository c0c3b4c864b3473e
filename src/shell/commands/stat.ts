/**
 * stat (GNU coreutils 9 src/stat.c) over the host's Vfs: the default layout (File, Size/Blocks,
 * Device/Inode/Links, Access mode and owner, the Access/Modify/Change/Birth times from the file's
 * mtime) and `-c`/`--format` with %n %N %s %a %A %U %u %G %g %F %y %Y %h %i %b %B. The Vfs keeps a
 * mode and an mtime per file; owners are root, device and inode numbers stable per path.
 */
import { resolvePath } from '../../sim/node/vfs.js';
import type { CommandFn } from '../types.js';
import { fnv } from './node/host.js';
import { getopt, has, Out, usageError, value } from './util.js';
import { diffTime } from '../../util/diff.js';
import { busyboxOpts, busyboxUsageError, isBusybox } from './busybox.js';

/** ls -l style permission string (filemode.c). */
export function modeString(type: 'f' | 'd' | 'l' | 'c', mode: number): string {
  const t = type === 'd' ? 'd' : type === 'l' ? 'l' : type === 'c' ? 'c' : '-';
  let s = '';
  for (const shift of [6, 3, 0]) {
    const bits = (mode >> shift) & 7;
    s += `${bits & 4 ? 'r' : '-'}${bits & 2 ? 'w' : '-'}${bits & 1 ? 'x' : '-'}`;
  }
  return t + s;
}

/**
 * In the busybox image it is busybox 1.36.1's applet (coreutils/stat.c): getopt32 "c:fLt" with at
 * least one operand (else the usage), `can't stat 'NAME': ERROR`, and a default layout without
 * GNU's Birth line and with the device written `HEXh/DECd`.
 */
export const stat: CommandFn = (ctx) => {
  const bb = isBusybox(ctx);
  if (bb) {
    const b = busyboxOpts('stat', ctx.argv.slice(1), { short: 'c:fLt' });
    if (!b.ok) return b.result;
    // getopt32's "-1": at least one operand, else the usage
    if (b.opts.operands.length === 0) return busyboxUsageError('stat');
  }
  const p = getopt('stat', ctx.argv.slice(1), bb ? { short: 'c:fLt' } : { short: 'c:Lt', long: { format: { key: 'c', arg: true }, dereference: { key: 'L', arg: false }, terse: { key: 't', arg: false }, printf: { key: 'printf', arg: true } } });
  if (!p.ok) return usageError('stat', p.error, '');
  if (p.opts.operands.length === 0) return usageError('stat', 'stat: missing operand', '');
  const out = new Out();
  const fs = ctx.fs;
  for (const name of p.opts.operands) {
    const abs = resolvePath(ctx.cwd, name);
    const link = fs.isLink(abs) && !has(p.opts, 'L');
    if (!fs.exists(abs) && !fs.isLink(abs)) {
      out.err(bb ? `stat: can't stat '${name}': No such file or directory` : `stat: cannot statx '${name}': No such file or directory`);
      continue;
    }
    const rdev = link ? undefined : fs.stat(abs)?.rdev;
    const type: 'f' | 'd' | 'l' | 'c' = link ? 'l' : fs.isDir(abs) ? 'd' : rdev ? 'c' : 'f';
    const mode = type === 'd' ? 0o755 : type === 'l' ? 0o777 : (fs.stat(abs)?.mode ?? 0o644) & 0o7777;
    const size = type === 'd' ? 4096 : type === 'l' || type === 'c' ? (type === 'l' ? fs.linkSize(abs) : 0) : fs.reportedSize(abs);
    const blocks = type === 'l' || type === 'c' ? 0 : Math.ceil(size / 4096) * 8;
    const mtime = fs.mtime(link ? abs : fs.follow(abs));
    const inode = 100_000 + (fnv(abs) % 4_000_000);
    const kind = type === 'd' ? 'directory' : type === 'l' ? 'symbolic link' : type === 'c' ? 'character special file' : size === 0 ? 'regular empty file' : 'regular file';
    const links = type === 'd' ? 2 + fs.list(abs).filter((n) => fs.isDir(`${abs === '/' ? '' : abs}/${n}`)).length : 1;
    const quoted = `'${name}'${type === 'l' ? ` -> '${fs.readlink(abs)}'` : ''}`;
    const fmt = value(p.opts, 'c') ?? value(p.opts, 'printf');
    if (fmt !== undefined) {
      const line = fmt.replace(/%([a-zA-Z%])/g, (m, c: string) => {
        switch (c) {
          case 'n':
            return name;
          case 'N':
            return quoted;
          case 's':
            return String(size);
          case 'a':
            return mode.toString(8);
          case 'A':
            return modeString(type, mode);
          case 'U':
          case 'G':
            return 'root';
          case 'u':
          case 'g':
            return '0';
          case 'F':
            return kind;
          case 'y':
          case 'x':
          case 'z':
          case 'w':
            return diffTime(mtime);
          case 'Y':
          case 'X':
          case 'Z':
          case 'W':
            return String(Math.floor(mtime / 1000));
          case 'h':
            return String(links);
          case 'i':
            return String(inode);
          case 'b':
            return String(blocks);
          case 'B':
            return '512';
          case 't':
            return (rdev?.[0] ?? 0).toString(16);
          case 'T':
            return (rdev?.[1] ?? 0).toString(16);
          case '%':
            return '%';
          default:
            return m;
        }
      });
      out.out(value(p.opts, 'printf') !== undefined ? line.replace(/\\n/g, '\n').replace(/\\t/g, '\t') : `${line}\n`);
      continue;
    }
    const t = diffTime(mtime);
    // a device lives on devtmpfs (0,5 on the hosts; a container's /dev is its own tmpfs)
    const [devMaj, devMin] = rdev ? [0, 5] : bb ? [0, 59] : [252, 1];
    const device = bb ? `${((devMaj << 8) | devMin).toString(16)}h/${(devMaj << 8) | devMin}d` : `${devMaj},${devMin}`;
    out.out(
      `  File: ${type === 'l' ? quoted.replace(/'/g, '') : name}\n` +
        `  Size: ${String(size).padEnd(10)}\tBlocks: ${String(blocks).padEnd(10)} IO Block: 4096   ${kind}\n` +
        `Device: ${device}\tInode: ${String(inode).padEnd(11)} Links: ${rdev ? `${String(links).padEnd(5)} Device type: ${rdev[0]},${rdev[1]}` : links}\n` +
        `Access: (${mode.toString(8).padStart(4, '0')}/${modeString(type, mode)})  Uid: (    0/    root)   Gid: (    0/    root)\n` +
        `Access: ${t}\nModify: ${t}\nChange: ${t}\n${bb ? '' : ` Birth: ${t}\n`}`,
    );
  }
  return out.result();
};
