/**
 * Truncated answers (the TC bit), checked against recordings (scripts/record-dns-tc/record.sh):
 * a Go server with miekg/dns 1.1.50 that writes like CoreDNS v1.13's ScrubWriter, and the real
 * bind9-dnsutils 9.18.49 dig/host/nslookup, busybox nslookup and glibc getent of Debian 12 asking
 * it from a pod-like network namespace. `big` has 100 addresses, `mid` 30.
 */
import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { describe, it } from 'node:test';
import { fileURLToPath } from 'node:url';
import { ManualClock } from '../../util/clock.js';
import { Random } from '../../util/random.js';
import type { EndpointSlice, Service } from '../api/types.js';
import { staticClusterView } from './cluster-view.js';
import { dig } from './clients/dig.js';
import { getent } from './clients/getent.js';
import { host } from './clients/host.js';
import { nslookupBind9 } from './clients/nslookup-bind9.js';
import { nslookupBusybox } from './clients/nslookup-busybox.js';
import type { ClientInput, ClientResult } from './clients/types.js';
import { newQuery, truncate, uncompressedSize, wireSize, type DnsMessage, type RR } from './message.js';
import { podResolvConf } from './resolv-conf.js';
import { startCoreDns, type CoreDns } from './server.js';
import type { QueryFn } from './stub/query.js';
import { upstreamAnswer } from './upstream-zone.js';

const TC_DIR = join(dirname(fileURLToPath(import.meta.url)), 'clients', 'testdata', 'tc');
const recorded = (name: string): string => readFileSync(join(TC_DIR, `${name}.txt`), 'utf8');

/** The recording server's records (scripts/record-dns-tc/main.go). */
function addressesOf(name: string): string[] {
  if (name === 'big.default.svc.cluster.local.') return Array.from({ length: 100 }, (_, i) => `10.244.${1 + Math.floor((i + 1) / 250)}.${(i + 1) % 250}`);
  if (name === 'mid.default.svc.cluster.local.') return Array.from({ length: 30 }, (_, i) => `10.244.2.${i + 1}`);
  return [];
}

describe('miekg/dns Msg.Truncate and CoreDNS request.Scrub (recorded server log)', () => {
  // udp NAME TYPE size=N before=N tc=BOOL answers=N compress=BOOL len=N, one line per query answered
  const lines = recorded('server-log')
    .split('\n')
    .filter((l) => / (A|AAAA) size=/.test(l));
  it('has the cases it is meant to cover', () => {
    assert.ok(lines.some((l) => l.includes('tc=true answers=72')));
    assert.ok(lines.some((l) => l.includes('tc=false answers=30 compress=true len=550')));
    assert.ok(lines.some((l) => l.includes('tc=true answers=29')));
  });
  for (const line of [...new Set(lines)]) {
    it(line, () => {
      const m = /^(udp|tcp) (\S+) (A|AAAA) size=(\d+) before=(\d+) tc=(true|false) answers=(\d+) compress=(true|false) len=(\d+)$/.exec(line);
      assert.ok(m, line);
      const [, , name = '', type, size, before, tc, answers, compress, len] = m;
      const recs: RR[] = type === 'A' ? addressesOf(name).map((address) => ({ name, ttl: 30, class: 'IN', type: 'A', address })) : [];
      const base: DnsMessage = { ...newQuery(1, name, type === 'A' ? 'A' : 'AAAA'), answer: recs };
      base.flags = { ...base.flags, qr: true, aa: true };
      // the query's OPT (dig's, with its 8-byte COOKIE) is echoed when the client sent one
      const withOpt: DnsMessage = { ...base, edns: { udpSize: 1232, do: false, cookie: '0123456789abcdef' } };
      const reply = uncompressedSize(base) === Number(before) ? base : withOpt;
      assert.equal(uncompressedSize(reply), Number(before), 'length before truncation');
      const out = truncate(reply, Number(size));
      assert.equal(out.flags.tc, tc === 'true');
      assert.equal(out.answer.length, Number(answers));
      assert.equal(out.compress === true, compress === 'true');
      assert.equal(wireSize(out), Number(len));
    });
  }
});

