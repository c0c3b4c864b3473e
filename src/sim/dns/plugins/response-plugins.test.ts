/**
 * any, minimal, header, bufsize and debug against the shared test cluster, with cases from
 * coredns v1.13.1 plugin/any/any_test.go, minimal/minimal_test.go, header/header_test.go and
 * setup_test.go, bufsize/bufsize_test.go and setup_test.go, debug/debug_test.go.
 */
import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { ManualClock } from '../../../util/clock.js';
import { Random } from '../../../util/random.js';
import { newQuery, type Edns, type QType } from '../message.js';
import { startCoreDns } from '../server.js';
import { NODE_RESOLV, showReply, testView, upstreamTransport } from '../test-fixture.js';

function start(plugin: string) {
  return startCoreDns({
    corefile: `.:53 {\n    ${plugin}\n    kubernetes cluster.local in-addr.arpa ip6.arpa {\n        pods insecure\n        fallthrough in-addr.arpa ip6.arpa\n        ttl 30\n    }\n    forward . /etc/resolv.conf\n}\n`,
    readFile: (p) => (p === '/etc/resolv.conf' ? NODE_RESOLV : undefined),
    view: testView(),
    transport: upstreamTransport(),
    clock: new ManualClock(0),
    random: new Random(3),
    podIp: '10.244.0.2',
  });
}

function ask(plugin: string, name: string, type: QType, edns?: Edns) {
  const r = start(plugin);
  if (!r.ok) throw new Error(r.stderr);
  return r.server.query(newQuery(1, name, type, edns), { ip: '10.244.62.167', port: 40000, proto: 'udp' });
}

const SOA = 'NS: cluster.local. 30 SOA ns.dns.cluster.local. hostmaster.cluster.local. 1718000000 7200 1800 86400 30';

describe('any, minimal, header, bufsize: replies', () => {
  const cases: { name: string; plugin: string; qname: string; qtype: QType; want: string; edns?: Edns; wantEdns?: Edns; flags?: string }[] = [
    { name: 'any: ANY is answered with HINFO (any_test.go)', plugin: 'any', qname: 'example.org.', qtype: 'ANY', want: 'NOERROR aa=false; AN: example.org. 8482 HINFO "ANY obsoleted" "See RFC 8482"' },
    { name: 'any: other types pass', plugin: 'any', qname: 'web.default.svc.cluster.local.', qtype: 'A', want: 'NOERROR aa=true; AN: web.default.svc.cluster.local. 30 A 10.96.120.5' },
    { name: 'without minimal, SRV has glue', plugin: 'errors', qname: '_http._tcp.web.default.svc.cluster.local.', qtype: 'SRV', want: 'NOERROR aa=true; AN: _http._tcp.web.default.svc.cluster.local. 30 SRV 0 100 80 web.default.svc.cluster.local.; AR: web.default.svc.cluster.local. 30 A 10.96.120.5' },
    { name: 'minimal: NoError loses additional (minimal_test.go TestMinimizeResponse)', plugin: 'minimal', qname: '_http._tcp.web.default.svc.cluster.local.', qtype: 'SRV', want: 'NOERROR aa=true; AN: _http._tcp.web.default.svc.cluster.local. 30 SRV 0 100 80 web.default.svc.cluster.local.' },
    { name: 'minimal: NXDOMAIN keeps its SOA (denial)', plugin: 'minimal', qname: 'nope.default.svc.cluster.local.', qtype: 'A', want: `NXDOMAIN aa=true; ${SOA}` },
    { name: 'minimal: NODATA keeps its SOA (denial)', plugin: 'minimal', qname: 'web.default.svc.cluster.local.', qtype: 'AAAA', want: `NOERROR aa=true; ${SOA}` },
    { name: 'minimal: keeps EDNS (request.SizeAndDo)', plugin: 'minimal', qname: 'web.default.svc.cluster.local.', qtype: 'A', edns: { udpSize: 1232, do: false }, wantEdns: { udpSize: 1232, do: false }, want: 'NOERROR aa=true; AN: web.default.svc.cluster.local. 30 A 10.96.120.5' },
    { name: 'header: response set ra (header_test.go)', plugin: 'header {\n        response set ra\n    }', qname: 'web.default.svc.cluster.local.', qtype: 'A', flags: 'qr,aa,rd,ra', want: 'NOERROR aa=true; AN: web.default.svc.cluster.local. 30 A 10.96.120.5' },
    { name: 'header: response clear aa', plugin: 'header {\n        response clear aa\n    }', qname: 'web.default.svc.cluster.local.', qtype: 'A', flags: 'qr,rd', want: 'NOERROR aa=false; AN: web.default.svc.cluster.local. 30 A 10.96.120.5' },
    { name: 'header: query clear rd reaches the reply', plugin: 'header {\n        query clear rd\n    }', qname: 'web.default.svc.cluster.local.', qtype: 'A', flags: 'qr,aa', want: 'NOERROR aa=true; AN: web.default.svc.cluster.local. 30 A 10.96.120.5' },
    { name: 'bufsize: default 1232 caps 4096', plugin: 'bufsize', qname: 'web.default.svc.cluster.local.', qtype: 'A', edns: { udpSize: 4096, do: false }, wantEdns: { udpSize: 1232, do: false }, want: 'NOERROR aa=true; AN: web.default.svc.cluster.local. 30 A 10.96.120.5' },
    { name: 'bufsize 1220 (bufsize_test.go)', plugin: 'bufsize 1220', qname: 'web.default.svc.cluster.local.', qtype: 'A', edns: { udpSize: 4096, do: true }, wantEdns: { udpSize: 1220, do: true }, want: 'NOERROR aa=true; AN: web.default.svc.cluster.local. 30 A 10.96.120.5' },
    { name: 'bufsize: a smaller request size is kept', plugin: 'bufsize 1220', qname: 'web.default.svc.cluster.local.', qtype: 'A', edns: { udpSize: 512, do: false }, wantEdns: { udpSize: 512, do: false }, want: 'NOERROR aa=true; AN: web.default.svc.cluster.local. 30 A 10.96.120.5' },
  ];
  for (const tc of cases)
    it(tc.name, () => {
      const m = ask(tc.plugin, tc.qname, tc.qtype, tc.edns);
      assert.equal(showReply(m), tc.want);
      if (tc.wantEdns) assert.deepEqual(m?.edns, tc.wantEdns);
      if (tc.flags) assert.equal(Object.entries(m?.flags ?? {}).filter(([, v]) => v).map(([k]) => k).join(','), tc.flags);
    });
});

