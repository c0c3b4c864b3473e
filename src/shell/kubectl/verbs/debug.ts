/**
 * `kubectl debug` (k8s.io/kubectl pkg/cmd/debug/debug.go, profiles.go):
 * - `node/NODE`: generateNodeDebugPod with the legacy profile: a pod `node-debugger-NODE-xxxxx`
 *   pinned to the node, tolerating every taint, in the node's network, PID and IPC namespaces,
 *   with the node's root filesystem at /host;
 * - `POD --copy-to=NAME`: generatePodCopyWithDebugContainer: a copy of the pod without its labels,
 *   annotations and probes (unless --keep-*), unscheduled (unless --same-node), sharing one process
 *   namespace, images changed by --set-image, with a `debugger-xxxxx` container added when --image
 *   is given (or the -c container's command replaced); --replace deletes the original.
 * With -i the command waits for the container to run and attaches, so the shell continues inside it.
 * - `POD --image=IMAGE`: debugByEphemeralContainer: a container added to the running pod (--target
 *   names the container whose processes it shares).
 * The texts kubectl prints on the way (the legacy profile's deprecation, the generated container
 * name, the session-recording notice, the prompt hint) are the v1.35.2 binary's.
 */
import type { Container, KObject, Pod } from '../../../sim/api/types.js';
import type { KubectlEnv, Verb } from '../context.js';
import type { ShellResult } from '../../commands/types.js';

type OutputChunk = NonNullable<ShellResult['chunks']>[number];
import type { Parsed } from '../flags.js';
import { errorResult, KubectlError } from '../errors.js';
import { bool, list, str } from '../flags.js';
import { namespaceOf } from '../target.js';
import { pollUntil } from '../poll.js';
import { currentRun, runLogLines } from '../../../sim/runtime/processes.js';
import { ATTACH_NOTICES } from '../attachable.js';
import { resolveTypes } from '../resource-args.js';

/** utilrand.String's alphabet (no vowels, no confusable digits). */
const ALPHABET = 'bcdfghjklmnpqrstvwxz2456789';

const LEGACY_DEPRECATED = '--profile=legacy is deprecated and will be removed in the future. It is recommended to explicitly specify a profile, for example "--profile=general".\n';
function suffix(env: KubectlEnv): string {
  let out = '';
  for (let i = 0; i < 5; i++) out += ALPHABET[env.cluster.random.int(ALPHABET.length)];
  return out;
}

/** debug.go waitForContainer, then attach: the notices and where the shell continues. */
async function attach(env: KubectlEnv, p: Parsed, ns: string, pod: string, container: string, stdout: string, stderr: string): Promise<ShellResult> {
  const interactive = bool(p.flags, 'stdin');
  // in the order kubectl writes them: Complete's notices, the creation line, then attach's
  const chunks = (after: string): OutputChunk[] => [
    { stream: 'stderr', text: stderr },
    { stream: 'stdout', text: stdout },
    { stream: 'stderr', text: after },
  ];
  if (!interactive && !bool(p.flags, 'attach')) return { stdout, stderr, exitCode: 0, chunks: chunks('') };
  // what debug printed is on the terminal before it waits: a background job that wakes meanwhile
  // writes after it
  const flush = (): void => {
    if (!env.emit) return;
    for (const c of chunks('')) if (c.text) env.emit(c.stream, c.text);
    stdout = '';
    stderr = '';
  };
  const running = await pollUntil(
    env,
    env.cluster.now() + 5 * 60_000,
    () => {
      const cur = env.cluster.store.get<Pod>('Pod', ns, pod);
      const st = [...(cur?.status?.containerStatuses ?? []), ...(cur?.status?.ephemeralContainerStatuses ?? [])].find((s) => s.name === container)?.state;
      if (st?.running) return true;
      if (st?.terminated || cur?.status?.phase === 'Succeeded' || cur?.status?.phase === 'Failed') return false;
      return undefined;
    },
    flush,
  );
  if (running === undefined) return { stdout, stderr: `${stderr}error: timed out waiting for the condition\n`, exitCode: 1, chunks: chunks('error: timed out waiting for the condition\n') };
  if (!running) {
    // handleAttachPod: a container that already ended is shown through its logs instead
    const cur = env.cluster.store.get<Pod>('Pod', ns, pod);
    const run = cur ? currentRun(env.cluster, cur, container) : undefined;
    const logs = run ? runLogLines(run).map((l) => l.text).join('') : '';
    return { stdout: stdout + logs, stderr, exitCode: 0, chunks: [...chunks(''), { stream: 'stdout', text: logs }] };
  }
  const quiet = bool(p.flags, 'quiet');
  const notices = quiet || !interactive ? '' : ATTACH_NOTICES;
  // attach.go reattachMessage: only for a raw TTY in a pod that restarts its containers
  const cur = env.cluster.store.get<Pod>('Pod', ns, pod);
  const ephemeral = (cur?.spec.ephemeralContainers ?? []).some((c) => c.name === container);
  const ref = `kubectl attach ${pod} -c ${container} -i -t`;
  const reattach =
    quiet || !bool(p.flags, 'tty') || (cur?.spec.restartPolicy ?? 'Always') !== 'Always'
      ? undefined
      : ephemeral
        ? `Session ended, the ephemeral container will not be restarted but may be reattached using '${ref}' if it is still running`
        : `Session ended, resume using '${ref}' command when the pod is running`;
  return { stdout, stderr: stderr + notices, exitCode: 0, chunks: chunks(notices), enter: { kind: 'pod', namespace: ns, pod, container }, attached: reattach ? { reattach } : {} };
}

