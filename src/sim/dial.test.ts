import { test } from 'node:test';
import assert from 'node:assert/strict';
import { parseServer } from './dial.js';

test('parseServer: the parts of a server URL, one frozen answer per text', () => {
  const a = parseServer('192.168.122.11:6443');
  assert.deepEqual(a, { scheme: 'https', host: '192.168.122.11', port: 6443, hostPort: '192.168.122.11:6443', base: 'https://192.168.122.11:6443' });
  assert.ok(Object.isFrozen(a));
  // the memo hands the same object back (callers only read it)
  assert.equal(parseServer('192.168.122.11:6443'), a);
  assert.deepEqual(parseServer('http://cp'), { scheme: 'http', host: 'cp', port: 80, hostPort: 'cp', base: 'http://cp' });
  assert.deepEqual(parseServer('https://k8s.example:443/'), { scheme: 'https', host: 'k8s.example', port: 443, hostPort: 'k8s.example', base: 'https://k8s.example:443' });
  assert.equal(parseServer('https://[bad'), undefined);
  assert.equal(parseServer('https://[bad'), undefined);
});
