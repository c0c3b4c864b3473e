import { test } from 'node:test';
import assert from 'node:assert/strict';
import type { Pod } from '../sim/api/types.js';
import { Vfs } from '../sim/node/vfs.js';
import { chrootOutcome, hostRootMount, shellWord } from './chroot.js';

function pod(mount: { mountPath: string; subPath?: string }, hostPath = '/'): Pod {
  return {
    apiVersion: 'v1',
    kind: 'Pod',
    metadata: { name: 'p', namespace: 'default' },
    spec: { nodeName: 'cka-w1', containers: [{ name: 'c', image: 'debian', volumeMounts: [{ name: 'root', ...mount }] }], volumes: [{ name: 'root', hostPath: { path: hostPath } }] },
  } as Pod;
}

test('chroot: which directories are the node’s root', () => {
  const cases = [
    { name: 'the mount itself', p: pod({ mountPath: '/host' }), dir: '/host', want: true },
    { name: 'a trailing slash', p: pod({ mountPath: '/host/' }), dir: '/host', want: true },
    { name: 'below the mount', p: pod({ mountPath: '/host' }), dir: '/host/etc', want: false },
    { name: 'a subPath mount', p: pod({ mountPath: '/host', subPath: 'etc' }), dir: '/host', want: false },
    { name: 'another host directory', p: pod({ mountPath: '/host' }, '/var'), dir: '/host', want: false },
  ];
  for (const c of cases) assert.equal(hostRootMount(c.p, 'c', c.dir), c.want, c.name);
});

test('chroot: outcomes in busybox and coreutils words', () => {
  const fs = new Vfs({ files: {}, dirs: ['/', '/host', '/tmp'] }, () => 0);
  fs.write('/file', 'x');
  const base = { cwd: '/', user: 'root', env: {}, pod: pod({ mountPath: '/host' }), container: 'c', fs };
  const cases = [
    { name: 'coreutils, no operand', argv: ['chroot'], flavour: 'coreutils' as const, want: { kind: 'error', stderr: "chroot: missing operand\nTry 'chroot --help' for more information.\n", exitCode: 125 } },
    { name: 'coreutils, missing dir', argv: ['chroot', 'nope'], flavour: 'coreutils' as const, want: { kind: 'error', stderr: "chroot: cannot change root directory to 'nope': No such file or directory\n", exitCode: 125 } },
    { name: 'busybox, a file', argv: ['chroot', '/file'], flavour: 'busybox' as const, want: { kind: 'error', stderr: "chroot: can't change root directory to '/file': Not a directory\n", exitCode: 1 } },
    { name: 'coreutils, no program there', argv: ['chroot', '/tmp', 'ls'], flavour: 'coreutils' as const, want: { kind: 'error', stderr: "chroot: failed to run command 'ls': No such file or directory\n", exitCode: 127 } },
    { name: 'the node, relative path', argv: ['chroot', 'host', 'crictl', 'ps'], flavour: 'busybox' as const, want: { kind: 'node', node: 'cka-w1', command: ['crictl', 'ps'] } },
    { name: 'busybox, an empty operand', argv: ['chroot', ''], flavour: 'busybox' as const, want: { kind: 'error', stderr: "chroot: can't change root directory to '': No such file or directory\n", exitCode: 1 } },
    { name: 'the container’s own root', argv: ['chroot', '/'], flavour: 'busybox' as const, want: { kind: 'same', command: [] } },
  ];
  for (const c of cases) assert.deepEqual(chrootOutcome({ ...base, argv: c.argv, flavour: c.flavour }), c.want, c.name);
  assert.deepEqual(chrootOutcome({ ...base, user: 'nobody', argv: ['chroot', '/host'], flavour: 'busybox' }), { kind: 'error', stderr: "chroot: can't change root directory to '/host': Operation not permitted\n", exitCode: 1 }, 'not root');
  assert.equal(shellWord("it's"), `'it'\\''s'`);
  assert.equal(shellWord('/etc/hosts'), '/etc/hosts');
});