function headless(name: string, n: number, address: (i: number) => string): { svc: Service; slice: EndpointSlice } {
  return {
    svc: { apiVersion: 'v1', kind: 'Service', metadata: { name, namespace: 'default' }, spec: { clusterIP: 'None', clusterIPs: ['None'], ports: [{ name: 'http', port: 80, protocol: 'TCP' }] } },
    slice: {
      apiVersion: 'discovery.k8s.io/v1',
      kind: 'EndpointSlice',
      metadata: { name: `${name}-abcde`, namespace: 'default', labels: { 'kubernetes.io/service-name': name } },
      addressType: 'IPv4',
      endpoints: Array.from({ length: n }, (_, i) => ({ addresses: [address(i + 1)], conditions: { ready: true } })),
      ports: [{ name: 'http', port: 80, protocol: 'TCP' }],
    },
  };
}

/** kubeadm's Corefile without loadbalance (the recordings keep record order) and with log. */
const COREFILE = `.:53 {
    errors
    log
    kubernetes cluster.local in-addr.arpa ip6.arpa {
       pods insecure
       fallthrough in-addr.arpa ip6.arpa
       ttl 30
    }
    forward . /etc/resolv.conf
    cache 30
}
`;

/** many.corp.example: 40 addresses on the simulated internet, for an ExternalName to point at. */
const MANY: RR[] = Array.from({ length: 40 }, (_, i) => ({ name: 'many.corp.example.', ttl: 300, class: 'IN', type: 'A', address: `192.0.2.${i + 1}` }));

function world(): { server: CoreDns; clock: ManualClock } {
  const big = headless('big', 100, (i) => `10.244.${1 + Math.floor(i / 250)}.${i % 250}`);
  const mid = headless('mid', 30, (i) => `10.244.2.${i}`);
  const ext: Service = { apiVersion: 'v1', kind: 'Service', metadata: { name: 'many', namespace: 'default' }, spec: { type: 'ExternalName', externalName: 'many.corp.example' } };
  const clock = new ManualClock(Date.UTC(2026, 11, 2, 8, 50, 58));
  const fs: Record<string, string> = { '/etc/resolv.conf': 'nameserver 192.168.122.1\n', '/etc/hosts': '127.0.0.1\tlocalhost\n' };
  const r = startCoreDns({
    corefile: COREFILE,
    readFile: (p) => fs[p],
    view: staticClusterView({ namespaces: ['default', 'kube-system'], services: [big.svc, mid.svc, ext], endpointSlices: [big.slice, mid.slice] }),
    transport: (ip, _port, _proto, q) => (ip === '192.168.122.1' ? upstreamAnswer(q, MANY) : 'timeout'),
    clock,
    random: new Random(7),
    podIp: '10.244.0.2',
  });
  if (!r.ok) throw new Error(r.stderr);
  return { server: r.server, clock };
}

/**
 * A pod in `default` asking 10.96.0.10 over the protocol the client chose; `sent` logs each query.
 * `tcpDropped`: TCP to the server is dropped (the recordings' iptables DROP; a kube-dns Service
 * without its TCP port).
 */
function input(args: string[], sent: string[] = [], tcpDropped = false): ClientInput & { server: CoreDns } {
  const { server, clock } = world();
  const random = new Random(42);
  const query: QueryFn = (ip, name, type, opts = {}) => {
    if (ip !== '10.96.0.10') return 'timeout';
    const proto = opts.proto ?? 'udp';
    sent.push(`${proto} ${name} ${type}`);
    if (tcpDropped && proto === 'tcp') return 'timeout';
    const q = newQuery(random.int(65536), name, type, opts.edns);
    return server.query(q, { ip: '10.244.1.20', port: 40000 + random.int(20000), proto }) ?? 'timeout';
  };
  const resolvConf = podResolvConf({ namespace: 'default', clusterDNS: ['10.96.0.10'], clusterDomain: 'cluster.local', nodeResolvConf: 'nameserver 192.168.122.1\n' }).text;
  return { args, resolvConf, query, clock, random, server };
}

/**
 * What differs between runs of the real tools: ids, cookies, times. busybox nslookup prints replies
 * as they arrive (nslookup.c send_queries), and the recording server answered the small AAAA
 * query before the big A one, so for it only the lines are compared, not their order.
 */
