import { test } from 'node:test';
import assert from 'node:assert/strict';
import { followWalks, freezeFiles, Vfs, VfsError } from './vfs.js';

const T0 = Date.parse('2026-11-27T06:00:00Z');
const T1 = Date.parse('2026-12-02T10:00:00Z');

function ubuntu(now = T0): Vfs {
  const fs = new Vfs({ files: {}, dirs: ['/'] }, () => now);
  fs.write('/run/systemd/resolve/stub-resolv.conf', 'nameserver 127.0.0.53\n');
  fs.write('/run/systemd/resolve/resolv.conf', 'nameserver 192.168.122.1\n');
  fs.symlink('../run/systemd/resolve/stub-resolv.conf', '/etc/resolv.conf');
  return fs;
}

const reads: { name: string; path: string; want: string | undefined }[] = [
  { name: 'a relative link is followed from its directory', path: '/etc/resolv.conf', want: 'nameserver 127.0.0.53\n' },
  { name: 'the target itself', path: '/run/systemd/resolve/stub-resolv.conf', want: 'nameserver 127.0.0.53\n' },
  { name: 'the upstream file', path: '/run/systemd/resolve/resolv.conf', want: 'nameserver 192.168.122.1\n' },
  { name: 'a missing file', path: '/etc/nope', want: undefined },
];

for (const tc of reads) {
  test(`symlinks: ${tc.name}`, () => {
    assert.equal(ubuntu().tryRead(tc.path), tc.want);
  });
}

test('symlinks: listed in their directory, readlink gives the target as written', () => {
  const fs = ubuntu();
  assert.deepEqual(fs.list('/etc'), ['resolv.conf']);
  assert.equal(fs.readlink('/etc/resolv.conf'), '../run/systemd/resolve/stub-resolv.conf');
  assert.equal(fs.isLink('/run/systemd/resolve/stub-resolv.conf'), false);
  assert.ok(fs.isFile('/etc/resolv.conf'));
});

test('symlinks: writing through a link changes the target; removing it removes only the link', () => {
  const fs = ubuntu();
  fs.write('/etc/resolv.conf', 'nameserver 10.96.0.10\n');
  assert.equal(fs.read('/run/systemd/resolve/stub-resolv.conf'), 'nameserver 10.96.0.10\n');
  assert.ok(fs.isLink('/etc/resolv.conf'));
  fs.remove('/etc/resolv.conf');
  assert.equal(fs.exists('/etc/resolv.conf'), false);
  assert.equal(fs.read('/run/systemd/resolve/stub-resolv.conf'), 'nameserver 10.96.0.10\n');
  assert.throws(() => fs.read('/etc/resolv.conf'), (e: unknown) => e instanceof VfsError && e.code === 'ENOENT' && e.path === '/etc/resolv.conf');
});

test('a dangling link does not exist', () => {
  const fs = new Vfs({ files: {}, dirs: ['/'] }, () => T0);
  fs.symlink('/nowhere', '/etc/x');
  assert.equal(fs.exists('/etc/x'), false);
  assert.ok(fs.isLink('/etc/x'));
});

test('mtimes: a directory is as new as the newest thing below it; virtual files carry their own time', () => {
  let now = T0;
  const fs = new Vfs({ files: {}, dirs: ['/', '/empty'] }, () => now);
  fs.write('/etc/a', 'a');
  now = T1;
  fs.setVirtual({ prefixes: ['/var/log/pods'], files: () => ({ '/var/log/pods/ns_p_uid/c/0.log': { content: 'x\n', mtime: T0 + 5_000 } }) });
  assert.equal(fs.mtime('/etc'), T0);
  assert.equal(fs.mtime('/var/log/pods'), T0 + 5_000);
  assert.equal(fs.mtime('/var/log/pods/ns_p_uid/c'), T0 + 5_000);
  assert.equal(fs.stat('/var/log/pods/ns_p_uid/c/0.log')?.mtime, T0 + 5_000);
  assert.equal(fs.mtime('/empty'), T0, 'an empty directory dates from the install');
});

