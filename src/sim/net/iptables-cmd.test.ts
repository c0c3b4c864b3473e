import { test } from 'node:test';
import assert from 'node:assert/strict';
import { newIptablesState } from './iptables.js';
import { runIptables, runIptablesRestore, runIptablesSave } from './iptables-cmd.js';

const TRY = "Try `iptables -h' or 'iptables --help' for more information.\n";
const V = 'iptables v1.8.7 (nf_tables)';

interface Case {
  name: string;
  /** commands run first; each must succeed */
  setup?: string[][];
  argv: string[];
  stdout?: string;
  stderr?: string;
  exitCode: number;
}

const cases: Case[] = [
  { name: 'no command', argv: ['-t', 'nat'], stderr: `${V}: no command specified\n${TRY}`, exitCode: 2 },
  { name: 'unknown table', argv: ['-t', 'foo', '-S'], stderr: `${V}: table 'foo' does not exist\nPerhaps iptables or your kernel needs to be upgraded.\n`, exitCode: 3 },
  { name: 'append to missing chain', argv: ['-A', 'FOO', '-j', 'ACCEPT'], stderr: 'iptables: No chain/target/match by that name.\n', exitCode: 1 },
  { name: 'jump to unknown target', argv: ['-A', 'INPUT', '-j', 'FOO'], stderr: `${V}: Couldn't load target \`FOO':No such file or directory\n\n${TRY}`, exitCode: 2 },
  { name: 'unknown option', argv: ['-A', 'INPUT', '--dport', '80', '-j', 'ACCEPT'], stderr: `${V}: unknown option "--dport"\n${TRY}`, exitCode: 2 },
  { name: 'delete missing rule', argv: ['-D', 'INPUT', '-s', '1.2.3.4', '-j', 'DROP'], stderr: 'iptables: Bad rule (does a matching rule exist in that chain?).\n', exitCode: 1 },
  { name: 'check missing rule', argv: ['-C', 'INPUT', '-j', 'DROP'], stderr: 'iptables: Bad rule (does a matching rule exist in that chain?).\n', exitCode: 1 },
  { name: 'check existing rule', setup: [['-A', 'INPUT', '-p', 'tcp', '--dport', '22', '-j', 'ACCEPT']], argv: ['-C', 'INPUT', '-p', 'tcp', '-m', 'tcp', '--dport', '22', '-j', 'ACCEPT'], stdout: '', exitCode: 0 },
  { name: 'delete by number too big', argv: ['-D', 'INPUT', '3'], stderr: 'iptables: Index of deletion too big.\n', exitCode: 1 },
  { name: 'delete number zero', argv: ['-D', 'INPUT', '0'], stderr: `${V}: Invalid rule number \`0'\n${TRY}`, exitCode: 2 },
  { name: 'insert too far', argv: ['-I', 'INPUT', '5', '-j', 'ACCEPT'], stderr: 'iptables: Index of insertion too big.\n', exitCode: 1 },
  { name: 'replace too far', argv: ['-R', 'INPUT', '1', '-j', 'ACCEPT'], stderr: 'iptables: Index of replacement too big.\n', exitCode: 1 },
  { name: 'new chain twice', setup: [['-N', 'MYCHAIN']], argv: ['-N', 'MYCHAIN'], stderr: 'iptables: Chain already exists.\n', exitCode: 1 },
  { name: 'delete referenced chain', setup: [['-N', 'MYCHAIN'], ['-A', 'INPUT', '-j', 'MYCHAIN']], argv: ['-X', 'MYCHAIN'], stderr: `${V}:  CHAIN_USER_DEL failed (Device or resource busy): chain MYCHAIN\n`, exitCode: 1 },
  { name: 'policy on user chain', setup: [['-N', 'MYCHAIN']], argv: ['-P', 'MYCHAIN', 'DROP'], stderr: 'iptables: Bad built-in chain name.\n', exitCode: 1 },
  { name: 'list missing chain', argv: ['-L', 'NOPE'], stderr: 'iptables: No chain/target/match by that name.\n', exitCode: 1 },
  { name: 'illegal option with -L', argv: ['-L', '-s', '1.2.3.4'], stderr: `${V}: Illegal option \`-s' with this command\n\n${TRY}`, exitCode: 2 },
  { name: 'two commands', argv: ['-A', 'INPUT', '-D', 'INPUT'], stderr: `${V}: Cannot use -D with -A\n\n${TRY}`, exitCode: 2 },
  {
    name: '-S after -A/-I',
    setup: [['-A', 'INPUT', '-p', 'tcp', '--dport', '22', '-j', 'ACCEPT'], ['-I', 'INPUT', '-s', '10.0.0.0/8', '-j', 'DROP'], ['-P', 'FORWARD', 'DROP']],
    argv: ['-S'],
    stdout: '-P INPUT ACCEPT\n-P FORWARD DROP\n-P OUTPUT ACCEPT\n-A INPUT -s 10.0.0.0/8 -j DROP\n-A INPUT -p tcp -m tcp --dport 22 -j ACCEPT\n',
    exitCode: 0,
  },
  {
    name: '-S chain with user chain',
    setup: [['-t', 'nat', '-N', 'MY-DNAT'], ['-t', 'nat', '-A', 'MY-DNAT', '-p', 'tcp', '-d', '10.0.0.1', '--dport', '80', '-j', 'DNAT', '--to-destination', '10.244.1.2:8080']],
    argv: ['-t', 'nat', '-S', 'MY-DNAT'],
    stdout: '-N MY-DNAT\n-A MY-DNAT -d 10.0.0.1/32 -p tcp -m tcp --dport 80 -j DNAT --to-destination 10.244.1.2:8080\n',
    exitCode: 0,
  },
  {
    name: '-L -n --line-numbers',
    setup: [['-A', 'OUTPUT', '-p', 'tcp', '-d', '10.0.2.0/24', '--dport', '5432', '-j', 'REJECT'], ['-A', 'OUTPUT', '-p', 'udp', '--dport', '53', '-j', 'ACCEPT']],
    argv: ['-L', 'OUTPUT', '-n', '--line-numbers'],
    stdout:
      'Chain OUTPUT (policy ACCEPT)\n' +
      'num  target     prot opt source               destination         \n' +
      '1    REJECT     tcp  --  0.0.0.0/0            10.0.2.0/24          tcp dpt:5432 reject-with icmp-port-unreachable\n' +
      '2    ACCEPT     udp  --  0.0.0.0/0            0.0.0.0/0            udp dpt:53\n',
    exitCode: 0,
  },
  {
    name: '-nvL combined flags',
    setup: [['-A', 'INPUT', '-i', 'eth0', '-p', 'tcp', '-j', 'DROP']],
    argv: ['-nvL', 'INPUT'],
    stdout:
      'Chain INPUT (policy ACCEPT 0 packets, 0 bytes)\n' +
      ' pkts bytes target     prot opt in     out     source               destination         \n' +
      '    0     0 DROP       tcp  --  eth0   *       0.0.0.0/0            0.0.0.0/0           \n',
    exitCode: 0,
  },
  {
    name: '-L without -n names anywhere and services',
    setup: [['-A', 'INPUT', '-p', 'tcp', '--dport', '443', '-j', 'ACCEPT']],
    argv: ['-L', 'INPUT'],
    stdout: 'Chain INPUT (policy ACCEPT)\ntarget     prot opt source               destination         \nACCEPT     tcp  --  anywhere             anywhere             tcp dpt:https\n',
    exitCode: 0,
  },
  { name: 'delete by spec then list', setup: [['-A', 'INPUT', '-s', '1.2.3.4', '-j', 'DROP'], ['-D', 'INPUT', '-s', '1.2.3.4/32', '-j', 'DROP']], argv: ['-S', 'INPUT'], stdout: '-P INPUT ACCEPT\n', exitCode: 0 },
  { name: 'flush and delete chain', setup: [['-N', 'X1'], ['-A', 'X1', '-j', 'ACCEPT'], ['-F', 'X1'], ['-X', 'X1']], argv: ['-S'], stdout: '-P INPUT ACCEPT\n-P FORWARD ACCEPT\n-P OUTPUT ACCEPT\n', exitCode: 0 },
  { name: 'user chains listed sorted', setup: [['-N', 'ZED'], ['-N', 'ALPHA']], argv: ['-S'], stdout: '-P INPUT ACCEPT\n-P FORWARD ACCEPT\n-P OUTPUT ACCEPT\n-N ALPHA\n-N ZED\n', exitCode: 0 },
];

