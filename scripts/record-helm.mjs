#!/usr/bin/env node
/**
 * Build the offline Helm chart repository and record goldens from the real helm v4.1.4
 * (.cache/helm/helm, client-side commands only).
 *
 *   node scripts/record-helm.mjs            # rebuild fixtures/helm/stable, data module and goldens
 *   node scripts/record-helm.mjs --goldens  # only re-record the goldens
 *   node scripts/record-helm.mjs --help     # only re-record the help texts
 *
 * 1. Charts: `web` 1.0.0/1.1.0/1.2.0 is `helm create web` with its Chart.yaml and values edited per
 *    version; `app-stack` (a subchart and global values) and `widget-operator` (CRDs in crds/)
 *    are the directories under fixtures/helm/src/. Each is packaged with `helm package` into
 *    fixtures/helm/stable/, indexed with `helm repo index --url https://charts.example.com/stable`,
 *    and the index's timestamps are pinned so the fixture is stable.
 * 2. `helm create` scaffold: recorded file by file into fixtures/helm/scaffold/ (chart name
 *    `SCAFFOLD`, which the simulator replaces with the name given).
 * 3. src/shell/helm/data.generated.ts embeds every file under fixtures/helm/{stable,scaffold}
 *    (base64), because the shell reads no disk at run time.
 * 4. Help: `helm PATH --help` for every command path the simulator serves (HELP_PATHS), and
 *    `helm help TOPIC` for an unknown topic, run with HOME=/__HOME__ and no other environment so
 *    the default paths in the flags show where HOME goes; written to
 *    src/shell/helm/help.generated.ts (the shell puts the user's HOME back in).
 * 5. Goldens: each line `NAME<TAB>ARGS…` of src/shell/helm/testdata/cases.tsv runs
 *    `helm ARGS` in /tmp/cka-helm (the web, app-stack and operator charts unpacked there) and
 *    writes exit code, stdout and stderr to testdata/NAME.golden (`help-*` cases with HOME=/root
 *    and nothing else set, as the exam's root shell has it).
 */
import { execFileSync, spawnSync } from 'node:child_process';
import { cpSync, mkdirSync, readFileSync, readdirSync, rmSync, statSync, writeFileSync } from 'node:fs';
import { dirname, join, relative } from 'node:path';
import { fileURLToPath } from 'node:url';

const root = join(dirname(fileURLToPath(import.meta.url)), '..');
const helmBin = join(root, '.cache/helm/helm');
const fx = join(root, 'fixtures/helm');
const work = '/tmp/cka-helm';
const env = { HOME: join(work, 'home'), PATH: process.env.PATH ?? '', HELM_CACHE_HOME: join(work, 'cache'), HELM_CONFIG_HOME: join(work, 'config'), HELM_DATA_HOME: join(work, 'data') };
const helm = (args, cwd = work) => execFileSync(helmBin, args, { cwd, env, encoding: 'utf8' });
const PINNED = '2026-01-15T10:00:00.000000000Z';

/** Edit a file by replacing each [from, to] pair once; fail loudly when the scaffold changed. */
function edit(path, pairs) {
  let text = readFileSync(path, 'utf8');
  for (const [from, to] of pairs) {
    if (!text.includes(from)) throw new Error(`${path}: ${from} not found`);
    text = text.replace(from, to);
  }
  writeFileSync(path, text);
}

const WEB = [
  { version: '1.0.0', appVersion: '1.25.0', replicas: 1, port: 80 },
  { version: '1.1.0', appVersion: '1.26.0', replicas: 1, port: 80 },
  { version: '1.2.0', appVersion: '1.27.0', replicas: 2, port: 8080 },
];

function buildWeb(v, dest) {
  rmSync(join(dest, 'web'), { recursive: true, force: true });
  helm(['create', 'web'], dest);
  const dir = join(dest, 'web');
  edit(join(dir, 'Chart.yaml'), [
    ['description: A Helm chart for Kubernetes', 'description: A simple nginx web server'],
    ['version: 0.1.0', `version: ${v.version}`],
    ['appVersion: "1.16.0"', `appVersion: "${v.appVersion}"`],
  ]);
  edit(join(dir, 'values.yaml'), [
    ['replicaCount: 1', `replicaCount: ${v.replicas}`],
    ['  port: 80', `  port: ${v.port}`],
  ]);
  // nginx listens on 80 whatever the Service port is
  edit(join(dir, 'templates/deployment.yaml'), [['containerPort: {{ .Values.service.port }}', 'containerPort: 80']]);
  writeFileSync(join(dir, 'README.md'), `# web\n\nnginx ${v.appVersion} behind a ClusterIP Service.\n\n| value | default |\n| --- | --- |\n| replicaCount | ${v.replicas} |\n| service.port | ${v.port} |\n`);
  return dir;
}

function buildRepo() {
  const stable = join(fx, 'stable');
  rmSync(stable, { recursive: true, force: true });
  mkdirSync(stable, { recursive: true });
  const tmp = join(work, 'build');
  rmSync(tmp, { recursive: true, force: true });
  mkdirSync(tmp, { recursive: true });
  for (const v of WEB) helm(['package', buildWeb(v, tmp), '-d', stable]);
  helm(['package', join(fx, 'src/app-stack'), '-d', stable]);
  helm(['package', join(fx, 'src/operator'), '-d', stable]);
  helm(['repo', 'index', stable, '--url', 'https://charts.example.com/stable']);
  const idx = join(stable, 'index.yaml');
  writeFileSync(idx, readFileSync(idx, 'utf8').replace(/(created|generated): "?[0-9T:.\-+Z]+"?/g, `$1: "${PINNED}"`));
}