function debugNode(env: KubectlEnv, p: Parsed, nodeArg: string, image: string, stderr: string): ReturnType<Verb['run']> {
  const node = env.api.get('Node', undefined, nodeArg);
  const nodeName = node.metadata.name;
  const cn = str(p.flags, 'container') || 'debugger';
  const name = `node-debugger-${nodeName}-${suffix(env)}`;
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
          ...(bool(p.flags, 'stdin') ? { stdin: true } : {}),
          ...(bool(p.flags, 'tty') ? { tty: true } : {}),
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
  const stdout = bool(p.flags, 'quiet') ? '' : `Creating debugging pod ${name} with container ${cn} on node ${nodeName}.\n`;
  env.api.create(pod);
  return attach(env, p, ns, name, cn, stdout, stderr);
}

/** --set-image NAME=IMAGE pairs (`*` for every container), as `kubectl set image` reads them. */
function setImages(pairs: readonly string[]): Map<string, string> {
  const out = new Map<string, string>();
  for (const pair of pairs) {
    const eq = pair.indexOf('=');
    if (eq <= 0 || eq === pair.length - 1) throw new KubectlError(`invalid image name "${pair}": expected NAME=IMAGE`);
    out.set(pair.slice(0, eq), pair.slice(eq + 1));
  }
  return out;
}

function debugByCopy(env: KubectlEnv, p: Parsed, podName: string, copyTo: string, image: string | undefined, stderrIn: string): ReturnType<Verb['run']> {
  let stderr = stderrIn;
  const ns = namespaceOf(env, p).name;
  const pod = env.api.get<Pod>('Pod', ns, podName);
  const spec = JSON.parse(JSON.stringify(pod.spec)) as Pod['spec'];
  delete spec.nodeName;
  if (bool(p.flags, 'same-node') && pod.spec.nodeName) spec.nodeName = pod.spec.nodeName;
  for (const ct of spec.containers) {
    if (!bool(p.flags, 'keep-liveness')) delete ct['livenessProbe'];
    if (!bool(p.flags, 'keep-readiness')) delete ct['readinessProbe'];
    if (!bool(p.flags, 'keep-startup')) delete ct['startupProbe'];
  }
  if (!bool(p.flags, 'keep-init-containers')) delete spec.initContainers;
  spec['shareProcessNamespace'] = bool(p.flags, 'share-processes');
  const images = setImages(list(p.flags, 'set-image'));
  for (const ct of [...spec.containers, ...(spec.initContainers ?? [])]) {
    const img = images.get(ct.name) ?? images.get('*');
    if (img) ct.image = img;
  }
  // the debug container: a new one when --image is given, else the -c container changed in place
  let name = str(p.flags, 'container') ?? '';
  if (!name && image) {
    name = `debugger-${suffix(env)}`;
    if (!bool(p.flags, 'quiet')) stderr += `Defaulting debug container name to ${name}.\n`;
  }
  let ct = spec.containers.find((c) => c.name === name);
  if (!ct && name) {
    ct = { name, image: image!, imagePullPolicy: str(p.flags, 'image-pull-policy') || undefined, terminationMessagePolicy: 'File' } as Container;
    if (!ct.imagePullPolicy) delete ct.imagePullPolicy;
    spec.containers.push(ct);
  }
  if (ct) {
    if (image) ct.image = image;
    if (p.dashArgs.length) {
      if (bool(p.flags, 'arguments-only')) ct.args = [...p.dashArgs];
      else {
        ct.command = [...p.dashArgs];
        delete ct.args;
      }
    }
    if (bool(p.flags, 'stdin')) ct['stdin'] = true;
    if (bool(p.flags, 'tty')) ct['tty'] = true;
  }
  const meta: KObject['metadata'] = { name: copyTo, namespace: ns };
  if (bool(p.flags, 'keep-labels') && pod.metadata.labels) meta.labels = { ...pod.metadata.labels };
  if (bool(p.flags, 'keep-annotations') && pod.metadata.annotations) meta.annotations = { ...pod.metadata.annotations };
  env.api.create({ apiVersion: 'v1', kind: 'Pod', metadata: meta, spec } as KObject);
  if (bool(p.flags, 'replace')) env.api.delete('Pod', ns, pod.metadata.name);
  return attach(env, p, ns, copyTo, ct?.name ?? spec.containers[0]!.name, '', stderr);
}

