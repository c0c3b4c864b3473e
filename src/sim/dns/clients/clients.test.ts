import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { ManualClock } from '../../../util/clock.js';
import { Random } from '../../../util/random.js';
import { assertGolden, goldenPath } from '../../../testing/golden.js';
import { DEFAULT_COREFILE_SEED000 } from '../corefile/kubeadm.js';
import { newQuery } from '../message.js';
import { podResolvConf } from '../resolv-conf.js';
import type { QueryFn } from '../stub/query.js';
import { startTestServer } from '../test-fixture.js';
import { dig } from './dig.js';
import { getent } from './getent.js';
import { host } from './host.js';
import { nslookupBind9 } from './nslookup-bind9.js';
import { nslookupBusybox } from './nslookup-busybox.js';
import { nslookupBusyboxLibc } from './nslookup-busybox-libc.js';
import type { ClientInput, ClientResult } from './types.js';

type World = 'normal' | 'servfail' | 'timeout' | 'refused';

const SERVFAIL_COREFILE = DEFAULT_COREFILE_SEED000.replace('    ready\n', '    ready\n    hosts {\n       192.168.122.200 legacy.example.internal\n    }\n');

function input(args: string[], world: World = 'normal', ns = 'default'): ClientInput {
  const { server, clock } = startTestServer(world === 'servfail' ? SERVFAIL_COREFILE : undefined);
  const random = new Random(42);
  const query: QueryFn = (ip, name, type, opts = {}) => {
    if (world === 'timeout') return 'timeout';
    if (world === 'refused') return 'refused';
    if (ip !== '10.96.0.10' || (opts.port ?? 53) !== 53) return 'timeout';
    const q = newQuery(random.int(65536), name, type, opts.edns);
    return server.query(q, { ip: '10.244.1.20', port: 40000 + random.int(20000), proto: 'udp' }) ?? 'timeout';
  };
  const resolvConf = podResolvConf({ namespace: ns, clusterDNS: ['10.96.0.10'], clusterDomain: 'cluster.local', nodeResolvConf: 'nameserver 192.168.122.1\n' }).text;
  return { args, resolvConf, query, clock: clock as ManualClock, random };
}

function render(r: ClientResult): string {
  return `${r.stdout}${r.stderr ? `[stderr]\n${r.stderr}` : ''}[exit ${r.exitCode}]\n`;
}

describe('busybox nslookup (reference §10.1, seed 000)', () => {
  const literal: { name: string; args: string[]; ns?: string; want: string }[] = [
    {
      name: 'short name: answer plus NXDOMAIN for the other search domains (seed 000 quirk)',
      args: ['web'],
      want: "Server:\t\t10.96.0.10\nAddress:\t10.96.0.10:53\n\nName:\tweb.default.svc.cluster.local\nAddress: 10.96.120.5\n\n** server can't find web.svc.cluster.local: NXDOMAIN\n\n** server can't find web.cluster.local: NXDOMAIN\n\n\n** server can't find web.svc.cluster.local: NXDOMAIN\n\n** server can't find web.cluster.local: NXDOMAIN\n\n[exit 1]\n",
    },
    {
      name: 'FQDN: one clean answer, AAAA NODATA as an empty line',
      args: ['web.default.svc.cluster.local'],
      want: 'Server:\t\t10.96.0.10\nAddress:\t10.96.0.10:53\n\nName:\tweb.default.svc.cluster.local\nAddress: 10.96.120.5\n\n\n[exit 0]\n',
    },
    {
      name: 'dotted name is not searched',
      args: ['kubernetes.default'],
      want: "Server:\t\t10.96.0.10\nAddress:\t10.96.0.10:53\n\n** server can't find kubernetes.default: NXDOMAIN\n\n** server can't find kubernetes.default: NXDOMAIN\n\n[exit 1]\n",
    },
    {
      name: 'ExternalName',
      args: ['ext.default.svc.cluster.local'],
      want: 'Server:\t\t10.96.0.10\nAddress:\t10.96.0.10:53\n\next.default.svc.cluster.local\tcanonical name = example.com\nName:\texample.com\nAddress: 93.184.215.14\n\next.default.svc.cluster.local\tcanonical name = example.com\nName:\texample.com\nAddress: 2606:2800:21f:cb07:6820:80da:af6b:8b2c\n\n[exit 0]\n',
    },
    {
      name: 'PTR',
      args: ['10.96.0.1'],
      want: 'Server:\t\t10.96.0.10\nAddress:\t10.96.0.10:53\n\n1.0.96.10.in-addr.arpa\tname = kubernetes.default.svc.cluster.local\n\n[exit 0]\n',
    },
    {
      name: 'SRV',
      args: ['-type=srv', '_http._tcp.web.default.svc.cluster.local'],
      want: 'Server:\t\t10.96.0.10\nAddress:\t10.96.0.10:53\n\n_http._tcp.web.default.svc.cluster.local\tservice = 0 100 80 web.default.svc.cluster.local\n\n[exit 0]\n',
    },
    {
      name: 'SOA',
      args: ['-type=soa', 'cluster.local'],
      want: 'Server:\t\t10.96.0.10\nAddress:\t10.96.0.10:53\n\ncluster.local\n\torigin = ns.dns.cluster.local\n\tmail addr = hostmaster.cluster.local\n\tserial = 1718000000\n\trefresh = 7200\n\tretry = 1800\n\texpire = 86400\n\tminimum = 30\n\n[exit 0]\n',
    },
    {
      name: 'seed 000: FQDN works from namespace net',
      args: ['web.default.svc.cluster.local'],
      ns: 'net',
      want: 'Server:\t\t10.96.0.10\nAddress:\t10.96.0.10:53\n\nName:\tweb.default.svc.cluster.local\nAddress: 10.96.120.5\n\n\n[exit 0]\n',
    },
  ];
  for (const tc of literal) it(tc.name, () => assert.equal(render(nslookupBusybox(input(tc.args, 'normal', tc.ns))), tc.want));
  it('timeout', () => assert.equal(render(nslookupBusybox(input(['web'], 'timeout'))), ';; connection timed out; no servers could be reached\n\n[exit 1]\n'));
  it('connection refused', () =>
    assert.equal(render(nslookupBusybox(input(['web'], 'refused'))), ";; connection timed out; no servers could be reached\n\n[stderr]\nnslookup: write to '10.96.0.10': Connection refused\n[exit 1]\n"));
  it('SERVFAIL', () =>
    assert.equal(render(nslookupBusybox(input(['web.default.svc.cluster.local'], 'servfail'))), "Server:\t\t10.96.0.10\nAddress:\t10.96.0.10:53\n\n** server can't find web.default.svc.cluster.local: SERVFAIL\n\n** server can't find web.default.svc.cluster.local: SERVFAIL\n\n[exit 1]\n"));
  it('forwarded name is non-authoritative', () => {
    const out = nslookupBusybox(input(['google.com'])).stdout;
    assert.ok(out.includes('Non-authoritative answer:\nName:\tgoogle.com\nAddress: 142.250.196.110\n'), out);
  });
});

