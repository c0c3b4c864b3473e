/**
 * bin/cka-lab's code cache (issue 19): the launcher runs dist/bundle/main.vm.cjs through vm.Script
 * with V8's code cache kept in the user's cache home. A copy of the real launcher runs here beside
 * small bundles made for the test (a classic script and an ES module fallback that print which one
 * ran), so the cache's rules are checked without a build: a cache is written after the first run
 * and used by the next, a cache of another bundle is never used, a damaged or rejected cache is
 * ignored and replaced, failures fall back to the ES module path. The last tests run the real
 * bundle, when `npm run build` made one, and compare its output with and without the cache.
 */
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { spawnSync } from 'node:child_process';
import { createHash } from 'node:crypto';
import { copyFileSync, existsSync, mkdirSync, mkdtempSync, readdirSync, readFileSync, statSync, utimesSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { Script } from 'node:vm';
import * as zlib from 'node:zlib';

const ROOT = new URL('../../', import.meta.url).pathname;
const LAUNCHER = join(ROOT, 'bin', 'cka-lab');

/** The launcher's script format (scripts/bundle.mjs): a header naming the SHA-256 of the function expression that follows. */
function scriptFile(code: string): string {
  const body = `(function (exports, require, module, __filename, __dirname, __ckaImportMeta) {${code}\n})`;
  return `// cka-lab script bundle sha256=${createHash('sha256').update(body).digest('hex')}\n${body}`;
}

/** A small program: prints its mark, its arguments and whether import.meta.url names dist/bundle/main.js; `fail` exits 3, `throw` throws. */
function program(mark: string): string {
  return `"use strict";
function words(argv) { return argv.slice(2).join(' '); }
function metaOk() { return __ckaImportMeta.url.endsWith('/dist/bundle/main.js') && __filename.endsWith('main.vm.cjs'); }
exports.main = async function main(argv) {
  if (argv.includes('throw')) throw new Error('boom');
  process.stdout.write('script ${mark} ' + words(argv) + ' meta=' + metaOk() + ' fs=' + typeof require('node:fs').readFileSync + '\\n');
  if (argv.includes('fail')) process.exitCode = 3;
};
`;
}

interface Tree {
  root: string;
  cacheHome: string;
  script: string;
}

/** A launcher copy with its own dist/bundle (script `mark`, ES module fallback) and cache home. */
function tree(mark = 'A'): Tree {
  const root = mkdtempSync(join(tmpdir(), 'cka-lab-launcher-'));
  mkdirSync(join(root, 'bin'));
  mkdirSync(join(root, 'dist', 'bundle'), { recursive: true });
  copyFileSync(LAUNCHER, join(root, 'bin', 'cka-lab'));
  copyFileSync(join(ROOT, 'bin', 'package.json'), join(root, 'bin', 'package.json'));
  writeFileSync(join(root, 'package.json'), '{ "type": "module" }\n');
  writeFileSync(join(root, 'dist', 'bundle', 'main.js'), "export async function main(argv) { process.stdout.write('esm ' + argv.slice(2).join(' ') + '\\n'); }\n");
  const script = join(root, 'dist', 'bundle', 'main.vm.cjs');
  writeFileSync(script, scriptFile(program(mark)));
  return { root, cacheHome: join(root, 'cache'), script };
}

function run(t: Tree, args: string[], env: Record<string, string> = {}): { status: number | null; stdout: string; stderr: string } {
  const clean = { ...process.env };
  for (const k of VARS) delete clean[k];
  const r = spawnSync(process.execPath, [join(t.root, 'bin', 'cka-lab'), ...args], { env: { ...clean, HOME: t.root, XDG_CACHE_HOME: t.cacheHome, ...env }, encoding: 'utf8' });
  return { status: r.status, stdout: r.stdout, stderr: r.stderr };
}

/** What the runs must not inherit: the switches, Node's options, and a certificate file Node warns about when it is missing. */
const VARS = ['CKA_LAB_CODE_CACHE', 'NODE_DISABLE_COMPILE_CACHE', 'NODE_COMPILE_CACHE', 'NODE_OPTIONS', 'NODE_EXTRA_CA_CERTS'];

const cacheDir = (t: Tree): string => join(t.cacheHome, 'cka-lab', 'code-cache');
const caches = (t: Tree): string[] => (existsSync(cacheDir(t)) ? readdirSync(cacheDir(t)).filter((n) => n.endsWith('.bin')).sort() : []);
const header = (file: string): string[] => readFileSync(file).subarray(0, 96).toString('latin1').trim().split(' ');

test('the first run writes a cache for its command; the next runs use it and leave it as it is', () => {
  const t = tree();
  assert.deepEqual(run(t, ['kubectl', 'get', 'po']), { status: 0, stdout: 'script A kubectl get po meta=true fs=function\n', stderr: '' });
  const [name, ...more] = caches(t);
  assert.equal(more.length, 0);
  assert.match(name!, /^kubectl-get-[0-9a-f]{32}\.bin$/);
  const file = join(cacheDir(t), name!);
  const h = header(file);
  assert.deepEqual(h.slice(0, 4), ['cka-lab', 'code', 'cache', '1']);
  assert.equal(Number(h[5]), statSync(file).size - 96);
  assert.equal(h[7], 'f');
  assert.equal((statSync(cacheDir(t)).mode & 0o777).toString(8), '700');
  assert.equal((statSync(file).mode & 0o777).toString(8), '600');
  const before = readFileSync(file);
  const mtime = statSync(file).mtimeMs;
  for (let i = 0; i < 2; i++) assert.equal(run(t, ['kubectl', 'get', 'po']).stdout, 'script A kubectl get po meta=true fs=function\n');
  assert.deepEqual(readFileSync(file), before);
  assert.equal(statSync(file).mtimeMs, mtime);
  // each command has its own cache (the code its first run compiled)
  assert.equal(run(t, ['shell']).stdout, 'script A shell meta=true fs=function\n');
  assert.equal(caches(t).length, 2);
});

test('the script path runs without Node\'s ES module loader: the launcher is CommonJS in an ES module package', () => {
  const t = tree();
  // (Node sets its ES module loader up before an ES module's first line: ~6 ms of every command)
  const loader = "'esm-loader=' + process.moduleLoadList.includes('NativeModule internal/modules/esm/module_job')";
  writeFileSync(t.script, scriptFile(`"use strict";\nexports.main = async function main() { process.stdout.write(${loader} + '\\n'); };\n`));
  for (let i = 0; i < 2; i++) assert.deepEqual(run(t, ['kubectl']), { status: 0, stdout: 'esm-loader=false\n', stderr: '' });
  // the fallback still loads the ES module chunks
  assert.deepEqual(run(t, ['list']), { status: 0, stdout: 'esm list\n', stderr: '' });
});

test('common kubectl verbs have a cache each (the code their first run compiled); other words and flags share kubectl\'s', () => {
  const t = tree();
  for (const args of [['kubectl', 'get', 'po'], ['kubectl', 'get', 'no'], ['kubectl', 'describe', 'po'], ['kubectl', 'frobnicate'], ['kubectl', '-n', 'x', 'get', 'po'], ['kubectl']])
    assert.equal(run(t, args).stdout, `script A ${args.join(' ')} meta=true fs=function\n`);
  assert.deepEqual(
    caches(t)
      .map((n) => n.replace(/-[0-9a-f]{32}\.bin$/, ''))
      .sort(),
    ['kubectl', 'kubectl-describe', 'kubectl-get'],
  );
});

test('a REPL command writes its cache at its first prompt (what starting needs); a one-shot at exit', () => {
  const t = tree();
  // the program says whether its command's cache exists before and after the REPL's first-prompt event
  const probe = `"use strict";
exports.main = async function main(argv) {
  const fs = require('node:fs');
  const dir = process.env.XDG_CACHE_HOME + '/cka-lab/code-cache';
  const written = () => fs.existsSync(dir) && fs.readdirSync(dir).some((n) => n.startsWith(argv[2] + '-') && n.endsWith('.bin'));
  const before = written();
  process.emit('cka-lab:first-prompt');
  process.emit('cka-lab:first-prompt');
  process.stdout.write('before=' + before + ' after=' + written() + '\\n');
};
`;
  writeFileSync(t.script, scriptFile(probe));
  assert.deepEqual(run(t, ['shell']), { status: 0, stdout: 'before=false after=true\n', stderr: '' });
  assert.deepEqual(run(t, ['kubectl']), { status: 0, stdout: 'before=false after=false\n', stderr: '' });
  assert.deepEqual(
    caches(t)
      .map((n) => n.replace(/-[0-9a-f]{32}\.bin$/, ''))
      .sort(),
    ['kubectl', 'shell'],
  );
  // the next runs use them and write nothing
  const stamps = caches(t).map((n) => statSync(join(cacheDir(t), n)).mtimeMs);
  assert.equal(run(t, ['shell']).stdout, 'before=true after=true\n');
  assert.deepEqual(
    caches(t).map((n) => statSync(join(cacheDir(t), n)).mtimeMs),
    stamps,
  );
});

test('the cache is what runs: V8 checks only the source length, so the key holds the bundle hash, size and mtime', () => {
  const t = tree('A');
  const stamp = new Date(Date.now() - 60_000);
  utimesSync(t.script, stamp, stamp);
  run(t, ['kubectl']);
  assert.equal(caches(t).length, 1);
  // the same header (and length and mtime) with other code: the cache of A is used, and A's code runs
  const a = readFileSync(t.script, 'latin1');
  writeFileSync(t.script, a.replace("'script A '", "'script B '"), 'latin1');
  utimesSync(t.script, stamp, stamp);
  assert.equal(run(t, ['kubectl']).stdout, 'script A kubectl meta=true fs=function\n');
  assert.equal(caches(t).length, 1);
  // a real bundle B (its own hash in the header), same length and mtime: A's cache is not used
  writeFileSync(t.script, scriptFile(program('B')));
  utimesSync(t.script, stamp, stamp);
  assert.equal(statSync(t.script).size, Buffer.byteLength(a));
  assert.equal(run(t, ['kubectl']).stdout, 'script B kubectl meta=true fs=function\n');
  assert.equal(caches(t).length, 2);
  assert.equal(run(t, ['kubectl']).stdout, 'script B kubectl meta=true fs=function\n');
});

test('a damaged cache is ignored and replaced (a payload V8 would take as it is crashes the process)', () => {
  const t = tree();
  run(t, ['kubectl']);
  const file = join(cacheDir(t), caches(t)[0]!);
  const good = readFileSync(file);
  const damaged = Buffer.from(good);
  for (let i = 96 + 200; i < damaged.length; i += 97) damaged[i]! ^= 0x5a;
  writeFileSync(file, damaged);
  assert.deepEqual(run(t, ['kubectl']), { status: 0, stdout: 'script A kubectl meta=true fs=function\n', stderr: '' });
  const renewed = readFileSync(file);
  assert.notDeepEqual(renewed, damaged);
  assert.equal(Number(header(file)[5]), renewed.length - 96);
  // truncated, and not a cache at all
  for (const bad of [good.subarray(0, good.length >> 1), Buffer.from('not a cache\n')]) {
    writeFileSync(file, bad);
    assert.equal(run(t, ['kubectl']).stdout, 'script A kubectl meta=true fs=function\n');
    assert.equal(readFileSync(file).length, Number(header(file)[5]) + 96);
  }
});

test('a cache V8 rejects is rewritten', () => {
  const t = tree();
  run(t, ['kubectl']);
  const file = join(cacheDir(t), caches(t)[0]!);
  const h = header(file);
  // a well-formed file of this key whose payload is the code cache of another source (another length)
  const other = new Script('(function () { return 1 + 1; })', { filename: 'other.js' });
  other.runInThisContext()();
  const payload = other.createCachedData();
  const crc = h[6]!.startsWith('crc32:') ? `crc32:${zlib.crc32(payload).toString(16)}` : `sha256:${createHash('sha256').update(payload).digest('hex').slice(0, 16)}`;
  const head = `${h.slice(0, 5).join(' ')} ${payload.length} ${crc} f `.padEnd(96, ' ');
  writeFileSync(file, Buffer.concat([Buffer.from(head, 'latin1'), payload]));
  assert.equal(run(t, ['kubectl']).stdout, 'script A kubectl meta=true fs=function\n');
  assert.ok(readFileSync(file).length > payload.length + 96, 'rewritten with the bundle code');
  assert.equal(run(t, ['kubectl']).stdout, 'script A kubectl meta=true fs=function\n');
});

test('a failed run leaves a provisional cache, which the next clean run replaces once', () => {
  const t = tree();
  assert.equal(run(t, ['check', 'fail']).status, 3);
  const file = join(cacheDir(t), caches(t)[0]!);
  assert.equal(header(file)[7], 'p');
  const provisional = readFileSync(file);
  // another failing run does not rewrite it
  assert.equal(run(t, ['check', 'fail']).status, 3);
  assert.deepEqual(readFileSync(file), provisional);
  assert.equal(run(t, ['check']).status, 0);
  assert.equal(header(file)[7], 'f');
  const final = readFileSync(file);
  assert.equal(run(t, ['check', 'fail']).status, 3);
  assert.deepEqual(readFileSync(file), final);
});

test('the ES module path: switched off, commands that open no cluster, no script, a script that fails to load', () => {
  const t = tree();
  assert.equal(run(t, ['kubectl', 'x'], { CKA_LAB_CODE_CACHE: '0' }).stdout, 'esm kubectl x\n');
  assert.equal(run(t, ['kubectl', 'x'], { NODE_DISABLE_COMPILE_CACHE: '1' }).stdout, 'esm kubectl x\n');
  assert.equal(run(t, ['list']).stdout, 'esm list\n');
  assert.equal(run(t, ['--version']).stdout, 'esm --version\n');
  assert.deepEqual(caches(t), []);
  // an error inside the command is the command's: reported once, not retried on the other path
  const thrown = run(t, ['kubectl', 'throw']);
  assert.equal(thrown.status, 70);
  assert.equal(thrown.stdout, '');
  assert.match(thrown.stderr, /^cka-lab: Error: boom\n/);
  writeFileSync(t.script, scriptFile('throw new Error("top level");'));
  assert.equal(run(t, ['kubectl', 'x']).stdout, 'esm kubectl x\n');
  writeFileSync(t.script, '(function () {})');
  assert.equal(run(t, ['kubectl', 'x']).stdout, 'esm kubectl x\n');
  writeFileSync(t.script, scriptFile('this is not javascript'));
  assert.equal(run(t, ['kubectl', 'x']).stdout, 'esm kubectl x\n');
});

test('the cache home: XDG_CACHE_HOME when absolute, else ~/.cache; one that cannot be written costs only speed', () => {
  const t = tree();
  assert.equal(run(t, ['kubectl'], { XDG_CACHE_HOME: 'relative/cache' }).stdout, 'script A kubectl meta=true fs=function\n');
  assert.equal(readdirSync(join(t.root, '.cache', 'cka-lab', 'code-cache')).filter((n) => n.endsWith('.bin')).length, 1);
  assert.ok(!existsSync(join(t.root, 'relative')));
  const blocked = join(t.root, 'blocked');
  writeFileSync(blocked, 'a file where the cache folder would go\n');
  for (let i = 0; i < 2; i++) assert.deepEqual(run(t, ['kubectl'], { XDG_CACHE_HOME: blocked }), { status: 0, stdout: 'script A kubectl meta=true fs=function\n', stderr: '' });
});

test('old caches beyond the newest 32 are removed when a cache is written', () => {
  const t = tree();
  mkdirSync(cacheDir(t), { recursive: true });
  const old = new Date(Date.now() - 86_400_000);
  for (let i = 0; i < 36; i++) {
    const f = join(cacheDir(t), `kubectl-${String(i).padStart(32, '0')}.bin`);
    writeFileSync(f, 'old');
    utimesSync(f, old, new Date(old.getTime() + i * 1000));
  }
  run(t, ['kubectl']);
  const left = caches(t);
  assert.equal(left.length, 32);
  assert.ok(!left.includes(`kubectl-${'0'.repeat(32)}.bin`), 'the oldest went');
  assert.ok(left.some((n) => !n.startsWith('kubectl-000')), 'the new one stays');
});

// ---------------------------------------------------------------------------------------------
// The real bundle (after `npm run build`): the same output through the cache (cold and warm) as
// through the ES module chunks.

const REAL = join(ROOT, 'dist', 'bundle', 'main.vm.cjs');
const built = existsSync(REAL);

function real(args: string[], env: Record<string, string>, input?: string): { status: number | null; stdout: string; stderr: string } {
  const clean = { ...process.env };
  for (const k of [...VARS, 'LANG', 'LC_ALL', 'LC_MESSAGES']) delete clean[k];
  const r = spawnSync(process.execPath, [LAUNCHER, ...args], { env: { ...clean, TZ: 'UTC', ...env }, input: input ?? '', encoding: 'utf8', timeout: 120_000 });
  return { status: r.status, stdout: r.stdout, stderr: r.stderr };
}

test('the built bundle: the script has the launcher header and is ASCII', { skip: built ? false : 'no dist/bundle/main.vm.cjs (npm run build)' }, () => {
  const text = readFileSync(REAL, 'latin1');
  const m = /^\/\/ cka-lab script bundle sha256=([0-9a-f]{64})\n/.exec(text);
  assert.ok(m);
  assert.equal(createHash('sha256').update(text.slice(m[0].length), 'latin1').digest('hex'), m[1]);
  assert.doesNotMatch(text, /[\u0080-\uffff]/);
});

test('the built bundle: a first shell session that ran many commands caches what starting needs, no more', { skip: built ? false : 'no dist/bundle/main.vm.cjs (npm run build)' }, () => {
  const data = mkdtempSync(join(tmpdir(), 'cka-lab-launcher-repl-'));
  const env = { XDG_DATA_HOME: data, HOME: data };
  assert.equal(real(['kubectl', 'version', '--client'], { ...env, XDG_CACHE_HOME: join(data, 'one-shot') }).status, 0);
  const size = (home: string): number => {
    const dir = join(home, 'cka-lab', 'code-cache');
    return statSync(join(dir, readdirSync(dir).find((n) => n.startsWith('shell-'))!)).size;
  };
  const quiet = join(data, 'quiet');
  const busy = join(data, 'busy');
  assert.equal(real(['shell'], { ...env, XDG_CACHE_HOME: quiet }, '').status, 0);
  const session = 'kubectl get po -A\nkubectl describe no cka-w1\nssh cka-w1\nsudo iptables -t nat -S | head -3\nexit\nkubectl create deploy web --image=nginx\nkubectl get deploy,rs,po -o wide\nhelm list -A\necho hi | awk \'{print $1}\'\n';
  assert.equal(real(['shell'], { ...env, XDG_CACHE_HOME: busy }, session).status, 0);
  // (written at exit, the busy session's cache was about twice the quiet one's)
  assert.ok(size(busy) < size(quiet) * 1.1, `${size(busy)} bytes after a busy first session, ${size(quiet)} after a quiet one`);
});

test('the built bundle: a resumed session opens without loading the fixtures (whose prebuilt snapshots need zlib)', { skip: built ? false : 'no dist/bundle/main.vm.cjs (npm run build)' }, () => {
  const data = mkdtempSync(join(tmpdir(), 'cka-lab-launcher-fixtures-'));
  // the ES module path: the script path's launcher loads zlib itself (its cache checksum)
  const probe = join(data, 'probe.cjs');
  writeFileSync(probe, "process.on('exit', () => process.stderr.write('zlib=' + process.moduleLoadList.includes('NativeModule zlib') + '\\n'));\n");
  const env = { XDG_DATA_HOME: data, HOME: data, CKA_LAB_CODE_CACHE: '0', NODE_OPTIONS: `--require ${probe}` };
  assert.equal(real(['shell'], env, 'true\n').stderr, 'zlib=true\n', 'creating the session loads them');
  assert.equal(real(['shell'], env, 'true\n').stderr, 'zlib=false\n');
  assert.deepEqual(real(['kubectl', 'get', 'ns', 'default', '-o', 'name'], env), { status: 0, stdout: 'namespace/default\n', stderr: 'zlib=false\n' });
});

test('the built bundle: the same output with the code cache cold, warm and switched off', { skip: built ? false : 'no dist/bundle/main.vm.cjs (npm run build)' }, () => {
  const data = mkdtempSync(join(tmpdir(), 'cka-lab-launcher-real-'));
  const cacheHome = join(data, 'cache');
  const env = { XDG_DATA_HOME: data, XDG_CACHE_HOME: cacheHome, HOME: data };
  const lines = [
    { args: ['kubectl', 'get', 'nodes', '-o', 'name'] },
    { args: ['kubectl', 'get', 'po', '-A', '-o', 'custom-columns=NS:.metadata.namespace,NAME:.metadata.name,NODE:.spec.nodeName'] },
    { args: ['kubectl', 'create', 'configmap', 'launcher', '--from-literal=k=v', '--dry-run=client', '-o', 'yaml'] },
    { args: ['kubectl', 'get', 'nosuchkind'] },
    { args: ['shell'], input: 'kubectl get ns -o name\necho "$((6 * 7))"\ncat /etc/hostname\n' },
  ];
  for (const { args, input } of lines) {
    const plain = real(args, { ...env, CKA_LAB_CODE_CACHE: '0' }, input);
    const cold = real(args, { ...env, XDG_CACHE_HOME: mkdtempSync(join(tmpdir(), 'cka-lab-launcher-cold-')) }, input);
    const first = real(args, env, input);
    const warm = real(args, env, input);
    for (const [name, r] of Object.entries({ cold, first, warm })) assert.deepEqual(r, plain, `${args.join(' ')}: ${name}`);
  }
  assert.deepEqual(readdirSync(join(cacheHome, 'cka-lab', 'code-cache')).map((n) => n.replace(/-[0-9a-f]{32}\.bin$/, '')).sort(), ['kubectl-create', 'kubectl-get', 'shell']);
  // practice reads the scenario index beside the bundle (import.meta.url); its parameters are drawn
  // afresh each time, so the task's opening lines are compared
  const practice = ['practice', 'expose-nodeport'];
  const opening = (out: string): string => out.split('\n').slice(0, 4).join('\n');
  const p1 = real(practice, { ...env, CKA_LAB_CODE_CACHE: '0' }, 'task\nquit\n');
  assert.match(p1.stdout, /^Expose a Deployment on a fixed NodePort {2}\[expose-nodeport\]\n/);
  for (let i = 0; i < 2; i++) {
    const p = real(practice, env, 'task\nquit\n');
    assert.equal(p.status, p1.status);
    assert.equal(opening(p.stdout), opening(p1.stdout));
    assert.equal(p.stderr, p1.stderr);
  }
});