/**
 * debugByEphemeralContainer: a `debugger-xxxxx` (or -c) container added to the running pod through
 * the ephemeralcontainers subresource, in the --target container's process namespace when given.
 */
function debugByEphemeralContainer(env: KubectlEnv, p: Parsed, podName: string, image: string, stderrIn: string): ShellResult | Promise<ShellResult> {
  let stderr = stderrIn;
  const ns = namespaceOf(env, p).name;
  const pod = env.api.get<Pod>('Pod', ns, podName);
  let name = str(p.flags, 'container') ?? '';
  if (!name) {
    name = `debugger-${suffix(env)}`;
    if (!bool(p.flags, 'quiet')) stderr += `Defaulting debug container name to ${name}.\n`;
  }
  const envVars = list(p.flags, 'env').map((e) => ({ name: e.slice(0, e.indexOf('=')), value: e.slice(e.indexOf('=') + 1) }));
  const pull = str(p.flags, 'image-pull-policy');
  const target = str(p.flags, 'target');
  const ec: Container = {
    name,
    image,
    ...(pull ? { imagePullPolicy: pull } : {}),
    ...(p.dashArgs.length ? (bool(p.flags, 'arguments-only') ? { args: [...p.dashArgs] } : { command: [...p.dashArgs] }) : {}),
    ...(envVars.length ? { env: envVars } : {}),
    ...(bool(p.flags, 'stdin') ? { stdin: true } : {}),
    ...(bool(p.flags, 'tty') ? { tty: true } : {}),
    ...(target ? { targetContainerName: target } : {}),
    terminationMessagePolicy: 'File',
  } as Container;
  try {
    env.api.updateEphemeralContainers(ns, pod.metadata.name, [...(pod.spec.ephemeralContainers ?? []), ec]);
  } catch (e) {
    // what kubectl printed before the request stays above the server's answer
    const r = errorResult(e, 'debug');
    return { ...r, stderr: stderr + r.stderr };
  }
  return attach(env, p, ns, pod.metadata.name, name, '', stderr);
}

export const debugVerb: Verb = {
  name: 'debug',
  run(inv, env) {
    const p = inv.parsed;
    // debug.go Validate: the image first, then the target
    const image = str(p.flags, 'image');
    const copyTo = str(p.flags, 'copy-to');
    if (!image && !copyTo) throw new KubectlError('you must specify --image when not using --copy-to.');
    const target = p.args[0];
    if (!target) throw new KubectlError('NAME or TYPE/NAME is required for debug');
    // debug.go Complete: the target container's caveat, then the legacy profile's (the default) deprecation
    const profile = str(p.flags, 'profile') || 'legacy';
    const targetCt = str(p.flags, 'target');
    let stderr = targetCt ? `Targeting container ${JSON.stringify(targetCt)}. If you don't see processes from this container it may be because the container runtime doesn't support this feature.\n` : '';
    if (profile === 'legacy' && !bool(p.flags, 'quiet')) stderr += LEGACY_DEPRECATED;
    // TYPE/NAME: the builder resolves the type; only pods and nodes can be debugged (debug.go visitNode/visitPod)
    const slash = target.indexOf('/');
    const info = slash < 0 ? undefined : resolveTypes(target.slice(0, slash), env.cluster.discovery(), env.shortNames)[0]!;
    const name = slash < 0 ? target : target.slice(slash + 1);
    if (info?.kind === 'Node') {
      if (!image) throw new KubectlError('you must specify --image when not using --copy-to.');
      return debugNode(env, p, name, image, stderr);
    }
    if (info && info.kind !== 'Pod') throw new KubectlError(`"${info.group ? `${info.group}/` : ''}${info.version}, Kind=${info.kind}" not supported by debug`);
    const podName = name;
    if (copyTo) return debugByCopy(env, p, podName, copyTo, image, stderr);
    return debugByEphemeralContainer(env, p, podName, image!, stderr);
  },
};