describe('host (reference §10.4)', () => {
  const literal: { args: string[]; want: string }[] = [
    { args: ['web'], want: 'web.default.svc.cluster.local has address 10.96.120.5\n[exit 0]\n' },
    { args: ['db.prod'], want: 'db.prod.svc.cluster.local has address 10.244.1.5\ndb.prod.svc.cluster.local has address 10.244.2.7\n[exit 0]\n' },
    { args: ['ext'], want: 'ext.default.svc.cluster.local is an alias for example.com.\nexample.com has address 93.184.215.14\nexample.com has IPv6 address 2606:2800:21f:cb07:6820:80da:af6b:8b2c\n[exit 0]\n' },
    { args: ['10.96.0.1'], want: '1.0.96.10.in-addr.arpa domain name pointer kubernetes.default.svc.cluster.local.\n[exit 0]\n' },
    { args: ['-t', 'SRV', '_http._tcp.web.default.svc.cluster.local'], want: '_http._tcp.web.default.svc.cluster.local has SRV record 0 100 80 web.default.svc.cluster.local.\n[exit 0]\n' },
    { args: ['-t', 'AAAA', 'web.default.svc.cluster.local'], want: 'web.default.svc.cluster.local has no AAAA record\n[exit 0]\n' },
    { args: ['nosuch'], want: 'Host nosuch not found: 3(NXDOMAIN)\n[exit 1]\n' },
  ];
  for (const tc of literal) it(`host ${tc.args.join(' ')}`, () => assert.equal(render(host(input(tc.args))), tc.want));
  it('SERVFAIL', () => assert.equal(render(host(input(['web.default.svc.cluster.local.'], 'servfail'))), 'Host web.default.svc.cluster.local not found: 2(SERVFAIL)\n[exit 1]\n'));
  it('timeout', () =>
    assert.equal(render(host(input(['web'], 'timeout'))), ';; communications error to 10.96.0.10#53: timed out\n;; communications error to 10.96.0.10#53: timed out\n;; no servers could be reached\n[exit 1]\n'));
});

