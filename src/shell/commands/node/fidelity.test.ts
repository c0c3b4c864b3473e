/**
 * Node fidelity: kubelet journal lines for failing pods and kubelet restarts, journalctl
 * --since/--until, the kubelet's container log files, kube-proxy's local HTTP endpoints,
 * flannel's subnet.env and the kubelet reading config.yaml only at start.
 */
import { describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { loadFixture } from '../../../testing/fixtures.js';
import { Session } from '../../session.js';
import type { Node, Pod } from '../../../sim/api/types.js';
import { parseTimestamp } from './journalctl.js';
import { lineTime } from './pod-log-files.js';

async function run(s: Session, line: string): Promise<{ out: string; rc: number }> {
  const r = await s.exec(line);
  return { out: r.stdout + r.stderr, rc: r.exitCode };
}

describe('journalctl -u kubelet', () => {
  it('logs CrashLoopBackOff and image pull failures of pods on the node', async () => {
    const s = new Session(loadFixture('kubeadm-calico', 1));
    await run(s, 'kubectl run crash --image=busybox');
    await run(s, 'kubectl run img --image=nginx:doesnotexist');
    await run(s, 'sleep 90');
    const crash = s.cluster.store.get<Pod>('Pod', 'default', 'crash')!;
    const img = s.cluster.store.get<Pod>('Pod', 'default', 'img')!;
    const waiting = crash.status?.containerStatuses?.[0]?.state.waiting;
    assert.equal(waiting?.reason, 'CrashLoopBackOff');
    await run(s, `ssh ${crash.spec.nodeName}`);
    const j = { out: `${(await run(s, 'journalctl -u kubelet --no-pager')).out.split('\n').filter((l) => l.includes('pod="default/crash"')).pop()}\n` };
    const uid = crash.metadata.uid!;
    assert.match(j.out, new RegExp(`kubelet\\[\\d+\\]: E\\d{4} [\\d:.]+ +\\d+ pod_workers\\.go:1301\\] "Error syncing pod, skipping" err="failed to \\\\"StartContainer\\\\" for \\\\"crash\\\\" with CrashLoopBackOff: \\\\"${waiting!.message!.replace(/[()]/g, '\\$&')}\\\\"" pod="default/crash" podUID="${uid}"\n$`));
    assert.match(waiting!.message!, /^back-off \d+(s|m\d+s) restarting failed container=crash pod=crash_default\(/);
    await run(s, 'exit');
    await run(s, `ssh ${img.spec.nodeName}`);
    const k = await run(s, 'journalctl -u kubelet -n 2');
    assert.match(k.out, /kuberuntime_image\.go:43\] "Failed to pull image" err="rpc error: code = NotFound desc = failed to pull and unpack image \\"docker\.io\/library\/nginx:doesnotexist\\": .*" image="nginx:doesnotexist"\n/);
    assert.match(k.out, /with ImagePullBackOff: \\"Back-off pulling image \\\\\\"nginx:doesnotexist\\\\\\"\\"" pod="default\/img"/);
  });

  it('logs the start-up after systemctl restart kubelet; --since filters, -f prints what exists', async () => {
    const s = new Session(loadFixture('kubeadm-calico', 1));
    await run(s, 'ssh cka-w1');
    assert.equal((await run(s, 'journalctl -u kubelet --since "1 min ago"')).out, '-- No entries --\n');
    await run(s, 'sleep 120');
    await run(s, 'systemctl restart kubelet');
    const j = await run(s, 'journalctl -u kubelet --since "10 min ago" --no-pager');
    assert.match(j.out, /systemd\[1\]: Started kubelet\.service - kubelet: The Kubernetes Node Agent\.\n.*server\.go:525\] "Kubelet version" kubeletVersion="v1\.35\.9"\n/);
    assert.match(j.out, /"Starting kubelet main sync loop"/);
    assert.equal((await run(s, 'journalctl -u kubelet -f')).out.split('\n').length - 1, 10);
    assert.equal((await run(s, 'journalctl -u kubelet --since 10:02')).out, j.out.split('\n').filter((l) => l.includes(' 10:02:')).join('\n') + '\n');
    assert.deepEqual(await run(s, 'journalctl --since 25:00'), { out: 'Failed to parse timestamp: 25:00\n', rc: 1 });
  });

  const now = Date.UTC(2026, 11, 2, 10, 30, 0);
  const cases = [
    { in: '10 min ago', want: Date.UTC(2026, 11, 2, 10, 20, 0) },
    { in: '-1h', want: Date.UTC(2026, 11, 2, 9, 30, 0) },
    { in: '10:05', want: Date.UTC(2026, 11, 2, 10, 5, 0) },
    { in: '2026-12-01 08:00:01', want: Date.UTC(2026, 11, 1, 8, 0, 1) },
    { in: 'yesterday', want: Date.UTC(2026, 11, 1) },
    { in: '5 fortnights ago', want: undefined },
  ];
  for (const c of cases) it(`parseTimestamp(${c.in})`, () => assert.equal(parseTimestamp(c.in, now), c.want));
});

describe('container log files', () => {
  it('ls and cat /var/log/pods and /var/log/containers in CRI format', async () => {
    const s = new Session(loadFixture('kubeadm-calico', 1));
    await run(s, 'ssh cka-cp1');
    const pods = await run(s, 'ls /var/log/pods');
    assert.match(pods.out, /^kube-system_kube-apiserver-cka-cp1_[0-9a-f]+$/m);
    const log = await run(s, 'cat /var/log/pods/kube-system_kube-apiserver-cka-cp1_*/kube-apiserver/0.log');
    assert.equal(log.rc, 0);
    assert.match(log.out, /^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2}\.\d{9}Z stderr F I\d{4} .*"Starting kube-apiserver"/m);
    const links = await run(s, 'ls /var/log/containers');
    assert.match(links.out, /^kube-apiserver-cka-cp1_kube-system_kube-apiserver-[0-9a-f]{64}\.log$/m);
    const viaLink = await run(s, 'tail -n 1 /var/log/containers/kube-apiserver-cka-cp1_*');
    assert.equal(viaLink.out, log.out.split('\n').slice(-2).join('\n'));
    assert.equal((await run(s, 'cat /var/log/pods/nope/x/0.log')).rc, 1);
  });

  it('a broken kube-apiserver logs under its new config hash, each line stamped when it was logged', async () => {
    const s = new Session(loadFixture('kubeadm-calico', 1));
    await run(s, 'ssh cka-cp1');
    const before = (await run(s, 'ls /var/log/pods')).out.match(/^kube-system_kube-apiserver-cka-cp1_(\S+)$/m)?.[1];
    await run(s, "sudo sed -i 's#--etcd-servers=https://127.0.0.1:2379#--etcd-servers=https://127.0.0.1:2380#' /etc/kubernetes/manifests/kube-apiserver.yaml");
    await run(s, 'sleep 60');
    const dirs = (await run(s, 'ls /var/log/pods')).out.match(/^kube-system_kube-apiserver-cka-cp1_\S+$/gm) ?? [];
    // the API server is down, so its mirror pod is stale; the files are the kubelet's
    assert.equal(dirs.length, 1);
    assert.notEqual(dirs[0], `kube-system_kube-apiserver-cka-cp1_${before}`);
    const log = (await run(s, `sudo cat /var/log/pods/${dirs[0]}/kube-apiserver/*.log`)).out;
    const last = log.trimEnd().split('\n').pop()!;
    const m = /^2026-12-02T(\d\d:\d\d:\d\d\.\d{3})000000Z stderr F E1202 (\d\d:\d\d:\d\d\.\d{3})000 .*"command failed" err="context deadline exceeded"$/.exec(last);
    assert.ok(m, last);
    assert.equal(m[1], m[2]);
    assert.notEqual(log.split('\n')[0]!.slice(0, 30), last.slice(0, 30));
  });
});

