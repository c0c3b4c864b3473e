/**
 * What a busybox pod's system applets read is its node's (a container shares the node's kernel,
 * memory, CPUs and load; sim/runtime): uname -r is the kernelVersion the Node reports, free's
 * total is the node's memory capacity, nproc its CPU capacity, top lists the container's own
 * processes, df its mounts. Layouts are busybox 1.36.1's (procps/free.c, procps/uptime.c,
 * procps/top.c, coreutils/df.c, coreutils/uname.c; the uname -a, free, uptime, top and df lines
 * were checked against the same binary built with `make defconfig`, whose numbers are this
 * machine's and so cannot be replayed). Also the random devices: seeded, never Math.random.
 */
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { Session } from './session.js';
import { loadFixture } from '../testing/fixtures.js';

/** A session in a busybox pod's sh, with what the pod's node reports of itself. */
async function busyboxPod(): Promise<{ s: Session; kernel: string; cpu: string; memory: string }> {
  const s = new Session(loadFixture('kubeadm-calico', 1));
  await s.exec('kubectl run bb --image=busybox -- sleep 3600');
  await s.exec('sleep 20');
  const node = (await s.exec("kubectl get pod bb -o jsonpath='{.spec.nodeName}'")).stdout;
  const get = async (path: string): Promise<string> => (await s.exec(`kubectl get node ${node} -o jsonpath='{${path}}'`)).stdout;
  const [kernel, cpu, memory] = [await get('.status.nodeInfo.kernelVersion'), await get('.status.capacity.cpu'), await get('.status.capacity.memory')];
  assert.match(kernel, /^\d+\.\d+\.\d+-\d+-generic$/);
  const enter = await s.exec('kubectl exec -it bb -- sh');
  assert.equal(enter.exitCode, 0, enter.stderr);
  return { s, kernel, cpu, memory };
}

test("busybox uname, nproc and which in a pod: the node's kernel and CPUs, the pod's hostname, /bin", async () => {
  const { s, kernel, cpu } = await busyboxPod();
  const abi = /-(\d+)-generic$/.exec(kernel)![1];
  assert.equal((await s.exec('uname -a')).stdout, `Linux bb ${kernel} #${abi}-Ubuntu SMP PREEMPT_DYNAMIC x86_64 GNU/Linux\n`);
  assert.equal((await s.exec('uname -r')).stdout, `${kernel}\n`);
  assert.equal((await s.exec('uname -snrvmpio')).stdout, `Linux bb ${kernel} #${abi}-Ubuntu SMP PREEMPT_DYNAMIC x86_64 unknown unknown GNU/Linux\n`);
  assert.equal((await s.exec('nproc')).stdout, `${cpu}\n`);
  assert.equal((await s.exec('nproc --ignore=1')).stdout, `${Math.max(1, Number(cpu) - 1)}\n`);
  assert.equal((await s.exec('which ls sh nosuch; echo $?')).stdout, '/bin/ls\n/bin/sh\n1\n');
});

test('busybox free, uptime, top -bn1 and df in a pod, in their layouts and with the node\'s memory', async () => {
  const { s, memory } = await busyboxPod();
  const free = (await s.exec('free')).stdout.split('\n');
  assert.equal(free[0], '              total        used        free      shared  buff/cache   available');
  assert.match(free[1]!, /^Mem: {3}( {0,11}\d+){6}$/);
  assert.equal(free[2], 'Swap:             0           0           0');
  const ki = /^(\d+)Ki$/.exec(memory);
  if (ki) assert.equal(free[1]!.slice(7, 19).trim(), ki[1]);
  assert.match((await s.exec('free -h')).stdout.split('\n')[1]!, /^Mem: {3}( {0,11}\d+(\.\d[KMG])?){6}$/);
  assert.match((await s.exec('free -m')).stdout.split('\n')[1]!, /^Mem: {3}( {0,11}\d+){6}$/);
  assert.match((await s.exec('uptime')).stdout, /^ \d\d:\d\d:\d\d up (\d+ days?, )?( ?\d+:\d\d|\d+ min), {2}0 users, {2}load average: \d+\.\d\d, \d+\.\d\d, \d+\.\d\d\n$/);
  const top = (await s.exec('top -bn1')).stdout.split('\n');
  assert.match(top[0]!, /^Mem: \d+K used, \d+K free, \d+K shrd, \d+K buff, \d+K cached$/);
  assert.match(top[1]!, /^CPU:( [ \d]\d\.\d% usr)( [ \d]\d\.\d% sys)( [ \d]\d\.\d% nic)( [ \d]\d\.\d% | {2}100% )idle( [ \d]\d\.\d% io)( [ \d]\d\.\d% irq)( [ \d]\d\.\d% sirq)$/);
  assert.match(top[2]!, /^Load average: \d+\.\d\d \d+\.\d\d \d+\.\d\d 1\/\d+ \d+$/);
  assert.equal(top[3], '  PID  PPID USER     STAT   VSZ %VSZ CPU %CPU COMMAND');
  const rows = top.slice(4, -1);
  assert.deepEqual(rows.map((r) => r.slice(46)), ['sleep 3600', 'sh', 'top -bn1']);
  for (const r of rows) assert.match(r, /^[ \d]{5} [ \d]{5} root {5}[SR] {4}[ \d]{4}\d[ \d]{2}\d\.\d [ \d]{2}\d[ \d]{2}\d\.\d \S/);
  const df = (await s.exec('df')).stdout.split('\n');
  assert.equal(df[0], 'Filesystem           1K-blocks      Used Available Use% Mounted on');
  assert.match(df[1]!, /^overlay {13} [ \d]{9} [ \d]{9} [ \d]{9} [ \d]{2}\d% \/$/);
  assert.equal(df[2], 'tmpfs                    65536         0     65536   0% /dev');
  assert.ok(df.some((l) => / \/etc\/resolv\.conf$/.test(l)));
  assert.equal((await s.exec('df -h')).stdout.split('\n')[0], 'Filesystem                Size      Used Available Use% Mounted on');
});

test('/dev/urandom gives bytes from the seeded source: the same seed gives the same bytes, a second read others', async () => {
  const read = async (): Promise<[string, string]> => {
    const s = new Session(loadFixture('kubeadm-calico', 1));
    const a = (await s.exec('head -c 16 /dev/urandom | od -An -tx1')).stdout;
    const b = (await s.exec('od -An -N16 -tx1 </dev/urandom')).stdout;
    return [a, b];
  };
  const [a1, b1] = await read();
  const [a2, b2] = await read();
  assert.equal(a1, a2);
  assert.equal(b1, b2);
  assert.notEqual(a1, b1);
  assert.match(a1, /^( [0-9a-f]{2}){16}\n$/);
  assert.doesNotMatch(a1, /^( 00){16}\n$/);
});

test("a node's /proc/loadavg (fs/proc/loadavg.c layout) is what uptime and a pod's top report", async () => {
  const s = new Session(loadFixture('kubeadm-calico', 1));
  await s.exec('ssh cka-cp1');
  const avg = (await s.exec('cat /proc/loadavg')).stdout;
  const m = /^(\d+\.\d\d) (\d+\.\d\d) (\d+\.\d\d) 1\/\d+ \d+\n$/.exec(avg);
  assert.ok(m, avg);
  assert.match((await s.exec('uptime')).stdout, new RegExp(`load average: ${m[1]}, ${m[2]}, ${m[3]}\\n$`));
});
