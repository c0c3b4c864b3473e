/**
 * Bytes above 0x7f that escapes write (`echo -e '\0777'`, `printf '\xff'`, `$'\377'`, `%b`, dash's
 * echo and printf), replayed against testdata/bytes.txt: the cases of testdata/bytes-cases.txt
 * recorded from the real bash 5.2.15 and dash 0.5.12 (as `sh`) with GNU od, wc, base64 and md5sum
 * by `record-child-shells.sh bytes-cases.txt`. bash writes the byte itself, not its UTF-8 form;
 * a run of bytes that spells UTF-8 is that character's bytes. The REPL writes them to the
 * terminal as bytes too.
 */
import assert from 'node:assert/strict';
import { PassThrough, Writable } from 'node:stream';
import { test } from 'node:test';
import { loadFixture } from '../testing/fixtures.js';
import { replayRecordingFile } from '../testing/shell-recordings.js';
import { StreamLines } from '../ui/input.js';
import { runRepl } from '../ui/repl.js';
import { decodeBytes, encodeBytes, normalizeBytes } from '../util/bytes.js';
import { Session } from './session.js';

test('escapes write the bytes the recorded bash and dash write', async () => {
  assert.deepEqual(await replayRecordingFile(new URL('./testdata/bytes.txt', import.meta.url), '/tmp/by', 15), []);
});

test('the REPL writes a raw byte to the terminal as that byte', async () => {
  const s = new Session(loadFixture('kubeadm-calico', 1));
  const input = new PassThrough();
  input.end("printf 'a\\xffb\\xc3\\xa9\\n'\necho -e '\\0777' > /tmp/f; base64 /tmp/f | base64 -d\n");
  const got: Buffer[] = [];
  const stdout = new Writable({
    write(chunk: Buffer | string, _enc, cb) {
      got.push(Buffer.isBuffer(chunk) ? chunk : Buffer.from(chunk, 'utf8'));
      cb();
    },
  });
  await runRepl(() => s, new StreamLines(input), { stdout, stderr: stdout });
  assert.deepEqual([...Buffer.concat(got)], [0x61, 0xff, 0x62, 0xc3, 0xa9, 0x0a, 0xff, 0x0a]);
});

test('raw bytes round-trip through text', () => {
  const b = Uint8Array.from([0x61, 0xff, 0xc3, 0xa9, 0xe2, 0x82, 0xc3, 0x28, 0xf0, 0x9f, 0x98, 0x80, 0xed, 0xa0, 0x80, 0x80]);
  const t = decodeBytes(b);
  assert.equal(t, 'a\udcffé\udce2\udc82\udcc3(😀\udced\udca0\udc80\udc80');
  assert.deepEqual([...encodeBytes(t)], [...b]);
  assert.equal(normalizeBytes('\udce2\udc82\udcac'), '€');
  assert.deepEqual([...encodeBytes('😀')], [0xf0, 0x9f, 0x98, 0x80]);
});
