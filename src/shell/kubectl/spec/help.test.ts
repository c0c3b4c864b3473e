/**
 * Every help text the real kubectl v1.35.2 prints (recorded by scripts/record-help.mjs into
 * testdata/help/) comes out byte for byte from the shell's own `kubectl` entry point, rendered from
 * the command declarations: `kubectl PATH --help` and, for command groups, the bare group.
 */
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { readdirSync, readFileSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { runKubectl } from '../index.js';
import type { KubectlEnv } from '../context.js';

const dir = join(dirname(fileURLToPath(import.meta.url)), 'testdata/help');

/** Help never reaches the cluster: an environment that throws if a verb were run by mistake. */
const env = new Proxy({} as KubectlEnv, {
  get(_t, key) {
    throw new Error(`help touched env.${String(key)}`);
  },
});

function readGolden(file: string): { exitCode: number; stdout: string; stderr: string } {
  const text = readFileSync(join(dir, file), 'utf8');
  const m = /^exit: (\d+)\n--- stdout\n([\s\S]*)--- stderr\n([\s\S]*)$/.exec(text);
  if (!m) throw new Error(`${file}: not a help golden`);
  return { exitCode: Number(m[1]), stdout: m[2]!, stderr: m[3]! };
}

const files = readdirSync(dir).filter((f) => f.endsWith('.txt')).sort();

test('there are help goldens for the whole command tree', () => {
  assert.ok(files.length > 100, `only ${files.length} goldens`);
});

for (const file of files) {
  if (file === 'kubectl_options.txt') continue;
  const bare = file.endsWith('.bare.txt');
  const words = file === 'kubectl.txt' ? [] : file.replace(/\.(bare\.)?txt$/, '').split('_').slice(1);
  const argv = bare ? words : [...words, '--help'];
  const want = readGolden(file);
  // a bare group that runs itself (`kubectl apply`, `kubectl cluster-info`) is the verb's own test's business
  if (bare && (want.stdout || want.stderr) !== readGolden(file.replace('.bare.txt', '.txt')).stdout) continue;
  test(`kubectl ${argv.join(' ')}`, async () => {
    const got = await runKubectl(argv, env);
    assert.equal(got.stdout, want.stdout);
    assert.equal(got.stderr, want.stderr);
    assert.equal(got.exitCode, want.exitCode);
  });
}

test('-h anywhere before -- and the short form give the same text', async () => {
  const long = await runKubectl(['create', 'deployment', '--help'], env);
  for (const argv of [['create', 'deploy', '-h'], ['-n', 'x', 'create', 'deployment', 'web', '-h']]) {
    const got = await runKubectl(argv, env);
    assert.equal(got.stdout, long.stdout, argv.join(' '));
  }
  // cobra adds -h to a command only once found, so while finding it `-h` takes the next word as
  // its value: `create -h deployment` is create's help (as the real binary prints)
  assert.equal((await runKubectl(['create', '-h', 'deployment'], env)).stdout, (await runKubectl(['create', '--help'], env)).stdout);
});
