import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { ManualClock } from '../../util/clock.js';
import { Random } from '../../util/random.js';
import { DEFAULT_COREFILE_SEED000, KUBEADM_COREFILE_PLAIN_CACHE } from './corefile/kubeadm.js';
import { newQuery, type DnsMessage } from './message.js';
import { startCoreDns } from './server.js';
import { NODE_RESOLV, startTestServer, testView, upstreamTransport } from './test-fixture.js';

const CLIENT = { ip: '10.244.62.167', port: 40000, proto: 'udp' as const };

function start(corefile: string, files: Record<string, string> = {}) {
  const fs: Record<string, string> = { '/etc/resolv.conf': NODE_RESOLV, ...files };
  return startCoreDns({
    corefile,
    readFile: (p) => fs[p],
    view: testView(),
    transport: upstreamTransport(),
    clock: new ManualClock(0),
    random: new Random(1),
    podIp: '10.244.0.2',
  });
}

function edit(from: string, to: string, base = KUBEADM_COREFILE_PLAIN_CACHE): string {
  assert.ok(base.includes(from), `fixture lacks ${from}`);
  return base.replace(from, to);
}

function q(server: { query(m: DnsMessage, c: typeof CLIENT): DnsMessage | undefined }, name: string, type: Parameters<typeof newQuery>[2] = 'A'): DnsMessage {
  const r = server.query(newQuery(7, name, type), CLIENT);
  assert.ok(r, 'no reply');
  return r;
}

