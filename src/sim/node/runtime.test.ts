/** The node's kernel state across a reboot: only what boot reads from files survives (runtime.ts bootHost). */
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { loadFixture } from '../../testing/fixtures.js';
import { activeSwaps, loadModule, loadedModules, procSwaps, rebootNode, setSwap, unloadModule } from './runtime.js';
import { snapshotKubeletConfig } from '../controlplane.js';

test('a reboot keeps the modules of modules-load.d and the sysctls of sysctl.d, and only those', () => {
  const c = loadFixture('kubeadm-calico');
  const w1 = c.host('cka-w1')!;
  assert.ok(loadedModules(w1).includes('br_netfilter'));
  w1.fs.write('/etc/sysctl.d/k8s.conf', 'net.ipv4.ip_forward = 1\nnet.bridge.bridge-nf-call-iptables = 1\n');
  w1.fs.remove('/etc/modules-load.d/k8s.conf');
  rebootNode(c, w1);
  assert.ok(!loadedModules(w1).includes('br_netfilter'), 'nothing lists br_netfilter for boot');
  assert.equal(w1.sysctl('net.bridge.bridge-nf-call-iptables'), undefined, 'its sysctl table went with it');
  assert.equal(w1.sysctl('net.ipv4.ip_forward'), '1', 'sysctl.d applied at boot');
  w1.fs.write('/etc/modules-load.d/k8s.conf', 'overlay\nbr_netfilter\n');
  w1.fs.write('/etc/sysctl.d/k8s.conf', 'net.bridge.bridge-nf-call-iptables = 0\n');
  rebootNode(c, w1);
  assert.deepEqual(['overlay', 'br_netfilter'].filter((m) => loadedModules(w1).includes(m)), ['overlay', 'br_netfilter']);
  assert.equal(w1.sysctl('net.bridge.bridge-nf-call-iptables'), '0', 'modules load before systemd-sysctl applies the file');
  assert.equal(w1.sysctl('net.ipv4.ip_forward'), '0', 'the kernel default when no file sets it');
});

test('modules: dependencies load first and stay while used; swap comes back from fstab', () => {
  const c = loadFixture('kubeadm-calico');
  const w2 = c.host('cka-w2')!;
  unloadModule(w2, 'br_netfilter');
  assert.ok(!loadedModules(w2).includes('bridge'), 'unused dependencies go too');
  loadModule(w2, 'br_netfilter');
  assert.deepEqual(unloadModule(w2, 'bridge'), { inUse: 'bridge' });
  w2.fs.write('/swap.img', '');
  w2.fs.write('/etc/fstab', '/swap.img\tnone\tswap\tsw\t0\t0\n');
  setSwap(w2, '/swap.img', false);
  assert.equal(procSwaps(w2), 'Filename\t\t\t\tType\t\tSize\t\tUsed\t\tPriority\n');
  rebootNode(c, w2);
  assert.deepEqual(activeSwaps(w2), ['/swap.img']);
  w2.fs.write('/etc/fstab', '#/swap.img\tnone\tswap\tsw\t0\t0\n');
  rebootNode(c, w2);
  assert.deepEqual(activeSwaps(w2), []);
});

test('the kubelet refuses to start with swap on (failSwapOn) and runs once swap is off', () => {
  const c = loadFixture('kubeadm-calico');
  const w1 = c.host('cka-w1')!;
  w1.fs.write('/swap.img', '');
  setSwap(w1, '/swap.img', true);
  const cfg = snapshotKubeletConfig(w1);
  assert.ok('error' in cfg);
  assert.equal(
    cfg.error,
    'failed to run Kubelet: running with swap on is not supported, please disable swap! or set --fail-swap-on flag to false. /proc/swaps contained: [/swap.img                               file\t\t2097148\t\t0\t\t-2]',
  );
  w1.fs.write('/var/lib/kubelet/config.yaml', `${w1.fs.tryRead('/var/lib/kubelet/config.yaml')!}failSwapOn: false\n`);
  assert.ok(!('error' in snapshotKubeletConfig(w1)), 'failSwapOn: false lets it start');
  setSwap(w1, '/swap.img', false);
  assert.equal(activeSwaps(w1).length, 0);
});