function recordScaffold() {
  const dest = join(fx, 'scaffold');
  rmSync(dest, { recursive: true, force: true });
  const tmp = join(work, 'scaffold');
  rmSync(tmp, { recursive: true, force: true });
  mkdirSync(tmp, { recursive: true });
  helm(['create', 'SCAFFOLD'], tmp);
  cpSync(join(tmp, 'SCAFFOLD'), dest, { recursive: true });
}

function walk(dir) {
  return readdirSync(dir).sort().flatMap((n) => (statSync(join(dir, n)).isDirectory() ? walk(join(dir, n)) : [join(dir, n)]));
}

function writeDataModule() {
  const files = ['stable', 'scaffold'].flatMap((d) => walk(join(fx, d)));
  const lines = files.map((f) => `  ${JSON.stringify(relative(fx, f))}: ${JSON.stringify(readFileSync(f).toString('base64'))},`);
  writeFileSync(
    join(root, 'src/shell/helm/data.generated.ts'),
    `/**\n * Generated by scripts/record-helm.mjs from fixtures/helm/ (do not edit): the offline chart\n * repository (stable/: index.yaml and packaged charts) and the \`helm create\` scaffold\n * (scaffold/), base64-encoded, because the shell reads no disk at run time.\n */\nexport const HELM_DATA: Readonly<Record<string, string>> = {\n${lines.join('\n')}\n};\n`,
  );
}

/** Every command path the simulator answers `-h`/`--help` for ('' is the root command). */
const HELP_PATHS = [
  '', 'create', 'get', 'get all', 'get hooks', 'get manifest', 'get metadata', 'get notes', 'get values', 'history', 'install', 'lint', 'list', 'pull',
  'repo', 'repo add', 'repo list', 'repo remove', 'repo update', 'rollback', 'search', 'search hub', 'search repo', 'show', 'show all', 'show chart', 'show crds', 'show readme',
  'show values', 'status', 'template', 'test', 'uninstall', 'upgrade', 'version', 'env', 'package', 'dependency', 'dependency build', 'dependency list', 'dependency update',
];
const HELP_HOME = '/__HOME__';
const UNKNOWN_TOPIC = '__TOPIC__';

function recordHelp() {
  const run = (args) => execFileSync(helmBin, args, { cwd: work, env: { HOME: HELP_HOME, PATH: '/usr/bin:/bin' }, encoding: 'utf8' });
  const help = {};
  for (const p of HELP_PATHS) help[p] = run([...p.split(' ').filter(Boolean), '--help']);
  // cobra prints an unknown topic's answer on stderr, exit status 0
  const u = spawnSync(helmBin, ['help', UNKNOWN_TOPIC], { cwd: work, env: { HOME: HELP_HOME, PATH: '/usr/bin:/bin' }, encoding: 'utf8' });
  if (u.status !== 0 || u.stdout !== '') throw new Error(`helm help ${UNKNOWN_TOPIC}: exit ${u.status}, stdout ${JSON.stringify(u.stdout)}`);
  const unknown = u.stderr;
  writeFileSync(
    join(root, 'src/shell/helm/help.generated.ts'),
    `/**\n * Generated by scripts/record-helm.mjs from the real helm v4.1.4 (do not edit): \`helm PATH --help\`\n * for each command path the simulator serves, recorded with HOME=${HELP_HOME} (HELP_HOME, where the\n * user's home goes), and \`helm help ${UNKNOWN_TOPIC}\` (UNKNOWN_TOPIC: the topic asked for; on stderr).\n */\nexport const HELP_HOME = ${JSON.stringify(HELP_HOME)};\nexport const UNKNOWN_TOPIC = ${JSON.stringify(UNKNOWN_TOPIC)};\nexport const HELM_UNKNOWN_TOPIC = ${JSON.stringify(unknown)};\nexport const HELM_HELP: Readonly<Record<string, string>> = {\n${HELP_PATHS.map((p) => `  ${JSON.stringify(p)}: ${JSON.stringify(help[p])},`).join('\n')}\n};\n`,
  );
}

function recordGoldens() {
  const testdata = join(root, 'src/shell/helm/testdata');
  const charts = join(work, 'charts');
  rmSync(charts, { recursive: true, force: true });
  mkdirSync(charts, { recursive: true });
  for (const f of readdirSync(join(fx, 'stable')).filter((n) => n.endsWith('.tgz'))) {
    const m = /^(.*)-(\d+\.\d+\.\d+)\.tgz$/.exec(f);
    const d = join(charts, `${m[1]}-${m[2]}`);
    mkdirSync(d, { recursive: true });
    execFileSync('tar', ['xzf', join(fx, 'stable', f), '-C', d]);
  }
  cpSync(join(testdata, 'values'), join(charts, 'values'), { recursive: true });
  const cases = readFileSync(join(testdata, 'cases.tsv'), 'utf8').split('\n').filter((l) => l && !l.startsWith('#'));
  for (const line of cases) {
    const [name, ...args] = line.split('\t');
    // help texts show the default paths under HOME: record them as root sees them on the exam host
    const caseEnv = name.startsWith('help-') ? { HOME: '/root', PATH: '/usr/bin:/bin' } : env;
    const r = spawnSync(helmBin, args, { cwd: charts, env: caseEnv, encoding: 'utf8' });
    writeFileSync(join(testdata, `${name}.golden`), `exit: ${r.status}\n--- stdout\n${r.stdout}--- stderr\n${r.stderr}`);
    console.log(`${name}: exit ${r.status}`);
  }
}

mkdirSync(work, { recursive: true });
if (process.argv.includes('--help')) {
  recordHelp();
  process.exit(0);
}
if (!process.argv.includes('--goldens')) {
  buildRepo();
  recordScaffold();
  writeDataModule();
}
if (!process.argv.includes('--goldens')) recordHelp();
recordGoldens();