describe('startup', () => {
  it('prints the zone line, reload hash, version and build line for seed 000 Corefile', () => {
    const { server } = startTestServer();
    assert.equal(server.logs.length, 4);
    assert.equal(server.logs[0], '.:53');
    assert.match(server.logs[1] ?? '', /^\[INFO\] plugin\/reload: Running configuration SHA512 = [0-9a-f]{128}$/);
    assert.deepEqual(server.logs.slice(2), ['CoreDNS-1.13.1', 'linux/amd64, go1.25.2, 1db4568']);
    assert.deepEqual(server.listeningPorts(), [53, 8080, 8181, 9153]);
    assert.deepEqual(server.health(), { status: 200, body: 'OK' });
    assert.deepEqual(server.ready(), { status: 200, body: 'OK' });
  });

  it("logs the reload hash real pods log for kubeadm's Corefile", () => {
    // The value in real CoreDNS pod logs (1.9.3 to 1.11.3) on kubeadm clusters, e.g. the v1.11.3
    // log in shared/reference/coredns.md §4.1: SHA512 of the JSON of the parsed server blocks, whose
    // main-file tokens have `"File":""` (plugin/reload/reload.go; coredns/caddy dispenser.go)
    const r = start(KUBEADM_COREFILE_PLAIN_CACHE);
    assert.ok(r.ok);
    assert.equal(
      r.server.logs[1],
      '[INFO] plugin/reload: Running configuration SHA512 = 591cf328cccc12bc490481273e738df59329c62c0b729d94e8b61db9961c2fa5f046dd37f1cf888b953814040d180f52594972691cd6ff41be96639138a43908',
    );
    // an import glob that matches nothing after the last directive leaves the tokens (and lines) as
    // they were: the same hash, as in a managed cluster's reload log with custom/*.include
    const globs = start(KUBEADM_COREFILE_PLAIN_CACHE.replace('    loadbalance\n}\n', '    loadbalance\n    import custom/*.include\n}\nimport custom/*.server\n'));
    assert.ok(globs.ok);
    assert.equal(globs.server.logs.find((l) => l.includes('SHA512')), r.server.logs[1]);
  });

  it('hashes an imported token with its file, a main-file token without', () => {
    const inline = start(KUBEADM_COREFILE_PLAIN_CACHE.replace('    loadbalance\n', '    log\n'));
    const imported = start(KUBEADM_COREFILE_PLAIN_CACHE.replace('    loadbalance\n', '    import /etc/coredns/log.conf\n'), { '/etc/coredns/log.conf': 'log\n' });
    assert.ok(inline.ok && imported.ok);
    const hash = (logs: string[]): string | undefined => logs.find((l) => l.includes('SHA512'));
    // same directive on the same line number: only the token's File differs
    assert.notEqual(hash(imported.server.logs), hash(inline.server.logs));
    const relative = start(KUBEADM_COREFILE_PLAIN_CACHE.replace('    loadbalance\n', '    import log.conf\n'), { '/etc/coredns/log.conf': 'log\n' });
    assert.ok(relative.ok);
    assert.equal(hash(relative.server.logs), hash(imported.server.logs));
  });

  it('prints one line per zone, sorted, for several blocks', () => {
    const r = start(`${DEFAULT_COREFILE_SEED000}example.internal:53 {\n    forward . 10.0.0.53\n}\n`);
    assert.ok(r.ok);
    assert.deepEqual(r.server.logs.slice(0, 2), ['.:53', 'example.internal.:53']);
  });

  const table: { name: string; corefile: string; stderr: string }[] = [
    { name: 'typo in plugin name', corefile: edit('    kubernetes cluster.local', '    kubernete cluster.local'), stderr: "/etc/coredns/Corefile:7 - Error during parsing: Unknown directive 'kubernete'" },
    { name: 'final } deleted', corefile: KUBEADM_COREFILE_PLAIN_CACHE.replace(/}\n$/, ''), stderr: "/etc/coredns/Corefile:19 - Syntax error: Unexpected token 'loadbalance', expecting '}'" },
    { name: 'kubernetes } deleted', corefile: edit('       ttl 30\n    }\n', '       ttl 30\n'), stderr: "plugin/kubernetes: /etc/coredns/Corefile:11 - Error during parsing: unknown property 'prometheus'" },
    { name: 'forward } deleted', corefile: edit('       max_concurrent 1000\n    }\n', '       max_concurrent 1000\n'), stderr: "plugin/forward: /etc/coredns/Corefile:15 - Error during parsing: unknown property 'cache'" },
    { name: 'forward without upstream', corefile: edit('forward . /etc/resolv.conf {', 'forward . {'), stderr: "plugin/forward: /etc/coredns/Corefile:13 - Error during parsing: Wrong argument count or unexpected line ending after '.'" },
    { name: 'bad upstream IP', corefile: edit('forward . /etc/resolv.conf {', 'forward . 8.8.8.888 {'), stderr: 'plugin/forward: not an IP address or file: "8.8.8.888"' },
    { name: 'fallthru', corefile: edit('fallthrough in-addr.arpa', 'fallthru in-addr.arpa'), stderr: "plugin/kubernetes: /etc/coredns/Corefile:9 - Error during parsing: unknown property 'fallthru'" },
    { name: 'pods giant_seed', corefile: edit('pods insecure', 'pods giant_seed'), stderr: 'plugin/kubernetes: wrong value for pods: giant_seed,  must be one of: disabled, verified, insecure' },
    { name: 'ttl 3601', corefile: edit('ttl 30', 'ttl 3601'), stderr: 'plugin/kubernetes: /etc/coredns/Corefile:10 - Error during parsing: ttl must be in range [0, 3600]: 3601' },
    { name: 'second kubernetes', corefile: edit('    prometheus :9153\n', '    prometheus :9153\n    kubernetes cluster.local\n'), stderr: 'plugin/kubernetes: this plugin can only be used once per Server Block' },
    { name: 'cache 30 }', corefile: edit('    cache 30\n', '    cache 30 }\n'), stderr: "/etc/coredns/Corefile:16 - Error during parsing: Unexpected '}' because no matching opening brace" },
    { name: 'second .:53 block', corefile: `${KUBEADM_COREFILE_PLAIN_CACHE}.:53 {\n    forward . 8.8.8.8\n}\n`, stderr: 'cannot serve dns://.:53 - it is already defined' },
    { name: 'hosts entry after fallthrough', corefile: edit('    ready\n', '    ready\n    hosts {\n       fallthrough\n       10.0.0.1 a.example\n    }\n'), stderr: "plugin/hosts: /etc/coredns/Corefile:9 - Error during parsing: unknown property '10.0.0.1'" },
    { name: 'reload 1s', corefile: edit('    reload\n', '    reload 1s\n'), stderr: 'plugin/reload: interval value must be greater or equal to 2s' },
    { name: 'loop x', corefile: edit('    loop\n', '    loop x\n'), stderr: "plugin/loop: /etc/coredns/Corefile:17 - Error during parsing: Wrong argument count or unexpected line ending after 'x'" },
    { name: 'cache 0', corefile: edit('    cache 30\n', '    cache 0\n'), stderr: 'plugin/cache: cache TTL can not be zero or negative: 0' },
    { name: 'unknown directive . (coredns/deployment#215)', corefile: '.:53 {\n    errors\n    . cluster.local\n}\n', stderr: "/etc/coredns/Corefile:3 - Error during parsing: Unknown directive '.'" },
    { name: 'invalid zone', corefile: 'a..b:53 {\n    whoami\n}\n', stderr: 'error inspecting server blocks: zone is not a valid domain name: a..b' },
  ];
  for (const tc of table) {
    it(`fails to start: ${tc.name}`, () => {
      const r = start(tc.corefile);
      assert.equal(r.ok, false);
      if (r.ok) return;
      assert.equal(r.stderr, `${tc.stderr}\n`);
      assert.equal(r.stdout, '');
      assert.equal(r.exitCode, 1);
    });
  }

  it('detects a forwarding loop through a loopback resolver and exits', () => {
    const r = start(DEFAULT_COREFILE_SEED000, { '/etc/resolv.conf': 'nameserver 127.0.0.53\n' });
    assert.equal(r.ok, false);
    if (r.ok) return;
    assert.match(r.stderr, /^\[FATAL\] plugin\/loop: Loop \(127\.0\.0\.1:\d+ -> :53\) detected for zone "\.", see https:\/\/coredns\.io\/plugins\/loop#troubleshooting\. Query: "HINFO \d+\.\d+\."\n$/);
    assert.equal(r.stdout.split('\n')[0], '.:53');
  });
});

