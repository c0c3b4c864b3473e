/**
 * Durable JSON files. Writes are atomic (write a temp file in the same directory, fsync, rename
 * over the target) so a crash mid-write leaves either the old or the new file, never half of one.
 * Reads check a schema version; a file that does not parse or has the wrong shape is reported and
 * set aside as `<file>.corrupt-<timestamp>`, never silently dropped or overwritten.
 */
import { isAscii } from 'node:buffer';
import { closeSync, fdatasyncSync, fsyncSync, mkdirSync, openSync, readdirSync, readFileSync, renameSync, unlinkSync, writeSync } from 'node:fs';
import { basename, dirname, join } from 'node:path';

export type ReadResult<T> =
  | { status: 'ok'; data: T }
  | { status: 'missing' }
  /** The file was unreadable; it now lives at `movedTo` and `reason` says why. */
  | { status: 'corrupt'; reason: string; movedTo: string };

let tmpCounter = 0;

/**
 * JSON text with every character past ASCII written as its `\uXXXX` escape: the same value to any
 * JSON parser, in a file that readJsonText() decodes to a one-byte string. Decoded as UTF-8, one
 * non-ASCII character (a U+2019 quote in a fixture's config file) made the whole text a two-byte string:
 * reading a 650 KB session and parsing it touched ~1,100 pages of fresh memory instead of ~630,
 * about 10 ms of every resumed `cka-lab kubectl` and shell on a machine where a page fault costs
 * ~20 µs (jsonfile.test.ts). The escaping costs a full write ~5 ms for such a text (a new session,
 * a journal's compaction); journal lines are small and stay as JSON.stringify writes them.
 */
export function asciiJson(text: string): string {
  // (one pass: a test first cost a second scan, ~2 ms of a 650 KB two-byte text's ~5)
  return text.replace(/[^\x00-\x7f]/g, (c) => `\\u${c.charCodeAt(0).toString(16).padStart(4, '0')}`);
}

/**
 * A file's text decoded as UTF-8, as readFileSync(path, 'utf8') decodes it; a file of ASCII bytes
 * alone (what writeJsonAtomic writes) as latin1, which decodes those bytes to the same characters in
 * a one-byte string (asciiJson()).
 */
export function readJsonText(path: string): string {
  const buf = readFileSync(path);
  return isAscii(buf) ? buf.toString('latin1') : buf.toString('utf8');
}

/** Write `data` as the file's whole content, atomically and durably; returns the bytes written. */
export function writeJsonAtomic(path: string, data: unknown): number {
  const dir = dirname(path);
  mkdirSync(dir, { recursive: true });
  const tmp = join(dir, `.${basename(path)}.${process.pid}.${tmpCounter++}.tmp`);
  const fd = openSync(tmp, 'w', 0o600);
  let bytes: number;
  try {
    bytes = writeSync(fd, `${asciiJson(JSON.stringify(data))}\n`);
    fsyncSync(fd);
  } finally {
    closeSync(fd);
  }
  renameSync(tmp, path);
  return bytes;
}

/**
 * Append `text` to the file (created if missing) in one write, durably (fdatasync) before this
 * returns. A crash mid-way can leave a torn tail, which readers of such a file must skip
 * (app/sessions.ts reads its journal line by line and drops a line that does not parse).
 */
export function appendDurable(path: string, text: string): void {
  const fd = openSync(path, 'a', 0o600);
  try {
    const buf = Buffer.from(text, 'utf8');
    let done = 0;
    while (done < buf.length) done += writeSync(fd, buf, done, buf.length - done);
    fdatasyncSync(fd);
  } finally {
    closeSync(fd);
  }
}

/** True while the process with this pid runs (EPERM: it runs as another user). */
export function processAlive(pid: number): boolean {
  try {
    process.kill(pid, 0);
    return true;
  } catch (e) {
    return (e as NodeJS.ErrnoException).code === 'EPERM';
  }
}

/**
 * Remove the temp files of writes that a killed process never renamed (`.<file>.<pid>.<n>.tmp`
 * whose pid no longer runs); a live process's temp file is left to it.
 */
export function removeOrphanTemps(dir: string): void {
  let names: string[];
  try {
    names = readdirSync(dir);
  } catch {
    return;
  }
  for (const n of names) {
    const m = /^\..+\.(\d+)\.\d+\.tmp$/.exec(n);
    if (!m || processAlive(Number(m[1]))) continue;
    try {
      unlinkSync(join(dir, n));
    } catch {
      // another process removed it first
    }
  }
}

/** Stamp used in `*.corrupt-<timestamp>`: ISO 8601 without characters that trouble file systems. */
export function corruptStamp(ms: number): string {
  return new Date(ms).toISOString().replace(/[:.]/g, '-');
}

/**
 * Read a versioned JSON file. `check` validates the parsed value and returns an error text when
 * the shape is wrong. `nowMs` names the set-aside copy.
 */
export function readJsonVersioned<T>(
  path: string,
  version: number,
  check: (v: unknown) => string | undefined,
  nowMs: number,
): ReadResult<T> {
  let text: string;
  try {
    text = readJsonText(path);
  } catch (e) {
    if ((e as NodeJS.ErrnoException).code === 'ENOENT') return { status: 'missing' };
    throw e;
  }
  let reason: string | undefined;
  let value: unknown;
  try {
    value = JSON.parse(text) as unknown;
  } catch (e) {
    reason = `not valid JSON (${(e as Error).message})`;
  }
  if (!reason) {
    const v = (value as { schema?: unknown } | null)?.schema;
    if (typeof value !== 'object' || value === null || Array.isArray(value)) reason = 'not a JSON object';
    else if (v !== version) reason = `schema version ${JSON.stringify(v)}, expected ${version}`;
    else reason = check(value);
  }
  if (!reason) return { status: 'ok', data: value as T };
  const movedTo = `${path}.corrupt-${corruptStamp(nowMs)}`;
  renameSync(path, movedTo);
  return { status: 'corrupt', reason, movedTo };
}