function normalize(s: string): string {
  return s
    .replace(/id: \d+/g, 'id: N')
    .replace(/COOKIE: [0-9a-f]+/g, 'COOKIE: X')
    .replace(/;; WHEN: .*/g, ';; WHEN: T')
    .replace(/Query time: \d+ msec/g, 'Query time: N msec');
}

/** The client's output as record.sh keeps it: both streams, then `exit N` when N is not 0. */
const run = (client: (i: ClientInput) => ClientResult, args: string[], tcpDropped = false): string => {
  const r = client(input(args, [], tcpDropped));
  return normalize(r.stdout + r.stderr + (r.exitCode !== 0 ? `exit ${r.exitCode}\n` : ''));
};
const sortedLines = (s: string): string => s.split('\n').sort().join('\n');

describe('clients meet a truncated answer as the real ones do (recorded)', () => {
  const cases: { name: string; golden: string; client: (i: ClientInput) => ClientResult; args: string[]; anyOrder?: boolean; tcpDropped?: boolean }[] = [
    { name: 'dig: EDNS 1232 cannot hold 100 addresses: the line, then the TCP answer', golden: 'dig-big', client: dig, args: ['big.default.svc.cluster.local'] },
    { name: 'dig +ignore keeps the truncated UDP answer (72 records, tc)', golden: 'dig-big-ignore', client: dig, args: ['+ignore', 'big.default.svc.cluster.local'] },
    { name: 'dig +tcp asks over TCP from the start', golden: 'dig-big-tcp', client: dig, args: ['+tcp', 'big.default.svc.cluster.local'] },
    { name: 'dig +noedns: 512 bytes hold 29 of 30', golden: 'dig-mid-noedns', client: dig, args: ['+noedns', 'mid.default.svc.cluster.local'] },
    { name: 'dig +short retries silently', golden: 'dig-mid-short-noedns', client: dig, args: ['+short', '+noedns', 'mid.default.svc.cluster.local'] },
    { name: 'dig: 30 addresses fit in 1232 bytes once compressed (MSG SIZE 550)', golden: 'dig-mid', client: dig, args: ['mid.default.svc.cluster.local'] },
    { name: 'host retries over TCP silently', golden: 'host-mid', client: host, args: ['mid.default.svc.cluster.local'] },
    { name: 'host -t A', golden: 'host-t-a-mid', client: host, args: ['-t', 'A', 'mid.default.svc.cluster.local'] },
    { name: 'host -v: Trying twice, the TCP answer received', golden: 'host-v-a-mid', client: host, args: ['-v', '-t', 'A', 'mid.default.svc.cluster.local'] },
    { name: 'nslookup (bind9): the line before the TCP answer', golden: 'nslookup-mid', client: nslookupBind9, args: ['mid.default.svc.cluster.local'] },
    { name: 'busybox nslookup keeps the 29 addresses of the truncated answer', golden: 'busybox-nslookup-mid', client: nslookupBusybox, args: ['mid.default.svc.cluster.local'], anyOrder: true },
    { name: 'getent ahostsv4 (glibc) falls back to TCP: all 30', golden: 'getent-ahostsv4-mid', client: getent, args: ['ahostsv4', 'mid.default.svc.cluster.local'] },
    { name: 'getent hosts (glibc): all 100', golden: 'getent-hosts-big', client: getent, args: ['hosts', 'big.default.svc.cluster.local'] },
    { name: 'TCP dropped: nslookup says Truncated, then each failed connection ends a lookup', golden: 'nslookup-mid-tcp-dropped', client: nslookupBind9, args: ['mid.default.svc.cluster.local'], tcpDropped: true },
    { name: 'TCP dropped: nslookup -vc', golden: 'nslookup-vc-mid-tcp-dropped', client: nslookupBind9, args: ['-vc', 'mid.default.svc.cluster.local'], tcpDropped: true },
    { name: 'TCP dropped: dig +noedns, exit 9', golden: 'dig-mid-noedns-tcp-dropped', client: dig, args: ['+noedns', 'mid.default.svc.cluster.local'], tcpDropped: true },
    { name: 'TCP dropped: dig +tcp', golden: 'dig-tcp-mid-tcp-dropped', client: dig, args: ['+tcp', 'mid.default.svc.cluster.local'], tcpDropped: true },
    { name: 'TCP dropped: host, two tries', golden: 'host-mid-tcp-dropped', client: host, args: ['mid.default.svc.cluster.local'], tcpDropped: true },
  ];
  for (const c of cases) {
    it(c.name, () => {
      const got = run(c.client, c.args, c.tcpDropped);
      const want = normalize(recorded(c.golden));
      if (c.anyOrder) assert.equal(sortedLines(got), sortedLines(want));
      else assert.equal(got, want);
    });
  }
});