describe('query routing', () => {
  it('uses the most specific zone block and REFUSED without a match', () => {
    const r = start('example.internal {\n    whoami\n}\nsub.example.internal {\n    hosts {\n      10.1.1.1 a.sub.example.internal\n    }\n}\n');
    assert.ok(r.ok);
    const a = q(r.server, 'a.sub.example.internal');
    assert.equal(a.answer[0]?.type === 'A' && a.answer[0].address, '10.1.1.1');
    const w = q(r.server, 'x.example.internal');
    assert.equal(w.additional[0]?.type === 'A' && w.additional[0].address, '10.244.62.167');
    assert.equal(q(r.server, 'example.com').rcode, 'REFUSED');
  });

  it('a kubernetes-only block answers SERVFAIL for other names (no next plugin)', () => {
    const r = start('.:53 {\n    errors\n    kubernetes cluster.local\n}\n');
    assert.ok(r.ok);
    assert.equal(q(r.server, 'example.com').rcode, 'SERVFAIL');
    assert.equal(r.server.logs.at(-1), '[ERROR] plugin/errors: 2 example.com. A: plugin/kubernetes: no next plugin found');
  });

  it('forward timeout gives SERVFAIL and the errors line', () => {
    const r = start('.:53 {\n    errors\n    forward . 10.0.0.99\n}\n');
    assert.ok(r.ok);
    const res = r.server.serve(newQuery(1, 'example.com', 'A'), CLIENT);
    assert.equal(res.reply?.rcode, 'SERVFAIL');
    assert.equal(res.elapsedMs, 5000);
    assert.match(r.server.logs.at(-1) ?? '', /^\[ERROR\] plugin\/errors: 2 example\.com\. A: read udp 10\.244\.0\.2:\d+->10\.0\.0\.99:53: i\/o timeout$/);
  });
});

describe('hosts (seed 000)', () => {
  const corefile = DEFAULT_COREFILE_SEED000.replace('    ready\n', '    ready\n    hosts {\n       192.168.122.200 legacy.example.internal\n       fallthrough\n    }\n');
  it('answers the inline entry with TTL 3600 and AA, and falls through for the rest', () => {
    const r = start(corefile);
    assert.ok(r.ok);
    const a = q(r.server, 'legacy.example.internal');
    assert.equal(a.rcode, 'NOERROR');
    assert.equal(a.flags.aa, true);
    assert.deepEqual(a.answer, [{ name: 'legacy.example.internal.', ttl: 30, class: 'IN', type: 'A', address: '192.168.122.200' }]);
    assert.equal(q(r.server, 'web.default.svc.cluster.local').answer[0]?.type, 'A');
    assert.equal(q(r.server, 'example.com').rcode, 'NOERROR');
    assert.equal(q(r.server, 'legacy.example.internal', 'AAAA').answer.length, 0);
  });
  it('without fallthrough every other name is SERVFAIL', () => {
    const r = start(corefile.replace('       fallthrough\n', ''));
    assert.ok(r.ok);
    assert.equal(q(r.server, 'web.default.svc.cluster.local').rcode, 'SERVFAIL');
    assert.equal(q(r.server, 'example.com').rcode, 'SERVFAIL');
  });
  it('without cache the hosts TTL is 3600', () => {
    const r = start('.:53 {\n    hosts {\n       192.168.122.200 legacy.example.internal\n    }\n}\n');
    assert.ok(r.ok);
    assert.equal(q(r.server, 'legacy.example.internal').answer[0]?.ttl, 3600);
  });
});

