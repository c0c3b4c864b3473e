/** `ps` run by a container's own program (ps-tool.ts scriptPs): whose processes, and where ps itself appears. */
import { test } from 'node:test';
import assert from 'node:assert/strict';
import type { Container, Pod } from '../api/types.js';
import { scriptPs } from './ps-tool.js';

const web: Container = { name: 'web', image: 'nginx' };
const running = (name: string): { name: string; state: { running: { startedAt: string } } } => ({ name, state: { running: { startedAt: '2026-12-02T10:00:00Z' } } });

function podWith(debug: Container, shareProcessNamespace = false): Pod {
  return {
    apiVersion: 'v1',
    kind: 'Pod',
    metadata: { name: 'p', namespace: 'default' },
    spec: { containers: [web], ephemeralContainers: [debug], ...(shareProcessNamespace ? { shareProcessNamespace } : {}) },
    // the debug container's own status is not written yet when its script starts
    status: { phase: 'Running', containerStatuses: [running('web')] },
  } as Pod;
}

test('scriptPs: --target joins the target container\'s PID namespace; ps is its own process, a child, or exec\'d last', () => {
  const cases: { name: string; debug: Container; argv: string[]; want: string[] }[] = [
    { name: 'ps as the command', debug: { name: 'd', image: 'busybox', command: ['ps'], targetContainerName: 'web' } as Container, argv: ['ps'], want: ['1 root 0:00 nginx: master process nginx -g daemon off;', '10 root 0:00 ps'] },
    { name: 'ps not last: a child of the shell', debug: { name: 'd', image: 'busybox', command: ['sh', '-c', 'ps; sleep 5'], targetContainerName: 'web' } as Container, argv: ['ps'], want: ['1 root 0:00 nginx: master process nginx -g daemon off;', '10 root 0:00 sh -c ps; sleep 5', '22 root 0:00 ps'] },
    { name: 'ps last in the -c list: exec\'d in the shell\'s place', debug: { name: 'd', image: 'busybox', command: ['sh', '-c', 'echo hi; ps -ef'], targetContainerName: 'web' } as Container, argv: ['ps', '-ef'], want: ['1 root 0:00 nginx: master process nginx -g daemon off;', '10 root 0:00 ps -ef'] },
    { name: 'no target: its own namespace only', debug: { name: 'd', image: 'busybox', command: ['sh', '-c', 'ps; sleep 5'] }, argv: ['ps'], want: ['1 root 0:00 sh -c ps; sleep 5', '10 root 0:00 ps'] },
  ];
  for (const c of cases) {
    const lines = scriptPs(podWith(c.debug), c.debug, c.argv).trimEnd().split('\n');
    assert.equal(lines[0], 'PID   USER     TIME  COMMAND', c.name);
    assert.deepEqual(lines.slice(1).map((l) => l.trim().replace(/ +/g, ' ')), c.want, c.name);
  }
});

test('scriptPs: shareProcessNamespace lists the pause process first', () => {
  const side: Container = { name: 'side', image: 'busybox', command: ['sh', '-c', 'ps; sleep 5'] };
  const pod = { ...podWith(side, true), spec: { containers: [web, side], shareProcessNamespace: true } } as Pod;
  const lines = scriptPs(pod, side, ['ps']).trimEnd().split('\n').slice(1).map((l) => l.trim().replace(/ +/g, ' '));
  assert.deepEqual(lines, ['1 65535 0:00 /pause', '10 root 0:00 nginx: master process nginx -g daemon off;', '22 root 0:00 sh -c ps; sleep 5', '28 root 0:00 ps']);
});
