import { test } from 'node:test';
import assert from 'node:assert/strict';
import { busyboxNslookup } from './images.js';

// busybox networking/nslookup.c history: ≤ 1.28.x libc applet, 1.29.x big applet without search
// (0dd3be8c0), 1.30.0+ big applet with search (9408978a4).
test('busybox tags map to the nslookup applet of their version', () => {
  const cases: [string, ReturnType<typeof busyboxNslookup>][] = [
    ['busybox:1.28', { applet: 'libc', libc: 'uclibc', version: '1.28' }],
    ['busybox:1.28.4', { applet: 'libc', libc: 'uclibc', version: '1.28.4' }],
    ['docker.io/library/busybox:1.28.0-glibc', { applet: 'libc', libc: 'glibc', version: '1.28.0' }],
    ['busybox:1.27.2-musl', { applet: 'libc', libc: 'musl', version: '1.27.2' }],
    ['busybox:1.24', { applet: 'libc', libc: 'uclibc', version: '1.24' }],
    ['busybox:1.29', { applet: 'big-no-search', libc: 'uclibc', version: '1.29' }],
    ['busybox:1.29.3-uclibc', { applet: 'big-no-search', libc: 'uclibc', version: '1.29.3' }],
    ['busybox:1.30.0', { applet: 'big', libc: 'uclibc', version: '1.30.0' }],
    ['busybox:1.36', { applet: 'big', libc: 'uclibc', version: '1.36' }],
    ['busybox:1.36.1-musl', { applet: 'big', libc: 'musl', version: '1.36.1' }],
    ['busybox', { applet: 'big', libc: 'uclibc' }],
    ['busybox:latest', { applet: 'big', libc: 'uclibc' }],
    ['busybox:stable', { applet: 'big', libc: 'uclibc' }],
    ['busybox:glibc', { applet: 'big', libc: 'glibc' }],
    ['busybox:2.0', undefined],
    ['alpine:3.20', undefined],
  ];
  for (const [image, want] of cases) assert.deepEqual(busyboxNslookup(image), want, image);
});
