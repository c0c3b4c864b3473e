/**
 * file, ported from coredns v1.13.1 plugin/file/lookup_test.go (dbMiekNL and dnsTestCases; the
 * DNAME and CAA records are left out, as the simulator does not model those types), plus
 * setup.go's errors, the missing-file warning and reload.go's serial rule.
 */
import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { ManualClock } from '../../../util/clock.js';
import { Random } from '../../../util/random.js';
import { staticClusterView } from '../cluster-view.js';
import { newQuery, type QType } from '../message.js';
import { startCoreDns } from '../server.js';
import { showReply } from '../test-fixture.js';

const DB_MIEK_NL = `
$TTL    30M
$ORIGIN miek.nl.
@       IN      SOA     linode.atoom.net. miek.miek.nl. (
                             1282630057 ; Serial
                             4H         ; Refresh
                             1H         ; Retry
                             7D         ; Expire
                             4H )       ; Negative Cache TTL
                IN      NS      linode.atoom.net.
                IN      NS      ns-ext.nlnetlabs.nl.
                IN      NS      omval.tednet.nl.
                IN      NS      ext.ns.whyscream.net.

                IN      MX      1  aspmx.l.google.com.
                IN      MX      5  alt1.aspmx.l.google.com.
                IN      MX      5  alt2.aspmx.l.google.com.
                IN      MX      10 aspmx2.googlemail.com.
                IN      MX      10 aspmx3.googlemail.com.

\t\tIN      A       139.162.196.78
\t\tIN      AAAA    2a01:7e00::f03c:91ff:fef1:6735

a               IN      A       139.162.196.78
                IN      AAAA    2a01:7e00::f03c:91ff:fef1:6735
www             IN      CNAME   a
archive         IN      CNAME   a
*.x             IN      CNAME   www
b.x             IN      CNAME   a
*.y             IN      A       139.162.196.78

srv\t\tIN\tSRV     10 10 8080 a.miek.nl.
mx\t\tIN\tMX      10 a.miek.nl.

txt     IN\tTXT     "v=spf1 a mx ~all"
*.nodata    IN   A      139.162.196.79
ext-cname   IN   CNAME  example.com.`;

function start(stanza: string, files: Record<string, string>, clock = new ManualClock(0)) {
  return startCoreDns({
    corefile: `miek.nl:53 {\n    ${stanza}\n}\n`,
    readFile: (p) => files[p],
    view: staticClusterView({}),
    transport: () => 'timeout',
    clock,
    random: new Random(1),
    podIp: '10.244.0.2',
  });
}

const AUTH = 'NS: miek.nl. 1800 NS linode.atoom.net. | miek.nl. 1800 NS ns-ext.nlnetlabs.nl. | miek.nl. 1800 NS omval.tednet.nl. | miek.nl. 1800 NS ext.ns.whyscream.net.';
const SOA = 'NS: miek.nl. 1800 SOA linode.atoom.net. miek.miek.nl. 1282630057 14400 3600 604800 14400';
const A = 'a.miek.nl. 1800 A 139.162.196.78';
const AAAA = 'a.miek.nl. 1800 AAAA 2a01:7e00::f03c:91ff:fef1:6735';