// Cluster.snapshot freezes the hosts' files maps so the snapshot and every copy of it share them
// (freezeFiles); a filesystem copies its map at its next change, so no copy's write reaches another.
test('a frozen files map is shared until a write, remove or touch, which change a copy of their own', () => {
  const fs = ubuntu();
  fs.write('/etc/a', 'a\n');
  fs.setEntry('/etc/t', { content: 't', mode: 0o644, mtime: 1 });
  freezeFiles(fs.data);
  const shared = fs.data.files;
  assert.ok(Object.isFrozen(shared) && Object.isFrozen(shared['/etc/t']));
  const copy = new Vfs({ ...fs.data }, () => T1);
  assert.equal(copy.data.files, shared);
  copy.write('/etc/a', 'b\n');
  copy.remove('/etc/t');
  fs.setEntry('/etc/u', { content: 'u', mode: 0o600, mtime: 2 });
  assert.equal(fs.read('/etc/a'), 'a\n');
  assert.equal(copy.read('/etc/a'), 'b\n');
  assert.deepEqual([fs.isFile('/etc/t'), copy.isFile('/etc/t'), fs.isFile('/etc/u'), copy.isFile('/etc/u')], [true, false, true, false]);
  assert.equal(shared['/etc/a']!.content, 'a\n');
  assert.ok(!('/etc/u' in shared));
  const tree = new Vfs({ ...fs.data }, () => T1);
  freezeFiles(tree.data);
  tree.removeTree('/etc');
  assert.deepEqual([tree.isFile('/etc/a'), fs.isFile('/etc/a')], [false, true]);
});

test('a frozen links map and directory list are shared until a symlink, unlink or mkdir, which change copies of their own', () => {
  const fs = ubuntu();
  fs.write('/data/..2026/key', 'v\n');
  fs.symlink('..2026', '/data/..data');
  fs.symlink('..data/key', '/data/key');
  freezeFiles(fs.data);
  const links = fs.data.links!;
  const dirs = fs.data.dirs;
  assert.ok(Object.isFrozen(links) && Object.isFrozen(dirs) && Object.isFrozen(links['/data/key']));
  const copy = new Vfs({ ...fs.data }, () => T1);
  assert.equal(copy.data.links, links);
  assert.equal(copy.data.dirs, dirs);
  copy.symlink('..2027', '/data/..data');
  copy.remove('/data/key');
  copy.mkdir('/data/new/deep');
  assert.deepEqual([copy.readlink('/data/..data'), copy.isLink('/data/key'), copy.isDir('/data/new/deep')], ['..2027', false, true]);
  assert.deepEqual([fs.readlink('/data/..data'), fs.isLink('/data/key'), fs.isDir('/data/new')], ['..2026', true, false], 'the original is untouched');
  assert.equal(links['/data/..data']!.target, '..2026');
  assert.ok(!dirs.includes('/data/new'));
  const tree = new Vfs({ ...fs.data }, () => T1);
  tree.removeTree('/data');
  assert.deepEqual([tree.isLink('/data/key'), fs.isLink('/data/key'), fs.read('/data/key')], [false, true, 'v\n']);
});

test('vfs: a frozen links map answers a path it followed before without walking it again, and a new link is followed at once', () => {
  const fs = ubuntu();
  fs.write('/data/..2026/key', 'v\n');
  fs.symlink('..2026', '/data/..data');
  fs.symlink('..data/key', '/data/key');
  freezeFiles(fs.data);
  assert.equal(fs.read('/data/key'), 'v\n');
  assert.equal(fs.follow('/etc/resolv.conf'), '/run/systemd/resolve/stub-resolv.conf');
  const walks = followWalks.count;
  for (let i = 0; i < 3; i++) {
    assert.equal(fs.follow('/data/key'), '/data/..2026/key');
    assert.equal(fs.read('/etc/resolv.conf'), 'nameserver 127.0.0.53\n');
  }
  assert.equal(followWalks.count, walks, 'the same frozen map walked the same paths again');
  // a copy sharing the frozen map, then relinking: its own map, followed afresh
  const copy = new Vfs({ ...fs.data }, () => T1);
  assert.equal(copy.follow('/data/key'), '/data/..2026/key');
  assert.equal(followWalks.count, walks);
  copy.write('/data/..2027/key', 'w\n');
  copy.symlink('..2027', '/data/..data');
  assert.equal(copy.read('/data/key'), 'w\n');
  assert.equal(fs.read('/data/key'), 'v\n');
});