describe('who asks over TCP after a truncation', () => {
  it('host stays on TCP for AAAA and MX; busybox nslookup never retries', () => {
    const sent: string[] = [];
    host(input(['mid.default.svc.cluster.local'], sent));
    assert.deepEqual(
      sent.filter((s) => s.split(' ')[1] === 'mid.default.svc.cluster.local.'),
      ['udp mid.default.svc.cluster.local. A', 'tcp mid.default.svc.cluster.local. A', 'tcp mid.default.svc.cluster.local. AAAA', 'tcp mid.default.svc.cluster.local. MX'],
    );
    const bb: string[] = [];
    nslookupBusybox(input(['mid.default.svc.cluster.local'], bb));
    assert.ok(bb.every((s) => s.startsWith('udp ')));
  });
});

describe('ExternalName: a truncated upstream answer makes the reply truncated (backend_lookup.go A)', () => {
  it('over UDP without EDNS: CNAME plus what the 512-byte inner lookup kept, TC set; over TCP all 40', () => {
    const { server } = world();
    const udp = server.query(newQuery(1, 'many.default.svc.cluster.local.', 'A'), { ip: '10.244.1.20', port: 40001, proto: 'udp' });
    assert.ok(udp);
    assert.equal(udp.flags.tc, true);
    assert.equal(udp.answer[0]?.type, 'CNAME');
    // upstream.Lookup asks with the client's size (SetEdns0(512)): its reply keeps 29 records (the
    // OPT's 11 bytes set aside, 12 + 23 for the question, 16 per compressed A record) and says TC;
    // the outer reply (no OPT; 12 + 36 question, 31 for the CNAME) holds 27 of them, still TC
    assert.equal(udp.answer.filter((r) => r.type === 'A').length, 27);
    const tcp = server.query(newQuery(2, 'many.default.svc.cluster.local.', 'A'), { ip: '10.244.1.20', port: 40002, proto: 'tcp' });
    assert.equal(tcp?.flags.tc, false);
    assert.equal(tcp?.answer.filter((r) => r.type === 'A').length, 40);
  });

  it('the log shows tc in the reply flags, the size before truncation and 65535 as TCP buffer size', () => {
    const { server } = world();
    server.query(newQuery(7, 'mid.default.svc.cluster.local.', 'A'), { ip: '10.244.1.20', port: 40001, proto: 'udp' });
    server.query(newQuery(8, 'mid.default.svc.cluster.local.', 'A'), { ip: '10.244.1.20', port: 40002, proto: 'tcp' });
    const logs = server.logs.filter((l) => l.includes('mid.default'));
    assert.match(logs[0] ?? '', /^\[INFO\] 10\.244\.1\.20:40001 - 7 "A IN mid\.default\.svc\.cluster\.local\. udp 47 false 512" NOERROR qr,aa,tc,rd 1397 /);
    assert.match(logs[1] ?? '', /^\[INFO\] 10\.244\.1\.20:40002 - 8 "A IN mid\.default\.svc\.cluster\.local\. tcp 47 false 65535" NOERROR qr,aa,rd 1397 /);
  });

  it('a truncated reply is not cached, a full one is', () => {
    const { server } = world();
    const ask = (id: number, proto: 'udp' | 'tcp'): DnsMessage | undefined => server.query(newQuery(id, 'many.default.svc.cluster.local.', 'A'), { ip: '10.244.1.20', port: 40000 + id, proto });
    assert.equal(ask(1, 'udp')?.flags.tc, true);
    // not stored: the TCP query is answered afresh (a lookup and its log line), complete
    assert.equal(ask(2, 'tcp')?.answer.length, 41);
  });
});
