/**
 * Transcript tests for the node tools: a learner's session on the kubeadm-calico fixture (seed
 * 000's cluster), `ssh` to a node, then commands with their exact output (goldens in testdata/).
 */
import { describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { loadFixture } from '../../../testing/fixtures.js';
import { assertGolden, goldenPath } from '../../../testing/golden.js';
import { Session } from '../../session.js';
import { goldenTranscript } from '../../../testing/transcripts.js';
import type { Node, Pod } from '../../../sim/api/types.js';
import { findVerb } from '../../kubectl/index.js';

const transcript = goldenTranscript;

function session(): Session {
  return new Session(loadFixture('kubeadm-calico', 1));
}

function ready(s: Session, node: string): string | undefined {
  return s.cluster.store.get<Node>('Node', undefined, node)?.status?.conditions?.find((c) => c.type === 'Ready')?.status;
}

const hasGet = findVerb('get') !== undefined;

describe('node tools on kubeadm-calico', () => {
  const goldens = [
    { name: 'w1-network.txt', host: 'cka-w1', lines: ['ip route', 'ip addr', 'ip -br a', 'ip -4 a show dev vxlan.calico', 'ip r get 10.244.62.130', 'route -n', 'ip link show foo', 'ip foo'] },
    { name: 'cp-sockets.txt', host: 'cka-cp1', lines: ['ss -tlnp', 'ss -tulpn', 'netstat -tlnp', 'ss -tln | grep 6443'] },
    { name: 'cp-runtime.txt', host: 'cka-cp1', lines: ['crictl ps', 'crictl pods', 'crictl images', 'systemctl status kubelet', 'systemctl is-active containerd', 'kubelet --version', 'kubeadm version -o short'] },
    { name: 'systemctl-cat.txt', host: 'cka-w1', lines: ['systemctl cat kubelet', 'systemctl cat containerd.service | head -3', 'systemctl cat nope', 'systemctl list-units --type=service', 'sudo systemctl stop kubelet', 'systemctl list-units --all --no-legend', 'systemctl | grep kube', 'mkdir -p /etc/systemd/system/kubelet.service.d', 'printf "[Service]\\nEnvironment=X=1\\n" > /etc/systemd/system/kubelet.service.d/20-x.conf', 'systemctl cat kubelet | grep "^#"'] },
    {
      name: 'system-info.txt',
      host: 'cka-w1',
      lines: ['df -h', 'df -T / /boot --total', 'df -x tmpfs -x overlay -m', 'df /nope', 'mount -t ext4,vfat', 'mount /dev/vdb /mnt', 'uptime', 'uptime -p', 'uptime -s', 'hostnamectl', 'hostnamectl hostname', 'hostnamectl set-hostname x', 'hostnamectl nope', 'du -sh /etc/kubernetes', 'du -a /etc/kubernetes/manifests /nope'],
    },
    {
      name: 'processes.txt',
      host: 'cka-cp1',
      lines: [
        'ps aux',
        'ps -ef | grep kube-apiserver | grep -v grep',
        // the pipeline's later members are running too: the grep lists itself, not with [e]tcd
        'ps aux | grep kube-apiserver | cut -c1-100',
        'ps -ef | grep [e]tcd | cut -c1-80',
        'ps -o pid,ppid,stat,args | cat',
        'ps -o pid,args | while read l; do echo "$l"; done',
        'pgrep -f kube-apiserver | wc -l',
        'ps -e | head -4',
        'ps',
        'ps -o pid,ppid,comm -C kubelet',
        'ps -o pid= -p 1',
        'pgrep -a etcd',
        'pgrep -l kube',
        'pidof kubelet',
        'ps aux --sort=-rss | head -3',
        "sed -i 's/--authorization-mode=Node,RBAC/--authorization-mode=Node,RBAC --v=2/' /etc/kubernetes/manifests/kube-apiserver.yaml",
        'sleep 30',
        "ps aux | grep -o 'authorization-mode=[^ ]* --v=2'",
        'sudo systemctl stop kubelet',
        'pgrep kubelet',
        'ps -Z',
        'ps -o pid,bogus',
      ],
    },
    {
      // image_manager.go EnsureImageExists: a static pod whose image does not exist fails to pull as any pod does
      name: 'cp-image-pull.txt',
      host: 'cka-cp1',
      lines: [
        'sed -i s/kube-scheduler:/kube-schedulr:/ /etc/kubernetes/manifests/kube-scheduler.yaml',
        'sed -i s/v1.35.9/v1.35.99/ /etc/kubernetes/manifests/kube-controller-manager.yaml',
        'sleep 15',
        'kubectl -n kube-system get po kube-scheduler-cka-cp1 kube-controller-manager-cka-cp1',
        'sleep 2',
        'kubectl -n kube-system get po kube-scheduler-cka-cp1 kube-controller-manager-cka-cp1',
        'crictl ps -a',
        'crictl pods | head -3',
        'crictl images',
        'journalctl -u kubelet | grep kube-controller-manager | tail -4',
        "kubectl -n kube-system describe po kube-controller-manager-cka-cp1 | sed -n '/^Events:/,$p'",
        'kubectl -n kube-system logs kube-scheduler-cka-cp1',
        'sed -i s/v1.35.99/v1.35.8/ /etc/kubernetes/manifests/kube-controller-manager.yaml',
        'sleep 20',
        'crictl ps --name controller',
        'kubectl -n kube-system get po kube-controller-manager-cka-cp1',
      ],
    },
    { name: 'sysinfo.txt', host: 'cka-w1', lines: ['uname -a', 'uname -r', 'uname -snm', 'uname -x', 'id', 'id -un', 'id -Gn ubuntu', 'id nobody', 'id ghost', 'free', 'free -h', 'free -m -t', 'touch /swap.img', 'swapon /swap.img', 'free -h', 'swapoff -a', 'free -h | grep Swap', 'exit', 'ssh ubuntu@cka-w1', 'id'] },
    { name: 'sysctl.txt', host: 'cka-w1', lines: ['sysctl net.ipv4.ip_forward', 'sysctl -w net.ipv4.ip_forward=0', 'sysctl net.ipv4.ip_forward', 'cat /proc/sys/net/ipv4/ip_forward', 'sysctl -p /etc/sysctl.d/k8s.conf', 'sysctl -n net.ipv4.ip_forward', 'sysctl net.ipv4.nope', 'sysctl -w net.ipv4.ip_forward=yes', 'sysctl --system', 'printf "net.ipv4.ip_forward = 0\\nnet.nope = 1\\nbad line\\n" > /etc/sysctl.d/60-zz.conf', 'sysctl --system', 'sysctl -p /etc/sysctl.d/60-zz.conf', 'sysctl -q --system', 'sysctl -n net.ipv4.ip_forward', 'ls /etc/sysctl.d /usr/lib/sysctl.d', 'readlink /etc/sysctl.d/99-sysctl.conf', 'sysctl -p', 'sysctl -p /etc/sysctl.d/99-sysctl.conf', 'sysctl fs.protected_regular'] },
    { name: 'modules-swap.txt', host: 'cka-w1', lines: ['lsmod', 'modprobe -r br_netfilter', 'lsmod', 'sysctl net.bridge.bridge-nf-call-iptables', 'modprobe br_netfilter', 'sysctl net.bridge.bridge-nf-call-iptables', 'modprobe foo', 'modprobe -r bridge', 'cat /proc/modules | head -2', 'cat /proc/swaps', 'touch /swap.img', 'echo "/swap.img none swap sw 0 0" >> /etc/fstab', 'swapon -a', 'cat /proc/swaps', 'swapon --show', 'swapoff -a', 'swapon', 'exit', 'ssh ubuntu@cka-w1', 'modprobe overlay', 'modprobe ip_vs', 'swapoff -a'] },
    // /proc/self is the process that reads it (fs/proc/self.c, base.c proc_exe_link); the shell's own is $$
    {
      name: 'proc-self.txt',
      host: 'cka-w1',
      lines: [
        'readlink -f /proc/self/exe',
        'readlink /proc/self/exe',
        'realpath /proc/self/exe',
        'stat -c %N /proc/self/exe',
        'cat /proc/self/comm',
        'head -1 /proc/self/status',
        'grep -E "^(Pid|PPid)" /proc/self/status; echo $$',
        'read c < /proc/self/comm; echo "$c"',
        'cat /proc/self/cmdline | tr "\\0" " "; echo',
        'ls /proc/self',
        'ls -l $(which kubeadm)',
        'test -x /usr/bin/sysctl && echo executable',
        // recorded on this machine (Linux 6.18, coreutils 9.1): a program's redirection is read
        // after exec (tr's cmdline, cat's comm), a function's by the shell; procfs reports size 0
        // and its /proc/PID inodes date from when they are looked at (now, not boot)
        'sleep 90',
        'tr "\\0" " " < /proc/self/cmdline; echo',
        'cat < /proc/self/comm',
        'f() { cat; }; f < /proc/self/comm',
        'ls -l /proc/self/exe',
        'ls -l /proc/self/cmdline /proc/self/comm /proc/self/status',
        "stat -c '%s %y %N' /proc/self/exe /proc/self/comm",
        'ls -lL /proc/self/exe',
        'ls -l /proc/swaps',
      ],
    },
    // kmod's rmmod/insmod take exactly the module named (modprobe resolves dependencies); lsmod and sysctl follow
    {
      name: 'kmod-tools.txt',
      host: 'cka-w1',
      lines: [
        'rmmod bridge',
        'rmmod br_netfilter',
        'lsmod | grep -E "^(bridge|br_netfilter|stp) "',
        'sysctl net.bridge.bridge-nf-call-iptables',
        'rmmod br_netfilter nosuch',
        'modinfo -n br_netfilter',
        'ls /lib/modules/$(uname -r)/kernel/net/bridge/',
        'insmod $(modinfo -n br_netfilter)',
        'sysctl net.bridge.bridge-nf-call-iptables',
        'insmod $(modinfo -n br_netfilter)',
        'rmmod br_netfilter bridge stp llc',
        'insmod /lib/modules/$(uname -r)/kernel/net/bridge/bridge.ko.zst',
        'insmod /etc/hostname',
        'insmod /nope.ko',
        'insmod',
        'rmmod',
        'modinfo -F depends bridge',
        'modinfo -F vermagic overlay | cat -A',
        'modinfo nosuch',
        'modinfo overlay',
        'exit',
        'ssh ubuntu@cka-w1',
        'rmmod overlay',
        'insmod $(modinfo -n ip_vs)',
      ],
    },
    // containerd 2.x's default config has no SystemdCgroup key: the 1.x guide's sed changes nothing, the key must be added
    {
      name: 'containerd-config.txt',
      host: 'cka-w1',
      lines: [
        'containerd config default',
        'containerd config default > /etc/containerd/config.toml',
        "sed -i 's/SystemdCgroup = false/SystemdCgroup = true/' /etc/containerd/config.toml",
        'grep -c SystemdCgroup /etc/containerd/config.toml',
        "sed -i \"/runtimes.runc.options\\]/a\\            SystemdCgroup = true\" /etc/containerd/config.toml",
        'grep -B9 SystemdCgroup /etc/containerd/config.toml',
        'containerd config dump',
        'exit',
        'containerd config default',
      ],
    },
    // kubeadm's prerequisite: no swap now (swapoff -a) and none at boot (the fstab entry commented out)
    { name: 'fstab-swap.txt', host: 'cka-w1', lines: ['cat /etc/fstab', 'touch /swap.img', "printf '/swap.img\\tnone\\tswap\\tsw\\t0\\t0\\n' >> /etc/fstab", 'swapon -a', 'swapon --show', 'swapoff -a', "sed -i '/\\sswap\\s/ s/^/#/' /etc/fstab", 'cat /etc/fstab', 'swapon -a', 'swapon --show'] },
    {
      // cobra checks the help flag before Run (command.go execute): `token create --help` creates nothing
      name: 'kubeadm-help.txt',
      host: 'cka-cp1',
      lines: [
        'kubeadm token list | wc -l',
        'kubeadm token create --help',
        'kubeadm token list | wc -l',
        'kubeadm token create -h --ttl 1h',
        'kubeadm token create --foo',
        'kubeadm token create --ttl abc',
        'kubeadm token list | wc -l',
        'kubeadm token',
        'kubeadm token nope',
        'kubeadm upgrade plan --help',
        'kubeadm certs renew --help',
        'kubeadm certs renew',
        'kubeadm certificates renew apiserver -h',
        'kubeadm help token delete',
        'kubeadm help nope',
        'kubeadm tokn',
        'kubeadm',
        'kubeadm version -h',
        'kubeadm token list extra',
        'kubeadm config images list --help',
      ],
    },
    {
      // kubeadm v1.34.3 with pkgs.k8s.io serving v1.35.2: stable-1 falls back to the newest v1.34
      name: 'kubeadm-images.txt',
      fixture: 'kubeadm-calico-v134',
      host: 'cka-cp1',
      lines: [
        'kubeadm config images list',
        'kubeadm config images list --kubernetes-version v1.34.1',
        'kubeadm config images list --kubernetes-version=1.34.2 --image-repository my.registry:5000/k8s',
        'kubeadm config images list --kubernetes-version v1.35.2',
        'kubeadm config images list --foo',
        'crictl images',
        'kubeadm config images pull --kubernetes-version v1.34.2',
        'crictl images',
        'kubeadm config images pull --kubernetes-version v1.34.99',
      ],
    },
    { name: 'kubeadm-images-unrecorded.txt', host: 'cka-cp1', lines: ['kubeadm version -o short', 'kubeadm config images list'] },
    {
      name: 'nft.txt',
      host: 'cka-cp1',
      lines: [
        'nft -v',
        'nft list tables',
        'nft list chain ip nat KUBE-SERVICES',
        'nft list ruleset 2>&1 >/dev/null',
        'nft flush table ip nat',
        `kubectl -n kube-system get cm kube-proxy -o yaml | sed 's/mode: ""/mode: nftables/' | kubectl apply -f - 2>/dev/null`,
        'kubectl -n kube-system rollout restart ds kube-proxy',
        'sleep 30',
        'nft list tables',
        'nft list chain ip kube-proxy services',
        'nft list map ip kube-proxy service-ips',
        'nft list chains | head -8',
        'nft list chain ip kube-proxy nope',
        `k=$(nft list map ip kube-proxy service-ips | grep -m1 kube-dns/udp | sed 's/^[^0-9]*//; s/ : goto.*//'); nft delete element ip kube-proxy service-ips "{ $k }"`,
        'nft list map ip kube-proxy service-ips | grep -c kube-dns',
        'nft delete chain ip kube-proxy services',
        'nft flush ruleset',
        'exit',
        'ssh ubuntu@cka-cp1',
        'nft list ruleset',
      ],
    },
    {
      name: 'ip6tables.txt',
      host: 'cka-w1',
      lines: [
        'ip6tables-save',
        'ip6tables -S',
        'ip6tables -t nat -L -n -v',
        'ip6tables -L INPUT',
        'ip6tables -A INPUT -s fd00::5/64 -p tcp --dport 80 -j REJECT',
        'ip6tables -S INPUT',
        'ip6tables -L INPUT -n --line-numbers',
        'ip6tables -D INPUT -s fd00::/64 -p tcp -m tcp --dport 80 -j REJECT --reject-with icmp6-port-unreachable',
        'ip6tables -S INPUT',
        'ip6tables -A INPUT -s 10.0.0.1 -j DROP',
        'iptables -A INPUT -s fd00::1 -j DROP',
        'printf "*filter\\n-A INPUT -d 10.96.0.10 -j ACCEPT\\nCOMMIT\\n" | ip6tables-restore',
        'printf "*filter\\n-A INPUT -d fd00::a -j REJECT\\nCOMMIT\\n" | ip6tables-restore --noflush',
        'ip6tables-save -t filter | grep -- "-A INPUT"',
        'exit',
        'ssh ubuntu@cka-w1',
        'ip6tables -S',
      ],
    },
    { name: 'iptables.txt', host: 'cka-w1', lines: ['iptables -t filter -S', 'iptables -N TEST', 'iptables -A TEST -s 10.0.0.0/8 -j DROP', 'iptables -S TEST', 'iptables-save -t filter | grep TEST', 'exit', 'ssh ubuntu@cka-w1', 'iptables -S', 'sysctl -w net.ipv4.ip_forward=0', 'systemctl stop kubelet'] },
  ];
  for (const g of goldens as { name: string; host: string; lines: string[]; fixture?: string }[]) {
    it(`${g.host}: ${g.name}`, async () => {
      const s = g.fixture ? new Session(loadFixture(g.fixture, 1)) : session();
      const text = await transcript(s, [`ssh ${g.host}`, ...g.lines]);
      assertGolden(goldenPath(import.meta.url, g.name), text);
    });
  }

  it('ip route on a worker shows the calico routes to the other nodes and a blackhole for its own block', async () => {
    const s = session();
    await s.exec('ssh cka-w1');
    const r = await s.exec('ip route');
    assert.match(r.stdout, /^10\.244\.62\.128\/26 via 10\.244\.62\.128 dev vxlan\.calico onlink $/m);
    assert.match(r.stdout, /^10\.244\.212\.128\/26 via 10\.244\.212\.128 dev vxlan\.calico onlink $/m);
    assert.match(r.stdout, /^blackhole 10\.244\.95\.128\/26 proto 80 $/m);
  });

  it('a manifest with an unknown flag takes the API server down; fixing it brings it back', async () => {
    const s = session();
    await s.exec('ssh cka-cp1');
    await s.exec("sed -i 's/    - --secure-port=6443/    - --secure-port=6443\\n    - --foo=bar/' /etc/kubernetes/manifests/kube-apiserver.yaml");
    await s.exec('sleep 20');
    const v = await s.exec('kubectl version');
    assert.match(v.stderr, /^The connection to the server 192\.168\.122\.11:6443 was refused - did you specify the right host or port\?$/m);
    if (hasGet) {
      const g = await s.exec('kubectl get nodes');
      assert.equal(g.stderr, 'The connection to the server 192.168.122.11:6443 was refused - did you specify the right host or port?\n');
    }
    const ps = await s.exec('crictl ps -a | grep kube-apiserver');
    assert.match(ps.stdout, /^[0-9a-f]{13} {7}[0-9a-f]{13} .* Exited {14}kube-apiserver /m);
    const id = ps.stdout.slice(0, 13);
    const logs = await s.exec(`crictl logs ${id}`);
    assert.equal(logs.stderr, 'Error: unknown flag: --foo\n');
    const running = await s.exec('crictl ps | grep kube-apiserver');
    assert.equal(running.exitCode, 1, 'no running kube-apiserver container');
    await s.exec("sed -i '/--foo=bar/d' /etc/kubernetes/manifests/kube-apiserver.yaml");
    await s.exec('sleep 20');
    const ok = await s.exec('kubectl version');
    assert.equal(ok.exitCode, 0, ok.stderr);
    assert.match((await s.exec('crictl ps | grep kube-apiserver')).stdout, / Running {13}kube-apiserver /);
  });

  it('systemctl stop kubelet makes the node NotReady after the 50 s grace period; start makes it Ready', async () => {
    const s = session();
    await s.exec('ssh cka-w1');
    const stop = await s.exec('systemctl stop kubelet');
    assert.equal(stop.exitCode, 0);
    assert.equal((await s.exec('systemctl is-active kubelet')).stdout, 'inactive\n');
    await s.exec('sleep 45');
    assert.equal(ready(s, 'cka-w1'), 'True', 'still Ready inside the grace period');
    await s.exec('sleep 5');
    assert.equal(ready(s, 'cka-w1'), 'Unknown');
    if (hasGet) assert.match((await s.exec('kubectl get nodes')).stdout, /^cka-w1 +NotReady /m);
    const st = await s.exec('systemctl status kubelet');
    assert.equal(st.exitCode, 3);
    assert.match(st.stdout, /^○ kubelet\.service - kubelet: The Kubernetes Node Agent\n/);
    assert.match(st.stdout, /^ {5}Active: inactive \(dead\) since Wed 2026-12-02 10:00:00 UTC; 50s ago$/m);
    assert.match(st.stdout, /systemd\[1\]: Stopped kubelet\.service - kubelet: The Kubernetes Node Agent\.$/m);
    await s.exec('systemctl start kubelet');
    await s.exec('sleep 5');
    assert.equal(ready(s, 'cka-w1'), 'True');
    if (hasGet) assert.match((await s.exec('kubectl get nodes')).stdout, /^cka-w1 +Ready /m);
  });

  it('crictl takes its endpoints from /etc/crictl.yaml, warns without one, and `crictl config --set` rewrites the file', async () => {
    const s = session();
    await s.exec('ssh cka-w1');
    await s.exec("sed -i 's#containerd/containerd.sock#crio/crio.sock#' /etc/crictl.yaml");
    const bad = await s.exec('crictl ps');
    assert.equal(bad.exitCode, 1);
    assert.equal(
      bad.stderr,
      'FATA[0000] validate service connection: validate CRI v1 runtime API for endpoint "unix:///run/crio/crio.sock": rpc error: code = Unavailable desc = connection error: desc = "transport: Error while dialing: dial unix /run/crio/crio.sock: connect: no such file or directory"\n',
    );
    assert.equal((await s.exec('crictl -r unix:///run/containerd/containerd.sock ps -q')).exitCode, 0);
    await s.exec('rm /etc/crictl.yaml');
    const warn = await s.exec('crictl ps -q');
    assert.equal(warn.exitCode, 0);
    assert.match(warn.stderr, /^WARN\[0000\] runtime connect using default endpoints: \[unix:\/\/\/run\/containerd\/containerd\.sock /);
    await s.exec('crictl config --set runtime-endpoint=unix:///run/crio/crio.sock');
    assert.equal((await s.exec('crictl images')).exitCode, 1);
    await s.exec('crictl config runtime-endpoint unix:///run/containerd/containerd.sock');
    const ok = await s.exec('crictl images');
    assert.equal(ok.exitCode, 0);
    assert.equal(ok.stderr, '');
    assert.equal((await s.exec('cat /etc/crictl.yaml')).stdout.split('\n')[0], 'runtime-endpoint: "unix:///run/containerd/containerd.sock"');
  });

  it('moving the calico conflist away leaves the node NotReady with the runtime message, in journalctl too', async () => {
    const s = session();
    await s.exec('ssh cka-w1');
    await s.exec('mv /etc/cni/net.d/10-calico.conflist /root/');
    await s.exec('sleep 10');
    assert.equal(ready(s, 'cka-w1'), 'False');
    const node = s.cluster.store.get<Node>('Node', undefined, 'cka-w1');
    assert.match(node?.status?.conditions?.find((c) => c.type === 'Ready')?.message ?? '', /Network plugin returns error: cni plugin not initialized/);
    const j = await s.exec('journalctl -u kubelet --no-pager | tail -1');
    assert.match(
      j.stdout,
      /^Dec 02 10:00:10 cka-w1 kubelet\[\d+\]: E1202 10:00:10\.000000 +\d+ kubelet\.go:3117\] "Container runtime network not ready" networkReady="NetworkReady=false reason:NetworkPluginNotReady message:Network plugin returns error: cni plugin not initialized"\n$/,
    );
    await s.exec('mv /root/10-calico.conflist /etc/cni/net.d/');
    await s.exec('sleep 5');
    assert.equal(ready(s, 'cka-w1'), 'True');
  });

  it('a broken static pod manifest shows in journalctl -u kubelet', async () => {
    const s = session();
    await s.exec('ssh cka-cp1');
    await s.exec("echo 'kind: [' > /etc/kubernetes/manifests/bad.yaml");
    const j = await s.exec('journalctl -u kubelet -n 1');
    assert.match(j.stdout, /^Dec 02 10:00:00 cka-cp1 kubelet\[\d+\]: E1202 10:00:00\.000000 +\d+ file\.go:187\] "Could not process manifest file" .*path="\/etc\/kubernetes\/manifests\/bad\.yaml"\n$/);
  });

  it('a reboot restarts uptime and draws a new boot ID, which the kubelet posts with a Rebooted event', async () => {
    const s = session();
    await s.exec('ssh cka-w1');
    const before = (await s.exec('hostnamectl | grep "Boot ID"')).stdout;
    await s.exec('sudo reboot');
    await s.exec('ssh cka-w1');
    assert.match((await s.exec('uptime')).stdout, /^ \d\d:\d\d:\d\d up \d+ min, {2}1 user, {2}load average: /);
    const after = (await s.exec('hostnamectl | grep "Boot ID"')).stdout.trim().split(' ').pop()!;
    assert.notEqual(before.trim().split(' ').pop(), after);
    const id = s.cluster.store.get<Node>('Node', undefined, 'cka-w1')?.status?.nodeInfo?.bootID;
    assert.equal(id?.replace(/-/g, ''), after);
    const ev = await s.exec('kubectl get events --field-selector reason=Rebooted -o jsonpath={.items[*].message}');
    assert.equal(ev.stdout, `Node cka-w1 has been rebooted, boot id: ${id}`);
  });

  it("a reboot takes the node's containers: they come back with one more restart, last state Unknown/255", async () => {
    const s = session();
    await s.exec('kubectl create deploy web --image=nginx --replicas=3');
    await s.exec('kubectl wait --for=condition=available deploy/web');
    const pods = (): Pod[] => s.cluster.store.list<Pod>('Pod', 'default');
    const onW1 = pods().filter((p) => p.spec.nodeName === 'cka-w1').map((p) => p.metadata.name);
    assert.ok(onW1.length > 0);
    await s.exec('ssh cka-w1 reboot');
    for (const p of pods()) {
      const cs = p.status?.containerStatuses?.[0];
      if (!onW1.includes(p.metadata.name)) {
        assert.equal(cs?.restartCount, 0, p.metadata.name);
        continue;
      }
      assert.equal(cs?.restartCount, 1, p.metadata.name);
      assert.ok(cs?.state.running, p.metadata.name);
      assert.equal(cs?.lastState?.terminated?.reason, 'Unknown');
      assert.equal(cs?.lastState?.terminated?.exitCode, 255);
    }
    const ev = await s.exec('kubectl get events --field-selector reason=SandboxChanged -o jsonpath={.items[*].involvedObject.name}');
    assert.deepEqual(ev.stdout.split(' ').sort(), [...onW1].sort());
  });

  const onWorkstation = [
    { name: 'uname on the workstation', line: 'uname -n', want: /^cka-ws\n$/ },
    { name: 'uptime on the workstation', line: 'uptime', want: /^ \d\d:\d\d:\d\d up .*load average: / },
    { name: 'ps on the workstation', line: 'ps -e | head -2', want: /^ {4}PID TTY {10}TIME CMD\n {6}1 \? {8}00:00:00 systemd\n$/ },
    { name: 'hostnamectl on the workstation', line: 'hostnamectl | head -1', want: /^ Static hostname: cka-ws\n$/ },
  ];
  for (const t of onWorkstation) {
    it(t.name, async () => {
      const r = await session().exec(t.line);
      assert.equal(r.exitCode, 0, r.stderr);
      assert.match(r.stdout, t.want);
    });
  }

  const offNode = [
    { name: 'workstation has no ip', line: 'ip route' },
    { name: 'workstation has no crictl', line: 'crictl ps' },
  ];
  for (const t of offNode) {
    it(t.name, async () => {
      const r = await session().exec(t.line);
      assert.equal(r.exitCode, 127);
    });
  }
});
