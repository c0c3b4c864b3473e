/**
 * The shells of container images through `kubectl exec`: a Debian-based image's /bin/sh is dash
 * (`sh: 1: nosuch: not found`, dash's error.c "%s: %d: " prefix) and its bash is bash, while
 * busybox and Alpine images keep ash's words (`sh: nosuch: not found`); od ships in all three
 * (coreutils in Debian, the busybox applet in the others); ash keeps bash's `==`, `**` and
 * substrings, which dash refuses. Golden: testdata/container-shells.txt.
 */
import { test } from 'node:test';
import { loadFixture } from '../../../testing/fixtures.js';
import { assertGolden, goldenPath } from '../../../testing/golden.js';
import { goldenTranscript } from '../../../testing/transcripts.js';
import { Session } from '../../session.js';

test('sh -c in Debian, busybox and Alpine images, and od in each', async () => {
  const s = new Session(loadFixture('kubeadm-calico', 1));
  const lines = [
    'kubectl run deb --image=nginx',
    'kubectl run bb --image=busybox -- sleep 3600',
    'kubectl run alp --image=alpine -- sleep 3600',
    'sleep 20',
    'kubectl exec deb -- sh -c nosuch',
    "kubectl exec deb -- sh -c 'true; nosuch'",
    'kubectl exec deb -- /bin/sh -c "exit 3"',
    'kubectl exec deb -- bash -c "echo \\$0"',
    'kubectl exec bb -- sh -c nosuch',
    'kubectl exec alp -- sh -c nosuch',
    "kubectl exec deb -- sh -c 'printf ab | od -c'",
    'kubectl exec bb -- od -An -tx1 /etc/hostname',
    "kubectl exec alp -- sh -c 'echo hi | od -b'",
    // BusyBox ash has what dash lacks: `==` in test, `**`, substrings (recorded from busybox 1.35 `sh -c`)
    "kubectl exec bb -- sh -c '[ a == a ]; echo $?; echo $((2**3)); x=abc; echo ${x:1}; set -- a b c; echo \"${@:2}\"'",
    "kubectl exec deb -- sh -c '[ a == a ]; echo $?; echo $((2**3)); echo after'",
    // ash's own syntax errors (shell/ash.c raise_error_syntax), recorded from busybox 1.35 `sh -c`
    "kubectl exec bb -- sh -c 'if then'",
    "kubectl exec bb -- sh -c 'for ((i=0;i<2;i++)); do echo $i; done'",
    "kubectl exec alp -- sh -c $'echo a\\nif true; then'",
    "kubectl exec bb -- sh -c 'echo >'",
  ];
  const out = await goldenTranscript(s, lines);
  assertGolden(goldenPath(import.meta.url, 'container-shells.txt'), out);
});