describe('bind9 nslookup (reference §10.2)', () => {
  it('short name', () =>
    assert.equal(render(nslookupBind9(input(['web']))), ';; Got recursion not available from 10.96.0.10\nServer:\t\t10.96.0.10\nAddress:\t10.96.0.10#53\n\nName:\tweb.default.svc.cluster.local\nAddress: 10.96.120.5\n;; Got recursion not available from 10.96.0.10\n\n[exit 0]\n'));
  it('NXDOMAIN after the search list', () =>
    assert.equal(
      render(nslookupBind9(input(['nosuch']))),
      ";; Got recursion not available from 10.96.0.10\n;; Got recursion not available from 10.96.0.10\n;; Got recursion not available from 10.96.0.10\nServer:\t\t10.96.0.10\nAddress:\t10.96.0.10#53\n\n** server can't find nosuch: NXDOMAIN\n\n[exit 1]\n",
    ));
  it('ExternalName', () =>
    assert.ok(
      nslookupBind9(input(['ext.default.svc.cluster.local'])).stdout.includes('ext.default.svc.cluster.local\tcanonical name = example.com.\nName:\texample.com\nAddress: 93.184.215.14\nName:\texample.com\nAddress: 2606:2800:21f:cb07:6820:80da:af6b:8b2c\n'),
    ));
  it('SOA stops at the first candidate (NODATA)', () => assert.ok(nslookupBind9(input(['-type=soa', 'cluster.local'])).stdout.includes("*** Can't find cluster.local: No answer\n")));
  it('timeout (9.18.6+)', () =>
    assert.equal(render(nslookupBind9(input(['web'], 'timeout'))), `${';; communications error to 10.96.0.10#53: timed out\n'.repeat(3)};; no servers could be reached\n\n[exit 1]\n`));
});

describe('dig (reference §10.3)', () => {
  it('+short', () => {
    assert.equal(render(dig(input(['+short', 'web.default.svc.cluster.local']))), '10.96.120.5\n[exit 0]\n');
    assert.equal(render(dig(input(['+short', 'ext.default.svc.cluster.local']))), 'example.com.\n93.184.215.14\n[exit 0]\n');
    assert.equal(render(dig(input(['+short', 'SRV', '_http._tcp.web.default.svc.cluster.local']))), '0 100 80 web.default.svc.cluster.local.\n[exit 0]\n');
    assert.equal(render(dig(input(['+short', 'nosuch.default.svc.cluster.local']))), '[exit 0]\n');
    assert.equal(render(dig(input(['+short', '-x', '10.96.0.1']))), 'kubernetes.default.svc.cluster.local.\n[exit 0]\n');
  });
  it('+noall +answer column layout', () => {
    assert.equal(dig(input(['+noall', '+answer', 'db.prod.svc.cluster.local'])).stdout, 'db.prod.svc.cluster.local. 30\tIN\tA\t10.244.1.5\ndb.prod.svc.cluster.local. 30\tIN\tA\t10.244.2.7\n');
    assert.equal(dig(input(['+noall', '+answer', 'kube-dns.kube-system.svc.cluster.local'])).stdout, 'kube-dns.kube-system.svc.cluster.local.\t30 IN A\t10.96.0.10\n');
    assert.equal(dig(input(['+noall', '+answer', 'SOA', 'cluster.local'])).stdout, 'cluster.local.\t\t30\tIN\tSOA\tns.dns.cluster.local. hostmaster.cluster.local. 1718000000 7200 1800 86400 30\n');
  });
  const goldens: { file: string; args: string[]; world?: World }[] = [
    { file: 'dig-success.txt', args: ['web.default.svc.cluster.local'] },
    { file: 'dig-nxdomain.txt', args: ['nosuch.default.svc.cluster.local'] },
    { file: 'dig-nodata.txt', args: ['AAAA', 'web.default.svc.cluster.local'] },
    { file: 'dig-servfail.txt', args: ['web.default.svc.cluster.local'], world: 'servfail' },
    { file: 'dig-timeout.txt', args: ['@10.96.0.10', '+time=2', 'web.default.svc.cluster.local'], world: 'timeout' },
    { file: 'dig-forwarded.txt', args: ['web'] },
  ];
  for (const g of goldens) it(`golden ${g.file}`, () => assertGolden(goldenPath(import.meta.url, g.file), render(dig(input(g.args, g.world)))));
  it('success matches the reference except the random id and cookie', () => {
    const out = dig(input(['web.default.svc.cluster.local'])).stdout.replace(/id: \d+/, 'id: 459').replace(/COOKIE: [0-9a-f]{16}/, 'COOKIE: 9517f5a946faaabf');
    assert.equal(
      out,
      '\n; <<>> DiG 9.18.49-1~deb12u3-Debian <<>> web.default.svc.cluster.local\n;; global options: +cmd\n;; Got answer:\n;; WARNING: .local is reserved for Multicast DNS\n;; You are currently testing what happens when an mDNS query is leaked to DNS\n;; ->>HEADER<<- opcode: QUERY, status: NOERROR, id: 459\n;; flags: qr aa rd; QUERY: 1, ANSWER: 1, AUTHORITY: 0, ADDITIONAL: 1\n;; WARNING: recursion requested but not available\n\n;; OPT PSEUDOSECTION:\n; EDNS: version: 0, flags:; udp: 1232\n; COOKIE: 9517f5a946faaabf (echoed)\n;; QUESTION SECTION:\n;web.default.svc.cluster.local.\tIN\tA\n\n;; ANSWER SECTION:\nweb.default.svc.cluster.local. 30 IN\tA\t10.96.120.5\n\n;; Query time: 0 msec\n;; SERVER: 10.96.0.10#53(10.96.0.10) (UDP)\n;; WHEN: Wed Dec 02 08:50:58 UTC 2026\n;; MSG SIZE  rcvd: 115\n\n',
    );
  });
  it('NXDOMAIN size matches the reference (166)', () => assert.ok(dig(input(['nosuch.default.svc.cluster.local'])).stdout.includes(';; MSG SIZE  rcvd: 166\n')));
});