const cases: { qname: string; qtype: QType; want: string }[] = [
  { qname: 'www.miek.nl.', qtype: 'A', want: `NOERROR aa=true; AN: www.miek.nl. 1800 CNAME a.miek.nl. | ${A}; ${AUTH}` },
  { qname: 'www.miek.nl.', qtype: 'AAAA', want: `NOERROR aa=true; AN: www.miek.nl. 1800 CNAME a.miek.nl. | ${AAAA}; ${AUTH}` },
  { qname: 'miek.nl.', qtype: 'SOA', want: `NOERROR aa=true; AN: miek.nl. 1800 SOA linode.atoom.net. miek.miek.nl. 1282630057 14400 3600 604800 14400; ${AUTH}` },
  { qname: 'miek.nl.', qtype: 'AAAA', want: `NOERROR aa=true; AN: miek.nl. 1800 AAAA 2a01:7e00::f03c:91ff:fef1:6735; ${AUTH}` },
  { qname: 'mIeK.NL.', qtype: 'AAAA', want: `NOERROR aa=true; AN: miek.nl. 1800 AAAA 2a01:7e00::f03c:91ff:fef1:6735; ${AUTH}` },
  {
    qname: 'miek.nl.',
    qtype: 'MX',
    want: `NOERROR aa=true; AN: miek.nl. 1800 MX 1 aspmx.l.google.com. | miek.nl. 1800 MX 5 alt1.aspmx.l.google.com. | miek.nl. 1800 MX 5 alt2.aspmx.l.google.com. | miek.nl. 1800 MX 10 aspmx2.googlemail.com. | miek.nl. 1800 MX 10 aspmx3.googlemail.com.; ${AUTH}`,
  },
  { qname: 'a.miek.nl.', qtype: 'SRV', want: `NOERROR aa=true; ${SOA}` },
  { qname: 'b.miek.nl.', qtype: 'A', want: `NXDOMAIN aa=true; ${SOA}` },
  { qname: 'srv.miek.nl.', qtype: 'SRV', want: `NOERROR aa=true; AN: srv.miek.nl. 1800 SRV 10 10 8080 a.miek.nl.; ${AUTH}; AR: ${A} | ${AAAA}` },
  { qname: 'mx.miek.nl.', qtype: 'MX', want: `NOERROR aa=true; AN: mx.miek.nl. 1800 MX 10 a.miek.nl.; ${AUTH}; AR: ${A} | ${AAAA}` },
  { qname: 'asterisk.x.miek.nl.', qtype: 'CNAME', want: `NOERROR aa=true; AN: asterisk.x.miek.nl. 1800 CNAME www.miek.nl.; ${AUTH}` },
  { qname: 'a.b.x.miek.nl.', qtype: 'CNAME', want: `NXDOMAIN aa=true; ${SOA}` },
  { qname: 'asterisk.y.miek.nl.', qtype: 'A', want: `NOERROR aa=true; AN: asterisk.y.miek.nl. 1800 A 139.162.196.78; ${AUTH}` },
  // Upstream's table has no server behind upstream.Lookup (an error: SERVFAIL). Here the lookup
  // reaches this server, which has no block for example.com and REFUSES it: doLookup's Success.
  { qname: 'ext-cname.miek.nl.', qtype: 'A', want: `NOERROR aa=true; AN: ext-cname.miek.nl. 1800 CNAME example.com.; ${AUTH}` },
  { qname: 'txt.miek.nl.', qtype: 'TXT', want: `NOERROR aa=true; AN: txt.miek.nl. 1800 TXT "v=spf1 a mx ~all"; ${AUTH}` },
  // TestLookUpNoDataResult: an empty non-terminal and a wildcard owner's other type are NODATA.
  { qname: 'x.miek.nl.', qtype: 'A', want: `NOERROR aa=true; ${SOA}` },
  { qname: 'a.nodata.miek.nl.', qtype: 'MX', want: `NOERROR aa=true; ${SOA}` },
  { qname: 'miek.nl.', qtype: 'NS', want: `NOERROR aa=true; AN: ${AUTH.slice(4)}` },
  { qname: 'miek.nl.', qtype: 'AXFR', want: 'REFUSED aa=false' },
];

describe('file lookups (lookup_test.go dnsTestCases)', () => {
  const r = start('file /etc/coredns/db.miek.nl', { '/etc/coredns/db.miek.nl': DB_MIEK_NL });
  if (!r.ok) throw new Error(r.stderr);
  for (const tc of cases)
    it(`${tc.qname} ${tc.qtype}`, () => {
      assert.equal(showReply(r.server.query(newQuery(1, tc.qname, tc.qtype), { ip: '10.0.0.1', port: 1, proto: 'udp' })), tc.want);
    });
});

