/**
 * The text tools inside a busybox container speak busybox (busybox.ts). Expected strings were
 * recorded from busybox 1.35 (Debian) and busybox 1.36.1 built with `make defconfig` (the busybox
 * image's configuration); where the two differ the 1.36.1 text is used. Each case runs once in a
 * busybox pod and once in an nginx (Debian, GNU coreutils) pod, where GNU's words must stay.
 */
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { loadFixture } from '../../testing/fixtures.js';
import { Session } from '../session.js';
import { bbColumnate } from './ls.js';
import { hostsLookup } from './hostname.js';

interface Case {
  name: string;
  /** The command line run in the container; files `g` (`a b\n`) and directory `d` exist in /tmp. */
  cmd: string;
  busybox: { stdout: string; stderr: string; exitCode: number };
  gnu?: { stdout: string; stderr: string; exitCode: number };
}

const CAT_USAGE =
  'BusyBox v1.36.1 (2023-05-18 22:34:17 UTC) multi-call binary.\n\nUsage: cat [-nbvteA] [FILE]...\n\nPrint FILEs to stdout\n\n\t-n\tNumber output lines\n\t-b\tNumber nonempty lines\n\t-v\tShow nonprinting characters as ^x or M-x\n\t-t\t...and tabs as ^I\n\t-e\t...and end lines with $\n\t-A\tSame as -vte\n';

const HEAD_USAGE =
  'BusyBox v1.36.1 (2023-05-18 22:34:17 UTC) multi-call binary.\n\nUsage: head [OPTIONS] [FILE]...\n\nPrint first 10 lines of FILEs (or stdin).\nWith more than one FILE, precede each with a filename header.\n\n\t-n N[bkm]\tPrint first N lines\n\t-n -N[bkm]\tPrint all except N last lines\n\t-c [-]N[bkm]\tPrint first N bytes\n\t\t\t(b:*512 k:*1024 m:*1024^2)\n\t-q\t\tNever print headers\n\t-v\t\tAlways print headers\n';

const CASES: Case[] = [
  { name: 'cat missing file', cmd: 'cat /nope', busybox: { stdout: '', stderr: "cat: can't open '/nope': No such file or directory\n", exitCode: 1 }, gnu: { stdout: '', stderr: 'cat: /nope: No such file or directory\n', exitCode: 1 } },
  { name: 'cat of a directory', cmd: 'cat d', busybox: { stdout: '', stderr: 'cat: read error: Is a directory\n', exitCode: 1 } },
  { name: 'cat keeps going after a missing file', cmd: 'cat g /nope g', busybox: { stdout: 'a b\na b\n', stderr: "cat: can't open '/nope': No such file or directory\n", exitCode: 1 } },
  { name: 'cat --help: usage on stderr, exit 0', cmd: 'cat --help', busybox: { stdout: '', stderr: CAT_USAGE, exitCode: 0 } },
  { name: 'cat unknown long option', cmd: 'cat --foo', busybox: { stdout: '', stderr: `cat: unrecognized option '--foo'\n${CAT_USAGE}`, exitCode: 1 } },
  { name: 'ls missing operand', cmd: 'ls /nope', busybox: { stdout: '', stderr: 'ls: /nope: No such file or directory\n', exitCode: 1 }, gnu: { stdout: '', stderr: "ls: cannot access '/nope': No such file or directory\n", exitCode: 2 } },
  { name: 'ls: two operands head the directory even when one fails', cmd: 'ls /nope d', busybox: { stdout: 'd:\nf\n', stderr: 'ls: /nope: No such file or directory\n', exitCode: 1 } },
  { name: 'ls file and directory', cmd: 'ls d g', busybox: { stdout: 'g\n\nd:\nf\n', stderr: '', exitCode: 0 } },
  { name: 'head missing file', cmd: 'head /nope', busybox: { stdout: '', stderr: 'head: /nope: No such file or directory\n', exitCode: 1 }, gnu: { stdout: '', stderr: "head: cannot open '/nope' for reading: No such file or directory\n", exitCode: 1 } },
  { name: 'head: the blank line before a header follows a failed operand too', cmd: 'head /nope g', busybox: { stdout: '\n==> g <==\na b\n', stderr: 'head: /nope: No such file or directory\n', exitCode: 1 } },
  { name: 'head of a directory', cmd: 'head d', busybox: { stdout: '', stderr: 'head: d: Input/output error\n', exitCode: 1 } },
  { name: 'head bad count', cmd: 'head -n x g', busybox: { stdout: '', stderr: "head: invalid number 'x'\n", exitCode: 1 } },
  { name: 'head --foo is the options -, f, o, o (plain getopt)', cmd: 'head --foo', busybox: { stdout: '', stderr: `head: invalid option -- '-'\n${HEAD_USAGE}`, exitCode: 1 } },
  { name: 'tail missing file', cmd: 'tail /nope', busybox: { stdout: '', stderr: "tail: can't open '/nope': No such file or directory\ntail: no files\n", exitCode: 1 }, gnu: { stdout: '', stderr: "tail: cannot open '/nope' for reading: No such file or directory\n", exitCode: 1 } },
  { name: 'tail: one file opened, no header', cmd: 'tail g /nope', busybox: { stdout: 'a b\n', stderr: "tail: can't open '/nope': No such file or directory\n", exitCode: 1 } },
  { name: 'tail of a directory', cmd: 'tail d', busybox: { stdout: '', stderr: 'tail: read error: Is a directory\n', exitCode: 1 } },
  { name: 'tail bad count', cmd: 'tail -n x g', busybox: { stdout: '', stderr: "tail: invalid number 'x'\n", exitCode: 1 } },
  { name: 'wc missing file', cmd: 'wc /nope', busybox: { stdout: '', stderr: 'wc: /nope: No such file or directory\n', exitCode: 1 } },
  { name: 'wc columns are %9u', cmd: 'wc g', busybox: { stdout: '        1         2         4 g\n', stderr: '', exitCode: 0 }, gnu: { stdout: '1 2 4 g\n', stderr: '', exitCode: 0 } },
  { name: 'wc -l of one file is unpadded', cmd: 'wc -l g', busybox: { stdout: '1 g\n', stderr: '', exitCode: 0 } },
  { name: 'wc of stdin', cmd: 'echo a b | wc', busybox: { stdout: '        1         2         4\n', stderr: '', exitCode: 0 } },
  { name: 'wc -l of two files pads and totals', cmd: 'wc -l g d/f', busybox: { stdout: '        1 g\n        1 d/f\n        2 total\n', stderr: '', exitCode: 0 } },
  { name: 'wc of a directory', cmd: 'wc d', busybox: { stdout: '        0         0         0 d\n', stderr: 'wc: d: Is a directory\n', exitCode: 1 } },
  { name: 'grep missing file', cmd: 'grep x /nope', busybox: { stdout: '', stderr: 'grep: /nope: No such file or directory\n', exitCode: 2 } },
  { name: 'grep of a directory without -r', cmd: 'grep x d', busybox: { stdout: '', stderr: '', exitCode: 1 }, gnu: { stdout: '', stderr: 'grep: d: Is a directory\n', exitCode: 2 } },
  { name: 'mkdir existing', cmd: 'mkdir g', busybox: { stdout: '', stderr: "mkdir: can't create directory 'g': File exists\n", exitCode: 1 } },
  { name: 'rm missing', cmd: 'rm /nope', busybox: { stdout: '', stderr: "rm: can't remove '/nope': No such file or directory\n", exitCode: 1 } },
  { name: 'rm directory', cmd: 'rm d', busybox: { stdout: '', stderr: "rm: 'd' is a directory\n", exitCode: 1 } },
  { name: 'touch in a missing directory', cmd: 'touch /nope/x', busybox: { stdout: '', stderr: 'touch: /nope/x: No such file or directory\n', exitCode: 1 } },
  { name: 'env cannot run a missing program', cmd: 'env nope', busybox: { stdout: '', stderr: "env: can't execute 'nope': No such file or directory\n", exitCode: 127 } },
  { name: 'hostname -s', cmd: 'hostname -s', busybox: { stdout: 'c\n', stderr: '', exitCode: 0 } },
];