for (const c of cases) {
  test(`iptables ${c.name}`, () => {
    const st = newIptablesState();
    for (const s of c.setup ?? []) {
      const r = runIptables(st, s);
      assert.equal(r.exitCode, 0, `setup ${s.join(' ')}: ${r.stderr}`);
    }
    const r = runIptables(st, c.argv);
    assert.equal(r.stderr, c.stderr ?? '');
    if (c.stdout !== undefined) assert.equal(r.stdout, c.stdout);
    assert.equal(r.exitCode, c.exitCode);
  });
}

test('non-root gets the permission error', () => {
  const r = runIptables(newIptablesState(), ['-S'], { root: false });
  assert.equal(r.stderr, `${V}: Could not fetch rule set generation id: Permission denied (you must be root)\n\n`);
  assert.equal(r.exitCode, 4);
});

test('iptables-save -t filter with header and footer', () => {
  const st = newIptablesState();
  runIptables(st, ['-A', 'INPUT', '-s', '192.168.0.0/16', '-j', 'ACCEPT']);
  const r = runIptablesSave(st, ['-t', 'filter'], { now: Date.UTC(2025, 2, 4, 10, 20, 30) });
  assert.equal(
    r.stdout,
    '# Generated by iptables-save v1.8.7 (nf_tables) on Tue Mar  4 10:20:30 2025\n*filter\n:INPUT ACCEPT [0:0]\n:FORWARD ACCEPT [0:0]\n:OUTPUT ACCEPT [0:0]\n-A INPUT -s 192.168.0.0/16 -j ACCEPT\nCOMMIT\n# Completed on Tue Mar  4 10:20:30 2025\n',
  );
});