describe('any, minimal, header, bufsize, debug: setup', () => {
  const AFTER = (tok: string): string => `/etc/coredns/Corefile:2 - Error during parsing: Wrong argument count or unexpected line ending after '${tok}'`;
  const table: { name: string; plugin: string; stderr?: string }[] = [
    { name: 'minimal takes no arguments', plugin: 'minimal yes', stderr: `plugin/minimal: ${AFTER('yes')}` },
    { name: 'debug', plugin: 'debug' },
    { name: 'debug takes no arguments', plugin: 'debug on', stderr: `plugin/debug: ${AFTER('on')}` },
    { name: 'bufsize 512 is allowed', plugin: 'bufsize 512' },
    { name: 'bufsize 5000 (doubled prefix as upstream)', plugin: 'bufsize 5000', stderr: `plugin/bufsize: plugin/bufsize: ${AFTER('5000')}` },
    { name: 'bufsize 511', plugin: 'bufsize 511', stderr: `plugin/bufsize: plugin/bufsize: ${AFTER('511')}` },
    { name: 'bufsize abc123', plugin: 'bufsize abc123', stderr: `plugin/bufsize: plugin/bufsize: ${AFTER('abc123')}` },
    { name: 'bufsize 512 512', plugin: 'bufsize 512 512', stderr: `plugin/bufsize: plugin/bufsize: ${AFTER('512')}` },
    { name: 'header: unknown selector', plugin: 'header {\n        foo\n    }', stderr: 'plugin/header: setting up rule: invalid selector=foo should be query or response' },
    { name: 'header: no flags', plugin: 'header {\n        response set\n    }', stderr: 'plugin/header: setting up rule: invalid length for flags, at least one should be provided' },
    { name: 'header: unknown action', plugin: 'header {\n        response toggle aa\n    }', stderr: 'plugin/header: setting up rule: unknown flag action=toggle, should be set or clear' },
    { name: 'header: unsupported flag', plugin: 'header {\n        response set ad\n    }', stderr: 'plugin/header: setting up rule: unknown/unsupported flag=ad' },
    { name: 'header: no action', plugin: 'header {\n        query\n    }', stderr: 'plugin/header: setting up rule: no flag action provided' },
  ];
  for (const tc of table)
    it(tc.name, () => {
      const r = start(tc.plugin);
      assert.equal(r.ok ? 'started' : r.stderr, tc.stderr === undefined ? 'started' : `${tc.stderr}\n`);
    });
});
