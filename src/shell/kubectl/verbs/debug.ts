/**
 * `kubectl debug node/NODE [-it] --image=IMAGE` (k8s.io/kubectl pkg/cmd/debug/debug.go
 * generateNodeDebugPod, profiles.go legacy profile): a pod `node-debugger-NODE-xxxxx` pinned to the
 * node, tolerating every taint, in the node's network, PID and IPC namespaces, with the node's
 * root filesystem mounted at /host; with -i the command waits for it to run and attaches, so the
 * shell continues inside it (`chroot /host` or `cat /host/etc/...`). Debugging a pod with an
 * ephemeral container or `--copy-to` is not simulated yet and says so.
 */
import type { KObject, Pod } from '../../../sim/api/types.js';
import type { Verb } from '../context.js';
import { KubectlError } from '../errors.js';
import { bool, list, str } from '../flags.js';
import { namespaceOf } from '../target.js';
import { pollUntil } from '../poll.js';

/** utilrand.String's alphabet (no vowels, no confusable digits). */
const ALPHABET = 'bcdfghjklmnpqrstvwxz2456789';

export const debugVerb: Verb = {
  name: 'debug',
  run(inv, env) {
    const p = inv.parsed;
    // debug.go Validate: the image first, then the target
    const image = str(p.flags, 'image');
    if (!image && !str(p.flags, 'copy-to')) throw new KubectlError('you must specify --image when not using --copy-to.');
    const target = p.args[0];
    if (!target) throw new KubectlError('NAME or TYPE/NAME is required for debug');
    const m = /^(?:node|nodes|no)\/(.+)$/.exec(target);
    if (!m || !image) throw new KubectlError(`cka-lab does not simulate "kubectl debug" of pods yet (ephemeral containers, --copy-to); use kubectl debug node/NODE`);
    const node = env.api.get('Node', undefined, m[1]!);
    const nodeName = node.metadata.name;
    const cn = str(p.flags, 'container') || 'debugger';
    let suffix = '';
    for (let i = 0; i < 5; i++) suffix += ALPHABET[env.cluster.random.int(ALPHABET.length)];
    const name = `node-debugger-${nodeName}-${suffix}`;
    const interactive = bool(p.flags, 'stdin');
    const tty = bool(p.flags, 'tty');
    const envVars = list(p.flags, 'env').map((e) => ({ name: e.slice(0, e.indexOf('=')), value: e.slice(e.indexOf('=') + 1) }));
    const ns = namespaceOf(env, p).name;
    const pod: KObject = {
      apiVersion: 'v1',
      kind: 'Pod',
      metadata: { name, namespace: ns },
      spec: {
        containers: [
          {
            name: cn,
            image,
            ...(envVars.length ? { env: envVars } : {}),
            ...(p.dashArgs.length ? { command: p.dashArgs } : {}),
            ...(interactive ? { stdin: true } : {}),
            ...(tty ? { tty: true } : {}),
            terminationMessagePolicy: 'File',
            volumeMounts: [{ name: 'host-root', mountPath: '/host' }],
          },
        ],
        hostIPC: true,
        hostNetwork: true,
        hostPID: true,
        nodeName,
        restartPolicy: 'Never',
        tolerations: [{ operator: 'Exists' }],
        volumes: [{ name: 'host-root', hostPath: { path: '/' } }],
      },
    };
    const quiet = bool(p.flags, 'quiet');
    const stdout = quiet ? '' : `Creating debugging pod ${name} with container ${cn} on node ${nodeName}.\n`;
    env.api.create(pod);
    if (!interactive && !bool(p.flags, 'attach')) return { stdout, stderr: '', exitCode: 0 };
    // debug.go waitForContainer: until the container runs (or the pod ends)
    const running = pollUntil(env, env.cluster.now() + 5 * 60_000, () => {
      const cur = env.cluster.store.get<Pod>('Pod', ns, name);
      const st = cur?.status?.containerStatuses?.find((s) => s.name === cn)?.state;
      if (st?.running) return true;
      if (st?.terminated || cur?.status?.phase === 'Succeeded' || cur?.status?.phase === 'Failed') return false;
      return undefined;
    });
    if (!running) return { stdout, stderr: `error: timed out waiting for the condition\n`, exitCode: 1 };
    return { stdout, stderr: quiet ? '' : "If you don't see a command prompt, try pressing enter.\n", exitCode: 0, enter: { kind: 'pod', namespace: ns, pod: name, container: cn } };
  },
};