describe('reload', () => {
  it('logs a successful reload and serves the new config after the period', () => {
    const { server, clock } = startTestServer();
    const edited = DEFAULT_COREFILE_SEED000.replace('    ready\n', '    ready\n    hosts {\n       192.168.122.200 legacy.example.internal\n       fallthrough\n    }\n');
    server.maybeReload(edited);
    assert.equal(server.logs.length, 4, 'no check before the period');
    clock.advance(server.reloadPeriodMs());
    server.maybeReload(edited);
    assert.equal(server.logs[4], '[INFO] Reloading');
    assert.match(server.logs[5] ?? '', /^\[INFO\] plugin\/reload: Running configuration SHA512 = [0-9a-f]{128}$/);
    assert.equal(server.logs[6], '[INFO] Reloading complete');
    assert.equal(q(server, 'legacy.example.internal').answer[0]?.type, 'A');
  });
  it('keeps the old config on a failed reload', () => {
    const { server, clock } = startTestServer();
    clock.advance(server.reloadPeriodMs());
    server.maybeReload(DEFAULT_COREFILE_SEED000.replace('    kubernetes cluster.local', '    kubernete cluster.local'));
    const err = "starting with listener file descriptors: /etc/coredns/Corefile:7 - Error during parsing: Unknown directive 'kubernete'";
    assert.deepEqual(server.logs.slice(4), ['[INFO] Reloading', `[ERROR] Restart failed: ${err}`, `[ERROR] plugin/reload: Corefile changed but reload failed: ${err}`]);
    assert.equal(q(server, 'web.default.svc.cluster.local').answer.length, 1);
  });
  it('warns on a syntax error and does nothing for a comment-only change', () => {
    const { server, clock } = startTestServer();
    clock.advance(server.reloadPeriodMs());
    server.maybeReload(DEFAULT_COREFILE_SEED000.replace("    loop\n", "    loop   # same line comment\n"));
    assert.equal(server.logs.length, 4);
    clock.advance(server.reloadPeriodMs());
    server.maybeReload(DEFAULT_COREFILE_SEED000.replace(/}\n$/, ''));
    assert.equal(server.logs[4], "[WARNING] plugin/reload: Corefile parse failed: /etc/coredns/Corefile:22 - Syntax error: Unexpected token 'loadbalance', expecting '}'");
  });
});

describe('cache', () => {
  it('clamps upstream TTLs to 30, serves hits with AA and counts down', () => {
    const { server, clock } = startTestServer();
    const first = q(server, 'google.com');
    assert.equal(first.flags.aa, false);
    assert.equal(first.answer[0]?.ttl, 30);
    clock.advance(10000);
    const hit = q(server, 'google.com');
    assert.equal(hit.flags.aa, true);
    assert.equal(hit.answer[0]?.ttl, 20);
  });
});

describe('directives this simulator does not emulate, and plugin.cfg order', () => {
  it('a real plugin that is not simulated is accepted, with a simulator warning instead of silence', () => {
    const r = start('.:53 {\n    dnstap /tmp/dnstap.sock full\n    whoami\n}\n');
    assert.ok(r.ok);
    assert.equal(r.server.logs[0], '[WARNING] cka-lab simulator: plugin/dnstap is not simulated; the directive is accepted but does nothing');
    assert.equal(q(r.server, 'x.example.').rcode, 'NOERROR');
  });

  it('a name outside plugin.cfg is still an unknown directive', () => {
    const r = start('.:53 {\n    whoami\n    foo\n}\n');
    assert.deepEqual(r.ok ? 'started' : r.stderr, "/etc/coredns/Corefile:3 - Error during parsing: Unknown directive 'foo'\n");
  });

  it('plugins run in plugin.cfg order, not Corefile order: acl before any before kubernetes', () => {
    // Written last, acl still runs first (plugin.cfg: acl, any, ..., kubernetes, ..., forward).
    const r = start('.:53 {\n    forward . /etc/resolv.conf\n    kubernetes cluster.local\n    any\n    acl {\n        block type ANY\n    }\n}\n');
    assert.ok(r.ok);
    assert.equal(q(r.server, 'web.default.svc.cluster.local', 'ANY').rcode, 'REFUSED');
    assert.equal(q(r.server, 'web.default.svc.cluster.local').answer[0]?.type, 'A');
    const noAcl = start('.:53 {\n    forward . /etc/resolv.conf\n    kubernetes cluster.local\n    any\n}\n');
    assert.ok(noAcl.ok);
    assert.equal(q(noAcl.server, 'web.default.svc.cluster.local', 'ANY').answer[0]?.type, 'HINFO');
  });
});

describe('reads of one build', () => {
  it('reads each file once while a build runs', () => {
    const reads: string[] = [];
    const fs: Record<string, string> = { '/etc/resolv.conf': NODE_RESOLV };
    const r = startCoreDns({
      corefile: DEFAULT_COREFILE_SEED000,
      readFile: (p) => (reads.push(p), fs[p]),
      view: testView(),
      transport: upstreamTransport(),
      clock: new ManualClock(0),
      random: new Random(1),
      podIp: '10.244.0.2',
    });
    assert.ok(r.ok);
    // the kubernetes and forward plugins both read it: one read of the container's mounts
    assert.deepEqual(
      reads.filter((p) => p === '/etc/resolv.conf'),
      ['/etc/resolv.conf'],
    );
  });
});