test('iptables-restore --noflush round-trips a save', () => {
  const st = newIptablesState();
  runIptables(st, ['-t', 'nat', '-N', 'A-CHAIN']);
  runIptables(st, ['-t', 'nat', '-A', 'A-CHAIN', '-p', 'udp', '--dport', '53', '-m', 'comment', '--comment', 'dns x', '-j', 'ACCEPT']);
  const saved = runIptablesSave(st, ['-t', 'nat'], { now: 0 }).stdout;
  const st2 = newIptablesState();
  const r = runIptablesRestore(st2, ['--noflush'], saved);
  assert.equal(r.exitCode, 0, r.stderr);
  assert.equal(runIptablesSave(st2, ['-t', 'nat'], { now: 0 }).stdout, saved);
});

test('iptables-restore reports the failing line and leaves the ruleset unchanged', () => {
  const st = newIptablesState();
  const r = runIptablesRestore(st, [], '*filter\n-A INPUT -j ACCEPT\n-A INPUT -j NOPE\nCOMMIT\n');
  assert.equal(r.exitCode, 2);
  assert.equal(
    r.stderr,
    "iptables-restore v1.8.7 (nf_tables): Couldn't load target `NOPE':No such file or directory\nError occurred at line: 3\nTry `iptables-restore -h' or 'iptables-restore --help' for more information.\n",
  );
  assert.equal(runIptables(st, ['-S', 'INPUT']).stdout, '-P INPUT ACCEPT\n');
});