async function sessionWith(image: string): Promise<Session> {
  const s = new Session(loadFixture('kubeadm-calico', 1));
  await s.exec(`kubectl run c --image=${image} -- sleep 1d`);
  await s.exec('kubectl wait --for=condition=ready pod/c');
  await s.exec(`kubectl exec c -- sh -c 'mkdir /tmp/d; echo a b > /tmp/g; echo hi > /tmp/d/f'`);
  return s;
}

test('busybox flavour: recorded errors, exit codes and usage', async () => {
  const bb = await sessionWith('busybox');
  const gnu = await sessionWith('nginx');
  for (const c of CASES) {
    const line = `kubectl exec c -- sh -c 'cd /tmp && ${c.cmd}'`;
    const r = await bb.exec(line);
    assert.deepEqual({ stdout: r.stdout, stderr: r.stderr.replace(/command terminated with exit code \d+\n$/, '') }, { stdout: c.busybox.stdout, stderr: c.busybox.stderr }, c.name);
    assert.equal(r.exitCode, c.busybox.exitCode, c.name);
    if (!c.gnu) continue;
    const g = await gnu.exec(line);
    assert.deepEqual({ stdout: g.stdout, stderr: g.stderr.replace(/command terminated with exit code \d+\n$/, ''), exitCode: g.exitCode }, c.gnu, `${c.name} (GNU)`);
  }
});

test('busybox ls columns: the longest name + 2 wide, terminal width less one (recorded with -w)', () => {
  const names = ['averyveryverylongname_number_one', 'b', 'c', 'd', 'dd', 'eeeeeeeeeeeeeee', 'f1', 'f2', 'f3', 'f4', 'f5', 'f6', 'g'];
  assert.deepEqual(bbColumnate(names, 80), [
    'averyveryverylongname_number_one  f2',
    'b                                 f3',
    'c                                 f4',
    'd                                 f5',
    'dd                                f6',
    'eeeeeeeeeeeeeee                   g',
    'f1',
  ]);
  assert.deepEqual(bbColumnate(names, 40), names);
});

test('hostname -i resolves through /etc/hosts: the first IPv4 line naming the host', () => {
  const hosts = '# Kubernetes-managed hosts file.\n127.0.0.1\tlocalhost\n::1\tlocalhost ip6-localhost\nfd00::5\tweb-0.web.ns.svc.cluster.local\tweb-0\n10.244.1.5\tweb-0.web.ns.svc.cluster.local\tweb-0\n';
  assert.deepEqual(hostsLookup(hosts, 'web-0'), { canonical: 'web-0.web.ns.svc.cluster.local', addrs: ['10.244.1.5'] });
  assert.equal(hostsLookup(hosts, 'other'), undefined);
});
