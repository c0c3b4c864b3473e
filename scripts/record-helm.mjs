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
 *    version; the others are the directories under fixtures/helm/src/ (SOURCES: `app-stack`, a
 *    subchart and global values; `widget-operator`, CRDs in crds/; `ingress-nginx`, an ingress
 *    controller with its IngressClass and RBAC), each the newest version, the older versions
 *    derived from it by the edits listed there. Each is packaged with `helm package`; an archive
 *    not yet in fixtures/helm/stable/ is copied there, one already there is KEPT byte for byte
 *    (helm package stamps the current time into the archive, so packaging again would change the
 *    digest every golden and release records; delete the .tgz to rebuild it). The directory is
 *    indexed with `helm repo index --url https://charts.example.com/stable`, and the index's
 *    timestamps are pinned so the fixture is stable.
 * 2. `helm create` scaffold: recorded file by file into fixtures/helm/scaffold/ (chart name
 *    `SCAFFOLD`, which the simulator replaces with the name given).
 * 3. src/shell/helm/data.generated.ts embeds every file under fixtures/helm/{stable,scaffold}
 *    (base64), because the shell reads no disk at run time.
 * 4. Help: `helm PATH --help` for every command path the simulator serves (HELP_PATHS), and
 *    `helm help TOPIC` for an unknown topic, run with HOME=/__HOME__ and no other environment so
 *    the default paths in the flags show where HOME goes; written to
 *    src/shell/helm/help.generated.ts (the shell puts the user's HOME back in).
 * 5. Goldens: each line `NAME<TAB>ARGS…` of src/shell/helm/testdata/cases.tsv runs
 *    `helm ARGS` in /tmp/cka-helm/charts (every packaged chart unpacked there as NAME-VERSION/),
 *    with the repository `stable` added from fixtures/helm/stable served at
 *    http://127.0.0.1:8879/stable (a fresh helm config and cache each run), and
 *    writes exit code, stdout and stderr to testdata/NAME.golden (`help-*` cases with HOME=/root
 *    and nothing else set, as the exam's root shell has it).
 */
import { execFileSync, spawn, spawnSync } from 'node:child_process';
import { cpSync, existsSync, mkdirSync, readFileSync, readdirSync, rmSync, statSync, writeFileSync } from 'node:fs';
import { dirname, join, relative } from 'node:path';
import { fileURLToPath } from 'node:url';
import { serveStable } from './helm-stable-server.mjs';

const root = join(dirname(fileURLToPath(import.meta.url)), '..');
const helmBin = join(root, '.cache/helm/helm');
const fx = join(root, 'fixtures/helm');
const work = '/tmp/cka-helm';
const env = { HOME: join(work, 'home'), PATH: process.env.PATH ?? '', HELM_CACHE_HOME: join(work, 'cache'), HELM_CONFIG_HOME: join(work, 'config'), HELM_DATA_HOME: join(work, 'data') };
const helm = (args, cwd = work) => execFileSync(helmBin, args, { cwd, env, encoding: 'utf8' });
const PINNED = '2026-01-15T10:00:00.000000000Z';
/** Where the goldens' helm finds the repository `stable` (helm.test.ts reads it as RECORDED_URL). */
const RECORD_PORT = 8879;
const RECORD_URL = `http://127.0.0.1:${RECORD_PORT}/stable`;

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

/** The lines of controller-service.yaml that set a fixed node port (ingress-nginx 4.13.0 added them). */
const nodePortLines = (port) =>
  `\n      {{- if and (ne .Values.controller.service.type "ClusterIP") .Values.controller.service.nodePorts.${port} }}\n      nodePort: {{ .Values.controller.service.nodePorts.${port} }}\n      {{- end }}`;

/**
 * The charts under fixtures/helm/src/: DIR holds the newest version; `older` maps each older
 * version to the [from, to] edits (per file, relative to the chart) that turn a copy of DIR into it.
 */
const SOURCES = [
  {
    dir: 'app-stack',
    older: {
      // 0.2.0: one front end replica in dev, the cache subchart's first version (Redis 7.0)
      '0.2.0': {
        'Chart.yaml': [['version: 0.3.0', 'version: 0.2.0'], ['appVersion: "2.4.0"', 'appVersion: "2.3.1"'], ['    version: 0.2.0', '    version: 0.1.0']],
        'values.yaml': [['  environment: staging', '  environment: dev'], ['  replicaCount: 2', '  replicaCount: 1']],
        'charts/cache/Chart.yaml': [['version: 0.2.0', 'version: 0.1.0'], ['appVersion: "7.2"', 'appVersion: "7.0"']],
      },
    },
  },
  {
    dir: 'operator',
    older: {
      // 0.4.0: the Widget CRD without its short name, an older httpd as the manager
      '0.4.0': {
        'Chart.yaml': [['version: 0.5.0', 'version: 0.4.0'], ['appVersion: "0.5.0"', 'appVersion: "0.4.0"']],
        'values.yaml': [['  tag: "2.4"', '  tag: "2.4.62"']],
        'crds/widgets.example.com.yaml': [['    singular: widget\n    shortNames:\n      - wdg\n', '    singular: widget\n']],
      },
    },
  },
  {
    dir: 'ingress-nginx',
    older: {
      '4.13.0': {
        'Chart.yaml': [['version: 4.14.0', 'version: 4.13.0'], ['appVersion: "1.14.0"', 'appVersion: "1.13.0"']],
        'values.yaml': [['    tag: "v1.14.0"', '    tag: "v1.13.0"']],
      },
      // 4.12.1: no Service nodePorts values yet (the allocator picks them)
      '4.12.1': {
        'Chart.yaml': [['version: 4.14.0', 'version: 4.12.1'], ['appVersion: "1.14.0"', 'appVersion: "1.12.1"']],
        'values.yaml': [['    tag: "v1.14.0"', '    tag: "v1.12.1"'], ['    # Fixed node ports (type NodePort or LoadBalancer); empty lets the cluster pick them.\n    nodePorts:\n      http: ""\n      https: ""\n', '']],
        'templates/controller-service.yaml': [[nodePortLines('http'), ''], [nodePortLines('https'), '']],
      },
    },
  },
];

function buildRepo() {
  const stable = join(fx, 'stable');
  mkdirSync(stable, { recursive: true });
  const tmp = join(work, 'build');
  const out = join(tmp, 'out');
  rmSync(tmp, { recursive: true, force: true });
  mkdirSync(out, { recursive: true });
  for (const v of WEB) helm(['package', buildWeb(v, tmp), '-d', out]);
  for (const { dir, older } of SOURCES) {
    const src = join(fx, 'src', dir);
    helm(['package', src, '-d', out]);
    for (const [version, files] of Object.entries(older)) {
      const copy = join(tmp, `${dir}-${version}`, dir);
      cpSync(src, copy, { recursive: true });
      for (const [f, pairs] of Object.entries(files)) edit(join(copy, f), pairs);
      helm(['package', copy, '-d', out]);
    }
  }
  for (const f of readdirSync(out).sort()) {
    if (existsSync(join(stable, f))) {
      console.log(`${f}: kept`);
      continue;
    }
    cpSync(join(out, f), join(stable, f));
    console.log(`${f}: added`);
  }
  for (const f of readdirSync(stable).filter((n) => n.endsWith('.tgz') && !existsSync(join(out, n)))) console.warn(`${f}: no longer built (delete it by hand if it should go)`);
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


/** Run the real helm without blocking the event loop (the repository is served in this process). */
function runHelm(args, cwd, runEnv) {
  return new Promise((resolve) => {
    const p = spawn(helmBin, args, { cwd, env: runEnv });
    let stdout = '';
    let stderr = '';
    p.stdout.on('data', (d) => (stdout += d));
    p.stderr.on('data', (d) => (stderr += d));
    p.on('close', (status) => resolve({ status, stdout, stderr }));
  });
}

async function recordGoldens() {
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
  for (const d of ['home', 'cache', 'config', 'data']) rmSync(join(work, d), { recursive: true, force: true });
  const server = await serveStable(join(fx, 'stable'), RECORD_PORT);
  const add = await runHelm(['repo', 'add', 'stable', RECORD_URL], charts, env);
  if (add.status !== 0) throw new Error(`helm repo add: ${add.stderr}`);
  const cases = readFileSync(join(testdata, 'cases.tsv'), 'utf8').split('\n').filter((l) => l && !l.startsWith('#'));
  for (const line of cases) {
    const [name, ...args] = line.split('\t');
    // help texts show the default paths under HOME: record them as root sees them on the exam host
    const caseEnv = name.startsWith('help-') ? { HOME: '/root', PATH: '/usr/bin:/bin' } : env;
    const r = await runHelm(args, charts, caseEnv);
    writeFileSync(join(testdata, `${name}.golden`), `exit: ${r.status}\n--- stdout\n${r.stdout}--- stderr\n${r.stderr}`);
    console.log(`${name}: exit ${r.status}`);
  }
  server.close();
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
  recordHelp();
}
await recordGoldens();
