import { test } from 'node:test';
import assert from 'node:assert/strict';
import { parseResolvConf } from '../resolv-conf.js';
import { uclibcCandidates } from './uclibc.js';

// uClibc-ng resolv.c __dns_lookup: qualified names as is first, unqualified ones through the
// search list only, trailing dot and PTR as is only; ndots plays no part.
test('uclibcCandidates: the names uClibc-ng sends, in order', () => {
  const rc = parseResolvConf('search default.svc.cluster.local svc.cluster.local cluster.local\nnameserver 10.96.0.10\noptions ndots:5\n');
  const bare = parseResolvConf('nameserver 10.96.0.10\n');
  const cases: { name: string; type?: 'A' | 'PTR'; rc?: typeof rc; want: string[] }[] = [
    { name: 'web', want: ['web.default.svc.cluster.local.', 'web.svc.cluster.local.', 'web.cluster.local.'] },
    { name: 'kubernetes.default', want: ['kubernetes.default.', 'kubernetes.default.default.svc.cluster.local.', 'kubernetes.default.svc.cluster.local.', 'kubernetes.default.cluster.local.'] },
    { name: 'web.default.svc.cluster.local.', want: ['web.default.svc.cluster.local.'] },
    { name: '1.0.96.10.in-addr.arpa', type: 'PTR', want: ['1.0.96.10.in-addr.arpa.'] },
    { name: 'web', rc: bare, want: ['web.'] },
  ];
  for (const k of cases) assert.deepEqual(uclibcCandidates(k.name, k.type ?? 'A', k.rc ?? rc), k.want, k.name);
});