describe('getent hosts (glibc)', () => {
  it('finds a short name through the search list', () => assert.equal(render(getent(input(['hosts', 'web']))), '10.96.120.5     web.default.svc.cluster.local\n[exit 0]\n'));
  it('not found is exit 2', () => assert.equal(render(getent(input(['hosts', 'nosuch']))), '[exit 2]\n'));
  it('cross-namespace dotted name works (glibc searches)', () => {
    const r = getent(input(['hosts', 'db.prod']));
    assert.equal(r.exitCode, 0);
    assert.deepEqual(r.stdout.split('\n').filter(Boolean).sort(), ['10.244.1.5      db.prod.svc.cluster.local', '10.244.2.7      db.prod.svc.cluster.local']);
  });
});

describe('busybox goldens', () => {
  const goldens: { file: string; args: string[]; world?: World }[] = [
    { file: 'busybox-success.txt', args: ['web.default.svc.cluster.local'] },
    { file: 'busybox-nxdomain.txt', args: ['nosuch.default.svc.cluster.local'] },
    { file: 'busybox-nodata.txt', args: ['-type=aaaa', 'web.default.svc.cluster.local'] },
    { file: 'busybox-servfail.txt', args: ['web.default.svc.cluster.local'], world: 'servfail' },
    { file: 'busybox-timeout.txt', args: ['web'], world: 'timeout' },
    { file: 'host-servfail.txt', args: [], world: 'servfail' },
  ];
  for (const g of goldens.slice(0, 5)) it(`golden ${g.file}`, () => assertGolden(goldenPath(import.meta.url, g.file), render(nslookupBusybox(input(g.args, g.world)))));
  const others: { file: string; run: () => ClientResult }[] = [
    { file: 'bind9-success.txt', run: () => nslookupBind9(input(['web'])) },
    { file: 'bind9-nxdomain.txt', run: () => nslookupBind9(input(['nosuch'])) },
    { file: 'bind9-nodata.txt', run: () => nslookupBind9(input(['-type=aaaa', 'web.default.svc.cluster.local'])) },
    { file: 'bind9-servfail.txt', run: () => nslookupBind9(input(['web.default.svc.cluster.local'], 'servfail')) },
    { file: 'bind9-timeout.txt', run: () => nslookupBind9(input(['web'], 'timeout')) },
    { file: 'host-success.txt', run: () => host(input(['ext'])) },
    { file: 'host-nxdomain.txt', run: () => host(input(['nosuch'])) },
    { file: 'host-nodata.txt', run: () => host(input(['-t', 'AAAA', 'web.default.svc.cluster.local'])) },
    { file: 'host-servfail.txt', run: () => host(input(['web.default.svc.cluster.local'], 'servfail')) },
    { file: 'host-timeout.txt', run: () => host(input(['web'], 'timeout')) },
  ];
  for (const g of others) it(`golden ${g.file}`, () => assertGolden(goldenPath(import.meta.url, g.file), render(g.run())));
});