describe('file setup and reload', () => {
  const NO_SOA = '$ORIGIN miek.nl.\na IN A 1.2.3.4\n';
  const table: { name: string; stanza: string; stderr: string }[] = [
    { name: 'no file name', stanza: 'file', stderr: "plugin/file: /etc/coredns/Corefile:2 - Error during parsing: Wrong argument count or unexpected line ending after 'file'" },
    { name: 'no SOA', stanza: 'file /etc/coredns/nosoa', stderr: 'plugin/file: file "/etc/coredns/nosoa" has no SOA record for origin miek.nl.' },
    { name: 'bad A', stanza: 'file /etc/coredns/bad', stderr: 'plugin/file: failed to parse file "/etc/coredns/bad" for origin miek.nl. with error /etc/coredns/bad: dns: bad A A: "1.2.3" at line: 2:9' },
    { name: 'unknown property', stanza: 'file /etc/coredns/db.miek.nl {\n        transfer to *\n    }', stderr: "plugin/file: /etc/coredns/Corefile:3 - Error during parsing: unknown property 'transfer'" },
    { name: 'reload without value', stanza: 'file /etc/coredns/db.miek.nl {\n        reload\n    }', stderr: 'plugin/file: reload duration value is expected' },
    { name: 'missing file with reload 0 is fatal', stanza: 'file /etc/coredns/none {\n        reload 0\n    }', stderr: 'plugin/file: open /etc/coredns/none: no such file or directory' },
  ];
  const files = { '/etc/coredns/db.miek.nl': DB_MIEK_NL, '/etc/coredns/nosoa': NO_SOA, '/etc/coredns/bad': '$ORIGIN miek.nl.\na A 1.2.3\n' };
  for (const tc of table)
    it(tc.name, () => {
      const r = start(tc.stanza, files);
      assert.equal(r.ok ? 'started' : r.stderr, `${tc.stderr}\n`);
    });

  it('a missing file only warns, answers SERVFAIL, and is loaded on a later reload tick', () => {
    const fs: Record<string, string> = {};
    const clock = new ManualClock(0);
    const r = start('file /etc/coredns/db.miek.nl', fs, clock);
    if (!r.ok) throw new Error(r.stderr);
    assert.ok(r.server.logs.includes('[WARNING] plugin/file: Failed to open "open /etc/coredns/db.miek.nl: no such file or directory": trying again in 1m0s'));
    const ask = (): string => showReply(r.server.query(newQuery(1, 'a.miek.nl.', 'A'), { ip: '10.0.0.1', port: 1, proto: 'udp' }));
    assert.equal(ask(), 'SERVFAIL aa=false');
    fs['/etc/coredns/db.miek.nl'] = DB_MIEK_NL;
    clock.advance(59_000);
    assert.equal(ask(), 'SERVFAIL aa=false');
    clock.advance(61_000);
    assert.equal(ask(), `NOERROR aa=true; AN: ${A}; ${AUTH}`);
    assert.ok(r.server.logs.includes('[INFO] plugin/file: Successfully reloaded zone "miek.nl." in "/etc/coredns/db.miek.nl" with 1282630057 SOA serial'));
  });

  it('an edited zone is only taken when its SOA serial changes', () => {
    const fs: Record<string, string> = { '/etc/coredns/db.miek.nl': DB_MIEK_NL };
    const clock = new ManualClock(0);
    const r = start('file /etc/coredns/db.miek.nl', fs, clock);
    if (!r.ok) throw new Error(r.stderr);
    const ask = (): string => showReply(r.server.query(newQuery(1, 'a.miek.nl.', 'A'), { ip: '10.0.0.1', port: 1, proto: 'udp' }));
    ask();
    fs['/etc/coredns/db.miek.nl'] = DB_MIEK_NL.replace('a               IN      A       139.162.196.78', 'a               IN      A       10.1.1.1');
    clock.advance(120_000);
    assert.equal(ask(), `NOERROR aa=true; AN: ${A}; ${AUTH}`);
    fs['/etc/coredns/db.miek.nl'] = (fs['/etc/coredns/db.miek.nl'] ?? '').replace('1282630057', '1282630058');
    clock.advance(60_000);
    assert.equal(ask(), `NOERROR aa=true; AN: a.miek.nl. 1800 A 10.1.1.1; ${AUTH}`);
  });
});
