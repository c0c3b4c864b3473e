import { test } from 'node:test';
import assert from 'node:assert/strict';
import { parseRequestURIError } from './go-url.js';

// The first two recorded from the real kubectl v1.35 (`kubectl get --raw …`, which validates
// before it connects); the rest follow net/url's url.go parse(rawURL, true).
const cases: { name: string; raw: string; err: string | undefined }[] = [
  { name: 'rootless path', raw: 'api/v1', err: 'parse "api/v1": invalid URI for request' },
  { name: 'bad escape', raw: '/api/v1/namespaces/%zz/pods', err: 'parse "/api/v1/namespaces/%zz/pods": invalid URL escape "%zz"' },
  { name: 'short escape at the end', raw: '/a%4', err: 'parse "/a%4": invalid URL escape "%4"' },
  { name: 'absolute path', raw: '/api/v1/pods?limit=1', err: undefined },
  { name: 'escape in the query is not checked', raw: '/x?a=%zz', err: undefined },
  { name: 'space in the path', raw: '/x y', err: undefined },
  { name: 'absolute URL', raw: 'http://h/x', err: undefined },
  { name: 'empty', raw: '', err: 'parse "": empty url' },
  { name: 'leading colon', raw: ':x', err: 'parse ":x": missing protocol scheme' },
  { name: 'control character', raw: '/a\tb', err: 'parse "/a\\tb": net/url: invalid control character in URL' },
];
for (const c of cases) test(`ParseRequestURI: ${c.name}`, () => assert.equal(parseRequestURIError(c.raw), c.err));
