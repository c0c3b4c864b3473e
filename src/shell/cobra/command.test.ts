import { describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { flagUsages, helpString, parseFlags, resolve, type CobraCommand, type FlagDef } from './command.js';
import { KUBEADM } from '../commands/node/kubeadm-spec.js';

// klog's flags as kubeadm v1.23 registered them: the Global Flags of a real `kubeadm token -h`
// (a learner's transcript, 2022, "Kubeadm Tokens and Printing Join Command") — pflag's layout.
const KLOG_1_23: FlagDef[] = [
  { name: 'add-dir-header', type: 'bool', usage: 'If true, adds the file directory to the header of the log messages' },
  { name: 'log-file', type: 'string', usage: 'If non-empty, use this log file' },
  { name: 'log-file-max-size', type: 'uint64', def: '1800', usage: 'Defines the maximum size a log file can grow to. Unit is megabytes. If the value is 0, the maximum file size is unlimited.' },
  { name: 'one-output', type: 'bool', usage: 'If true, only write logs to their native severity level (vs also writing to each lower severity level)' },
  { name: 'rootfs', type: 'string', usage: "[EXPERIMENTAL] The path to the 'real' host root filesystem." },
  { name: 'skip-headers', type: 'bool', usage: 'If true, avoid header prefixes in the log messages' },
  { name: 'skip-log-headers', type: 'bool', usage: 'If true, avoid headers when opening log files' },
  { name: 'v', short: 'v', type: 'Level', def: '0', usage: 'number for the log level verbosity' },
];

const REAL_1_23_GLOBALS = `      --add-dir-header           If true, adds the file directory to the header of the log messages
      --log-file string          If non-empty, use this log file
      --log-file-max-size uint   Defines the maximum size a log file can grow to. Unit is megabytes. If the value is 0, the maximum file size is unlimited. (default 1800)
      --one-output               If true, only write logs to their native severity level (vs also writing to each lower severity level)
      --rootfs string            [EXPERIMENTAL] The path to the 'real' host root filesystem.
      --skip-headers             If true, avoid header prefixes in the log messages
      --skip-log-headers         If true, avoid headers when opening log files
  -v, --v Level                  number for the log level verbosity`;

describe('pflag FlagUsages', () => {
  const cases: { name: string; flags: FlagDef[]; want: string }[] = [
    { name: 'real kubeadm 1.23 global flags (uint64 shows as uint, Level by its type name, zero defaults hidden)', flags: KLOG_1_23, want: REAL_1_23_GLOBALS },
    {
      name: 'sorted by name; string defaults quoted, others bare',
      flags: [
        { name: 'ttl', type: 'duration', def: '24h0m0s', usage: 'd' },
        { name: 'kubeconfig', type: 'string', def: '/x', usage: 'k' },
        { name: 'dry-run', type: 'bool', usage: 'b' },
      ],
      want: '      --dry-run             b\n      --kubeconfig string   k (default "/x")\n      --ttl duration        d (default 24h0m0s)',
    },
    { name: 'a back-quoted word names the value', flags: [{ name: 'f', type: 'string', usage: 'read `FILE` first' }], want: '      --f FILE   read FILE first' },
    { name: 'continuation lines line up under the usage', flags: [{ name: 'gates', type: 'string', usage: 'one:\na=true|false' }], want: '      --gates string   one:\n                       a=true|false' },
    { name: 'hidden flags are left out', flags: [{ name: 'a', type: 'bool', usage: 'x' }, { name: 'b', type: 'bool', usage: 'y', hidden: true }], want: '      --a   x' },
  ];
  for (const c of cases) it(c.name, () => assert.equal(flagUsages(c.flags), c.want));
});

describe('pflag Parse', () => {
  const flags: FlagDef[] = [
    { name: 'ttl', type: 'duration', usage: '' },
    { name: 'output', short: 'o', type: 'string', usage: '' },
    { name: 'force', short: 'f', type: 'bool', usage: '' },
    { name: 'yes', short: 'y', type: 'bool', usage: '' },
  ];
  const cases: { name: string; argv: string[]; want: { args?: string[]; values?: Record<string, string[]>; error?: string } }[] = [
    { name: 'interspersed words and flags', argv: ['a', '--ttl', '1h', 'b', '-o=json'], want: { args: ['a', 'b'], values: { ttl: ['1h'], output: ['json'] } } },
    { name: 'combined bool shorthands and an attached value', argv: ['-fy', '-ojson'], want: { args: [], values: { force: ['true'], yes: ['true'], output: ['json'] } } },
    { name: 'words after -- are arguments', argv: ['--', '--ttl'], want: { args: ['--ttl'], values: {} } },
    { name: 'unknown long flag', argv: ['--foo'], want: { error: 'unknown flag: --foo' } },
    { name: 'unknown shorthand', argv: ['-fx'], want: { error: "unknown shorthand flag: 'x' in -fx" } },
    { name: 'missing value', argv: ['--ttl'], want: { error: 'flag needs an argument: --ttl' } },
    { name: 'missing shorthand value', argv: ['-o'], want: { error: "flag needs an argument: 'o' in -o" } },
    { name: 'bad duration', argv: ['--ttl=1x'], want: { error: 'invalid argument "1x" for "--ttl" flag: time: invalid duration "1x"' } },
    { name: 'bad bool', argv: ['--force=maybe'], want: { error: 'invalid argument "maybe" for "-f, --force" flag: strconv.ParseBool: parsing "maybe": invalid syntax' } },
  ];
  for (const c of cases)
    it(c.name, () => {
      const got = parseFlags(c.argv, flags);
      if (c.want.error !== undefined) return assert.deepEqual(got, { error: c.want.error });
      assert.ok(!('error' in got));
      assert.deepEqual(got.args, c.want.args);
      assert.deepEqual(Object.fromEntries(got.values), c.want.values);
    });
});

describe('cobra resolve on kubeadm', () => {
  const cases: { name: string; argv: string[]; kind: string; path?: string; message?: string }[] = [
    { name: 'bare root prints help (no Run)', argv: [], kind: 'help' },
    { name: '--help after the words', argv: ['token', 'create', '--help'], kind: 'help' },
    { name: '-h before the words', argv: ['-h', 'token', 'create'], kind: 'help' },
    { name: '--help=false does not ask for help', argv: ['token', 'list', '--help=false'], kind: 'run', path: 'kubeadm token list' },
    { name: 'an unknown flag wins over -h', argv: ['token', 'create', '-h', '--foo'], kind: 'error', message: 'unknown flag: --foo' },
    { name: 'group without subcommand runs SubCmdRun', argv: ['upgrade'], kind: 'subcommands', path: 'kubeadm upgrade' },
    { name: 'alias', argv: ['certificates', 'renew', 'all'], kind: 'run', path: 'kubeadm certs renew all' },
    { name: 'flag value is not taken for a command word', argv: ['--rootfs', 'token', 'version'], kind: 'run', path: 'kubeadm version' },
    { name: 'unknown root command with suggestions', argv: ['verison'], kind: 'error', message: 'unknown command "verison" for "kubeadm"\n\nDid you mean this?\n\tversion\n' },
    { name: 'NoArgs', argv: ['token', 'generate', 'x'], kind: 'error', message: 'unknown command "x" for "kubeadm token generate"' },
    { name: 'help topic', argv: ['help', 'upgrade', 'plan'], kind: 'help' },
    { name: 'unknown help topic', argv: ['help', 'nope'], kind: 'unknown-topic' },
    { name: 'unrecorded command runs without flag checks', argv: ['join', '1.2.3.4:6443', '--token', 'x'], kind: 'run', path: 'kubeadm join' },
    { name: 'unrecorded command never runs under -h', argv: ['upgrade', 'apply', 'v1.35.3', '-h'], kind: 'unrecorded-help', path: 'kubeadm upgrade apply' },
    { name: 'klog flag names normalized (_ as -)', argv: ['token', 'list', '--show_managed_fields'], kind: 'run', path: 'kubeadm token list' },
  ];
  for (const c of cases)
    it(c.name, () => {
      const o = resolve(KUBEADM, c.argv, (n) => n.replaceAll('_', '-'));
      assert.equal(o.kind, c.kind);
      if (c.path !== undefined && 'path' in o) assert.equal(o.path.map((p) => p.use.split(' ')[0]).join(' '), c.path);
      if (c.message !== undefined && o.kind === 'error') assert.equal(o.message, c.message);
    });

  it('a command with Aliases lists them', () => {
    const root: CobraCommand = { use: 'x', short: 's', run: 'none', commands: [{ use: 'certs', aliases: ['certificates'], short: 'c', run: 'run' }] };
    const o = resolve(root, ['certs', '-h']);
    assert.equal(o.kind, 'help');
    assert.match((o as { stdout: string }).stdout, /\nAliases:\n {2}certs, certificates\n/);
  });
});

// The Flags section of a real `kubeadm token create -h` (same 2022 transcript): its local flags are
// unchanged since, so the declaration and pflag's layout must give it byte for byte.
const REAL_TOKEN_CREATE_FLAGS = `Flags:
      --certificate-key string   When used together with '--print-join-command', print the full 'kubeadm join' flag needed to join the cluster as a control-plane. To create a new certificate key you must use 'kubeadm init phase upload-certs --upload-certs'.
      --config string            Path to a kubeadm configuration file.
      --description string       A human friendly description of how this token is used.
      --groups strings           Extra groups that this token will authenticate as when used for authentication. Must match "\\\\Asystem:bootstrappers:[a-z0-9:-]{0,255}[a-z0-9]\\\\z" (default [system:bootstrappers:kubeadm:default-node-token])
  -h, --help                     help for create
      --print-join-command       Instead of printing only the token, print the full 'kubeadm join' flag needed to join the cluster using the token.
      --ttl duration             The duration before the token is automatically deleted (e.g. 1s, 2m, 3h). If set to '0', the token will never expire (default 24h0m0s)
      --usages strings           Describes the ways in which this token can be used. You can pass --usages multiple times or provide a comma separated list of options. Valid options: [signing,authentication] (default [signing,authentication])
`;

it('kubeadm token create -h: the Flags section equals real kubeadm output', () => {
  const token = KUBEADM.commands!.find((c) => c.use === 'token')!;
  const create = token.commands!.find((c) => c.use.startsWith('create'))!;
  const help = helpString([KUBEADM, token, create]);
  const flags = help.slice(help.indexOf('Flags:\n'), help.indexOf('\nGlobal Flags:'));
  assert.equal(flags, REAL_TOKEN_CREATE_FLAGS);
  assert.ok(help.startsWith('\nThis command will create a bootstrap token for you.\n'), 'dedent keeps the leading newline');
});