describe('lineTime', () => {
  const start = Date.parse('2026-12-31T23:59:00Z');
  const cases: Array<{ name: string; line: string; want: string }> = [
    { name: 'klog line in the start year', line: 'I1231 23:59:30.123456       1 server.go:1] "x"', want: '2026-12-31T23:59:30.123Z' },
    { name: 'klog line after New Year', line: 'E0101 00:00:05.000000       1 run.go:72] "y"', want: '2027-01-01T00:00:05.000Z' },
    { name: 'zap JSON line', line: '{"level":"info","ts":"2026-12-31T23:59:59.5Z","msg":"z"}', want: '2026-12-31T23:59:59.500Z' },
    { name: 'plain line keeps the start', line: 'hello', want: '2026-12-31T23:59:00.000Z' },
    { name: 'impossible klog date keeps the start', line: 'I1399 99:00:00.000000 x', want: '2026-12-31T23:59:00.000Z' },
  ];
  for (const c of cases) it(c.name, () => assert.equal(new Date(lineTime(c.line, start)).toISOString(), c.want));
});

describe('kube-proxy local endpoints', () => {
  it('answers /proxyMode on 10249 and /healthz on 10256 from the node', async () => {
    const s = new Session(loadFixture('kubeadm-calico', 1));
    await run(s, 'ssh cka-w1');
    assert.deepEqual(await run(s, 'curl -s localhost:10249/proxyMode'), { out: 'iptables', rc: 0 });
    assert.deepEqual(await run(s, 'curl -s http://127.0.0.1:10249/proxyMode'), { out: 'iptables', rc: 0 });
    assert.match((await run(s, 'curl -s 127.0.0.1:10256/healthz')).out, /^\{"lastUpdated": "2026-12-02 [\d:.]+ \+0000 UTC m=\+[\d.]+","currentTime": "[^"]+", "nodeEligible": true\}$/);
  });
});

describe('flannel subnet.env', () => {
  it('is written from the node podCIDR', async () => {
    const c = loadFixture('flannel-single', 1);
    const s = new Session(c);
    const node = c.nodeHosts()[0]!.name;
    const cidr = c.store.get<Node>('Node', undefined, node)!.spec!.podCIDR!;
    await run(s, `ssh ${node}`);
    const [a, b, c3] = cidr.split('.');
    assert.deepEqual(await run(s, 'cat /run/flannel/subnet.env'), {
      out: `FLANNEL_NETWORK=192.128.0.0/16\nFLANNEL_SUBNET=${a}.${b}.${c3}.1/${cidr.split('/')[1]}\nFLANNEL_MTU=1450\nFLANNEL_IPMASQ=true\n`,
      rc: 0,
    });
  });
});

describe('kubelet config is read at start', () => {
  it('a clusterDNS edit reaches new pods only after systemctl restart kubelet', async () => {
    const s = new Session(loadFixture('kubeadm-calico', 1));
    await run(s, 'ssh cka-w1');
    await run(s, "sed -i 's/10.96.0.10/10.96.0.99/' /var/lib/kubelet/config.yaml");
    await run(s, 'exit');
    const resolv = async (name: string): Promise<string> => {
      await run(s, `echo '{"apiVersion":"v1","kind":"Pod","metadata":{"name":"${name}"},"spec":{"nodeName":"cka-w1","containers":[{"name":"c","image":"nginx"}]}}' > /tmp/${name}.json`);
      await run(s, `kubectl apply -f /tmp/${name}.json`);
      await run(s, 'sleep 10');
      return (await run(s, `kubectl exec ${name} -- cat /etc/resolv.conf`)).out;
    };
    assert.match(await resolv('before'), /^nameserver 10\.96\.0\.10$/m);
    await run(s, 'ssh cka-w1');
    await run(s, 'systemctl restart kubelet');
    await run(s, 'exit');
    assert.match(await resolv('after'), /^nameserver 10\.96\.0\.99$/m);
  });

  it('a config that does not parse at start stops the kubelet; an edit while running does not', async () => {
    const s = new Session(loadFixture('kubeadm-calico', 1));
    await run(s, 'ssh cka-w1');
    await run(s, "echo 'clusterDNS: [' >> /var/lib/kubelet/config.yaml");
    assert.equal((await run(s, 'systemctl status kubelet')).rc, 0);
    await run(s, 'systemctl restart kubelet');
    const st = await run(s, 'systemctl status kubelet');
    assert.equal(st.rc, 3);
    assert.match(st.out, /activating \(auto-restart\)/);
    // between two restarts the unit is activating, not active: is-active says so and exits 3
    assert.deepEqual(await run(s, 'systemctl is-active kubelet'), { out: 'activating\n', rc: 3 });
    // and list-units lists it so (systemd 255: ActiveState activating, SubState auto-restart), --state picks it out
    const units = await run(s, 'systemctl list-units --type=service --no-legend');
    assert.match(units.out, /^ {2}kubelet\.service {4}loaded activating auto-restart kubelet: The Kubernetes Node Agent$/m);
    assert.match(units.out, /^ {2}containerd\.service loaded active {5}running {6}containerd container runtime$/m);
    assert.equal((await run(s, 'systemctl list-units --state=auto-restart --no-legend')).out, '  kubelet.service loaded activating auto-restart kubelet: The Kubernetes Node Agent\n');
    assert.equal((await run(s, 'systemctl list-units --state=running --no-legend')).out.includes('kubelet'), false);
  });
});