describe('server given by name (dighost.c set_nameserver, busybox add_ns)', () => {
  it('dig tries every address of the name in order and shows the name in SERVER', () => {
    const r = dig({ ...input(['@dns.example', 'web.default.svc.cluster.local']), resolveServer: () => ({ ok: true, addresses: ['10.96.0.99', '10.96.0.10'], elapsedMs: 0 }) });
    assert.equal(r.exitCode, 0);
    assert.ok(r.stdout.startsWith(';; communications error to 10.96.0.99#53: timed out\n'.repeat(3) + '\n; <<>> DiG '), r.stdout);
    assert.match(r.stdout, /\n; \(2 servers found\)\n/);
    assert.match(r.stdout, /\n;; SERVER: 10\.96\.0\.10#53\(dns\.example\) \(UDP\)\n/);
    assert.equal(r.elapsedMs, 15000);
  });
  it('a resolver failure (not NXDOMAIN) is "failure"; an IP literal is not looked up', () => {
    const failing = { resolveServer: () => ({ ok: false as const, error: 'failure' as const, elapsedMs: 10000 }) };
    const r = dig({ ...input(['@dns.example', 'web']), ...failing });
    assert.deepEqual([r.stdout, r.stderr, r.exitCode, r.elapsedMs], ['', "dig: couldn't get address for 'dns.example': failure\n", 10, 10000]);
    const ip = dig({ ...input(['+short', '@10.96.0.10', 'web.default.svc.cluster.local']), ...failing });
    assert.match(ip.stdout, /^\d+\.\d+\.\d+\.\d+\n$/);
    assert.equal(ip.exitCode, 0);
  });
});

describe('busybox nslookup SERVER:PORT (libbb/xconnect.c str2sockaddr)', () => {
  const cases: { name: string; run: (i: ClientInput) => ClientResult; args: string[]; want: string }[] = [
    {
      name: '1.36: IP:53 is the server on port 53, shown as typed',
      run: (i) => nslookupBusybox(i),
      args: ['kubernetes.default.svc.cluster.local', '10.96.0.10:53'],
      want: 'Server:\t\t10.96.0.10:53\nAddress:\t10.96.0.10:53\n\nName:\tkubernetes.default.svc.cluster.local\nAddress: 10.96.0.1\n\n\n[exit 0]\n',
    },
    {
      name: '1.36: another port is asked (nothing answers there)',
      run: (i) => nslookupBusybox(i),
      args: ['kubernetes.default.svc.cluster.local', '10.96.0.10:5353'],
      want: ';; connection timed out; no servers could be reached\n\n[exit 1]\n',
    },
    { name: '1.36: a bad port spec', run: (i) => nslookupBusybox(i), args: ['web', '10.96.0.10:dns'], want: "[stderr]\nnslookup: bad port 'dns'\n[exit 1]\n" },
    { name: '1.36: [IPv6 without ]', run: (i) => nslookupBusybox(i), args: ['web', '[fd00::10:53'], want: "[stderr]\nnslookup: bad address '[fd00::10:53'\n[exit 1]\n" },
    {
      name: '1.28: IP:53 works, Server shows the address without the port',
      run: (i) => nslookupBusyboxLibc(i),
      args: ['kubernetes.default.svc.cluster.local', '10.96.0.10:53'],
      want: 'Server:    10.96.0.10\nAddress 1: 10.96.0.10 kube-dns.kube-system.svc.cluster.local\n\nName:      kubernetes.default.svc.cluster.local\nAddress 1: 10.96.0.1 kubernetes.default.svc.cluster.local\n[exit 0]\n',
    },
    { name: '1.28: a bad port spec', run: (i) => nslookupBusyboxLibc(i), args: ['web', '10.96.0.10:99999'], want: "[stderr]\nnslookup: bad port '99999'\n[exit 1]\n" },
  ];
  for (const tc of cases) it(tc.name, () => assert.equal(render(tc.run(input(tc.args))), tc.want));
});

describe('dig option parsing (dig.c parse_args / dash_option)', () => {
  const cases: { name: string; args: string[]; world?: World; want: string }[] = [
    { name: '-p takes the next word', args: ['-p', '53', '@10.96.0.10', 'kubernetes.default.svc.cluster.local', '+short'], want: '10.96.0.1\n[exit 0]\n' },
    { name: '-p value glued on', args: ['-p53', '+short', 'kubernetes.default.svc.cluster.local'], want: '10.96.0.1\n[exit 0]\n' },
    { name: '-p to a port nothing answers', args: ['+short', '-p', '5353', 'kubernetes.default.svc.cluster.local'], want: `${';; communications error to 10.96.0.10#5353: timed out\n'.repeat(3)};; no servers could be reached\n[exit 9]\n` },
    { name: '-t A NAME', args: ['-t', 'A', '+short', 'kubernetes.default.svc.cluster.local'], want: '10.96.0.1\n[exit 0]\n' },
    { name: '-tSRV glued', args: ['+short', '-tSRV', '_http._tcp.web.default.svc.cluster.local'], want: '0 100 80 web.default.svc.cluster.local.\n[exit 0]\n' },
    // real dig then also looks up `MX.` (A, NXDOMAIN: nothing under +short)
    { name: 'after -t a bare type word is a name, not the type', args: ['+short', '-t', 'A', 'kubernetes.default.svc.cluster.local', 'MX'], want: '10.96.0.1\n[exit 0]\n' },
    { name: '-q NAME', args: ['+short', '-q', 'web.default.svc.cluster.local'], want: '10.96.120.5\n[exit 0]\n' },
    { name: 'bare IN and A are class and type', args: ['+short', 'web.default.svc.cluster.local', 'IN', 'A'], want: '10.96.120.5\n[exit 0]\n' },
    { name: '-c closes type/class words too', args: ['+short', '-c', 'IN', 'web.default.svc.cluster.local', 'MX'], want: '10.96.120.5\n[exit 0]\n' },
    { name: '-4 combined with -t', args: ['+short', '-4tA', 'web.default.svc.cluster.local'], want: '10.96.120.5\n[exit 0]\n' },
    { name: '-x IP asks PTR', args: ['+short', '-x', '10.96.0.1'], want: 'kubernetes.default.svc.cluster.local.\n[exit 0]\n' },
    { name: '-x bad address', args: ['-x', 'nope'], want: '[stderr]\nInvalid IP address nope\n[exit 1]\n' },
    { name: '-t unknown type warns and goes on', args: ['+short', '-t', 'BOGUS', 'web.default.svc.cluster.local'], want: '10.96.120.5\n[stderr]\n;; Warning, ignoring invalid type BOGUS\n[exit 0]\n' },
    { name: 'bad port', args: ['-p', 'dns', 'web'], want: "invalid port number 'dns': bad number\n[stderr]\ndig: Couldn't parse port number\n[exit 10]\n" },
    { name: 'port out of range', args: ['-p', '70000', 'web'], want: "invalid port number '70000': out of range\n[stderr]\ndig: Couldn't parse port number\n[exit 10]\n" },
    {
      name: '-p with nothing after it',
      args: ['web', '-p'],
      want: '[stderr]\nInvalid option: -p\nUsage:  dig [@global-server] [domain] [q-type] [q-class] {q-opt}\n            {global-d-opt} host [@local-server] {local-d-opt}\n            [ host [@local-server] {local-d-opt} [...]]\n\nUse "dig -h" (or "dig -h | more") for complete list of options\n[exit 1]\n',
    },
    { name: 'unknown dash option', args: ['-z', 'web'], want: '[stderr]\nInvalid option: -z\nUsage:  dig [@global-server] [domain] [q-type] [q-class] {q-opt}\n            {global-d-opt} host [@local-server] {local-d-opt}\n            [ host [@local-server] {local-d-opt} [...]]\n\nUse "dig -h" (or "dig -h | more") for complete list of options\n[exit 1]\n' },
    { name: '-v', args: ['-v'], want: '[stderr]\nDiG 9.18.49-1~deb12u3-Debian\n[exit 0]\n' },
    { name: '+search: short name through the search list', args: ['+short', '+search', 'kubernetes'], want: '10.96.0.1\n[exit 0]\n' },
    { name: '+search +ndots=1: a dotted name is tried as is first (NXDOMAIN), then searched', args: ['+short', '+search', '+ndots=1', 'kubernetes.default'], want: '10.96.0.1\n[exit 0]\n' },
    { name: '+nosearch: no search list', args: ['+short', 'kubernetes'], want: '[exit 0]\n' },
    { name: '+time=2 +tries=1', args: ['+short', '+time=2', '+tries=1', 'web'], world: 'timeout', want: ';; communications error to 10.96.0.10#53: timed out\n;; no servers could be reached\n[exit 9]\n' },
    // each failed TCP connection ends its lookup with its own line (recorded, testdata/tc/dig-tcp-mid-tcp-dropped.txt)
    { name: '+tcp timeout: one connect failure per try', args: ['+tcp', '+tries=2', 'web'], world: 'timeout', want: `${';; Connection to 10.96.0.10#53(10.96.0.10) for web failed: timed out.\n;; no servers could be reached\n'.repeat(2)}[exit 9]\n` },
  ];
  for (const tc of cases) it(tc.name, () => assert.equal(render(dig(input(tc.args, tc.world))), tc.want));
  it('-p shows in SERVER and +time sets the wait', () => {
    const out = dig(input(['-p', '53', 'web.default.svc.cluster.local'])).stdout;
    assert.match(out, /\n;; SERVER: 10\.96\.0\.10#53\(10\.96\.0\.10\) \(UDP\)\n/);
    assert.equal(dig(input(['+time=2', '+tries=2', 'web'], 'timeout')).elapsedMs, 4000);
    assert.equal(dig(input(['+tcp', '+tries=1', 'web'], 'timeout')).elapsedMs, 10000);
  });
});

describe('getent ahosts* (glibc nss/getent.c ahosts_keys_int)', () => {
  const cases: { name: string; args: string[]; hosts?: string; world?: World; want: string }[] = [
    {
      name: 'ahosts: one address, three socket types, canonical name on the first line only',
      args: ['ahosts', 'kubernetes'],
      want: '10.96.0.1       STREAM kubernetes.default.svc.cluster.local\n10.96.0.1       DGRAM  \n10.96.0.1       RAW    \n[exit 0]\n',
    },
    {
      name: 'ahosts: headless, every address',
      args: ['ahosts', 'db.prod'],
      want: '10.244.1.5      STREAM db.prod.svc.cluster.local\n10.244.1.5      DGRAM  \n10.244.1.5      RAW    \n10.244.2.7      STREAM \n10.244.2.7      DGRAM  \n10.244.2.7      RAW    \n[exit 0]\n',
    },
    {
      name: 'ahosts: CNAME target is the canonical name, IPv4 before IPv6',
      args: ['ahosts', 'ext'],
      want: '93.184.215.14   STREAM example.com\n93.184.215.14   DGRAM  \n93.184.215.14   RAW    \n2606:2800:21f:cb07:6820:80da:af6b:8b2c STREAM \n2606:2800:21f:cb07:6820:80da:af6b:8b2c DGRAM  \n2606:2800:21f:cb07:6820:80da:af6b:8b2c RAW    \n[exit 0]\n',
    },
    { name: 'ahostsv4: A only', args: ['ahostsv4', 'ext'], want: '93.184.215.14   STREAM example.com\n93.184.215.14   DGRAM  \n93.184.215.14   RAW    \n[exit 0]\n' },
    {
      name: 'ahostsv6: no AAAA → IPv4-mapped (AI_V4MAPPED)',
      args: ['ahostsv6', 'web'],
      want: '::ffff:10.96.120.5 STREAM web.default.svc.cluster.local\n::ffff:10.96.120.5 DGRAM  \n::ffff:10.96.120.5 RAW    \n[exit 0]\n',
    },
    { name: 'an IPv4 literal is its own canonical name', args: ['ahosts', '10.96.0.1'], want: '10.96.0.1       STREAM 10.96.0.1\n10.96.0.1       DGRAM  \n10.96.0.1       RAW    \n[exit 0]\n' },
    { name: '/etc/hosts first', args: ['ahostsv4', 'myself'], hosts: '127.0.0.1\tlocalhost\n10.244.1.20\tmyself.example myself\n', want: '10.244.1.20     STREAM myself.example\n10.244.1.20     DGRAM  \n10.244.1.20     RAW    \n[exit 0]\n' },
    { name: 'not found: exit 2, nothing printed; other keys still print', args: ['ahosts', 'nosuch', 'web'], want: '10.96.120.5     STREAM web.default.svc.cluster.local\n10.96.120.5     DGRAM  \n10.96.120.5     RAW    \n[exit 2]\n' },
    { name: 'DNS down', args: ['ahosts', 'web'], world: 'timeout', want: '[exit 2]\n' },
  ];
  for (const tc of cases) it(tc.name, () => assert.equal(render(getent({ ...input(tc.args, tc.world), hosts: tc.hosts ?? '' })), tc.want));
});

describe('host options (host.c optstring 46aAc:dilnm:p:rst:vVwCDN:R:TUW:, lib/isc/commandline.c)', () => {
  const USAGE_HEAD = 'Usage: host [-aCdilrTvVw] [-c class] [-N ndots] [-t type] [-W time]\n';
  const cases: { name: string; args: string[]; world?: World; want: string }[] = [
    { name: '-W N takes its value', args: ['-W', '2', 'kubernetes'], want: 'kubernetes.default.svc.cluster.local has address 10.96.0.1\n[exit 0]\n' },
    { name: '-W2 glued', args: ['-W2', 'kubernetes'], want: 'kubernetes.default.svc.cluster.local has address 10.96.0.1\n[exit 0]\n' },
    { name: '-c IN: no default AAAA/MX lookups', args: ['-c', 'IN', 'ext'], want: 'ext.default.svc.cluster.local is an alias for example.com.\nexample.com has address 93.184.215.14\n[exit 0]\n' },
    { name: '-c IN on a name without A', args: ['-c', 'IN', 'cluster.local.'], want: 'cluster.local has no A record\n[exit 0]\n' },
    { name: '-N 1: a dotted name is tried as is first', args: ['-N', '1', 'kubernetes.default'], want: 'kubernetes.default.svc.cluster.local has address 10.96.0.1\n[exit 0]\n' },
    { name: '-R 0 -m record -p 53 grouped with -s', args: ['-sR', '0', '-m', 'record', '-p', '53', 'web'], want: 'web.default.svc.cluster.local has address 10.96.120.5\n[exit 0]\n' },
    { name: '-p to a port nothing answers', args: ['-p', '5353', 'web'], want: ';; communications error to 10.96.0.10#5353: timed out\n;; communications error to 10.96.0.10#5353: timed out\n;; no servers could be reached\n[exit 1]\n' },
    { name: '-R 2: three tries', args: ['-R', '2', 'web'], world: 'timeout', want: `${';; communications error to 10.96.0.10#53: timed out\n'.repeat(3)};; no servers could be reached\n[exit 1]\n` },
    { name: 'options stop at the first non-option: the next word is the server', args: ['web.default.svc.cluster.local', '10.96.0.10', '-v'], want: 'Using domain server:\nName: 10.96.0.10\nAddress: 10.96.0.10#53\nAliases: \n\nweb.default.svc.cluster.local has address 10.96.120.5\n[exit 0]\n' },
    { name: 'bad type: fatal, exit 2', args: ['-t', 'BOGUS', 'web'], want: '[stderr]\nhost: invalid type: BOGUS\n\n[exit 2]\n' },
    { name: 'bad class: fatal, exit 2', args: ['-c', 'XX', 'web'], want: '[stderr]\nhost: invalid class: XX\n\n[exit 2]\n' },
    { name: '-V', args: ['-V'], want: '[stderr]\nhost 9.18.49-1~deb12u3-Debian\n[exit 0]\n' },
  ];
  for (const tc of cases) it(tc.name, () => assert.equal(render(host(input(tc.args, tc.world))), tc.want));
  it('unknown option and missing value print the usage', () => {
    const r = host(input(['-z', 'web']));
    assert.ok(r.stderr.startsWith(`host: illegal option -- z\n${USAGE_HEAD}`), r.stderr);
    assert.ok(r.stderr.endsWith('       -6 use IPv6 query transport only\n'));
    assert.equal(r.exitCode, 1);
    const m = host(input(['-W']));
    assert.ok(m.stderr.startsWith(`host: option requires an argument -- W\n${USAGE_HEAD}`), m.stderr);
  });
  it('-W sets the wait per try', () => {
    assert.equal(host(input(['-W', '3', 'web'], 'timeout')).elapsedMs, 6000);
    assert.equal(host(input(['web'], 'timeout')).elapsedMs, 10000);
  });
});

describe('host -v / -d / -a (host.c printmessage long form)', () => {
  const ids = (s: string): string => s.replace(/id: \d+/g, 'id: ID');
  const cases: { name: string; args: string[]; want: string }[] = [
    {
      name: '-v: each name tried, then header, sections and Received for A, AAAA and MX',
      args: ['-v', 'web'],
      want:
        'Trying "web.default.svc.cluster.local"\n' +
        ';; ->>HEADER<<- opcode: QUERY, status: NOERROR, id: ID\n;; flags: qr aa rd; QUERY: 1, ANSWER: 1, AUTHORITY: 0, ADDITIONAL: 0\n\n' +
        ';; QUESTION SECTION:\n;web.default.svc.cluster.local.\tIN\tA\n\n;; ANSWER SECTION:\nweb.default.svc.cluster.local. 30 IN\tA\t10.96.120.5\n\n' +
        'Received 92 bytes from 10.96.0.10#53 in 0 ms\n' +
        'Trying "web.default.svc.cluster.local"\n' +
        ';; ->>HEADER<<- opcode: QUERY, status: NOERROR, id: ID\n;; flags: qr aa rd; QUERY: 1, ANSWER: 0, AUTHORITY: 1, ADDITIONAL: 0\n\n' +
        ';; QUESTION SECTION:\n;web.default.svc.cluster.local.\tIN\tAAAA\n\n;; AUTHORITY SECTION:\ncluster.local.\t\t30\tIN\tSOA\tns.dns.cluster.local. hostmaster.cluster.local. 1718000000 7200 1800 86400 30\n\n' +
        'Received 140 bytes from 10.96.0.10#53 in 0 ms\n' +
        'Trying "web.default.svc.cluster.local"\n' +
        ';; ->>HEADER<<- opcode: QUERY, status: NOERROR, id: ID\n;; flags: qr aa rd; QUERY: 1, ANSWER: 0, AUTHORITY: 1, ADDITIONAL: 0\n\n' +
        ';; QUESTION SECTION:\n;web.default.svc.cluster.local.\tIN\tMX\n\n;; AUTHORITY SECTION:\ncluster.local.\t\t30\tIN\tSOA\tns.dns.cluster.local. hostmaster.cluster.local. 1718000000 7200 1800 86400 30\n\n' +
        'Received 140 bytes from 10.96.0.10#53 in 0 ms\n[exit 0]\n',
    },
    {
      name: '-d -t A: one lookup; intermediate NXDOMAINs only show as Trying',
      args: ['-d', '-t', 'A', 'kubernetes.default'],
      want:
        'Trying "kubernetes.default.default.svc.cluster.local"\nTrying "kubernetes.default.svc.cluster.local"\n' +
        ';; ->>HEADER<<- opcode: QUERY, status: NOERROR, id: ID\n;; flags: qr aa rd; QUERY: 1, ANSWER: 1, AUTHORITY: 0, ADDITIONAL: 0\n\n' +
        ';; QUESTION SECTION:\n;kubernetes.default.svc.cluster.local. IN A\n\n;; ANSWER SECTION:\nkubernetes.default.svc.cluster.local. 30 IN A\t10.96.0.1\n\n' +
        'Received 106 bytes from 10.96.0.10#53 in 0 ms\n[exit 0]\n',
    },
    {
      name: '-v NXDOMAIN after the search list: not-found line, then Received',
      args: ['-v', 'nosuch'],
      want:
        'Trying "nosuch.default.svc.cluster.local"\nTrying "nosuch.svc.cluster.local"\nTrying "nosuch.cluster.local"\nTrying "nosuch"\n' +
        'Host nosuch not found: 3(NXDOMAIN)\nReceived 99 bytes from 10.96.0.10#53 in 0 ms\n[exit 1]\n',
    },
  ];
  for (const tc of cases) it(tc.name, () => assert.equal(ids(render(host(input(tc.args)))), tc.want));
  it('-a asks ANY in the long form', () => {
    const out = host(input(['-a', 'web.default.svc.cluster.local.'])).stdout;
    assert.ok(out.startsWith('Trying "web.default.svc.cluster.local"\n;; ->>HEADER<<- opcode: QUERY, status: '), out);
    assert.match(out, /\n;; QUESTION SECTION:\n;web\.default\.svc\.cluster\.local\.\tIN\tANY\n/);
    assert.match(out, /\nReceived \d+ bytes from 10\.96\.0\.10#53 in 0 ms\n$/);
  });
});
