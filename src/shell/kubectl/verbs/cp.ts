/**
 * `kubectl cp SRC DEST [-c CONTAINER]` (k8s.io/kubectl pkg/cmd/cp/cp.go): one side is
 * `[NAMESPACE/]POD:PATH`, the other a path on the machine kubectl runs on. kubectl streams a tar
 * through `kubectl exec`, so the container needs `tar` (the runtime's error otherwise), and
 * copying out of a pod prints tar's `Removing leading '/' from member names`. Files and whole
 * directories are copied; a destination that is an existing directory receives the source under
 * its own name. The container's files are its filesystem as `kubectl exec` sees it (root,
 * the pod's files and mounted volumes).
 */
import { resolvePath, type Vfs } from '../../../sim/node/vfs.js';
import { containerFs } from '../../../sim/runtime/volumes.js';
import { lookupImage } from '../../../sim/images.js';
import type { Pod } from '../../../sim/api/types.js';
import type { Verb } from '../context.js';
import { KubectlError } from '../errors.js';
import { runtimeDownFor, streamingRuntimeError } from '../attachable.js';
import { str } from '../flags.js';
import { namespaceOf } from '../target.js';
import { notFoundInContainer } from './exec.js';

interface Spec {
  pod?: string;
  namespace?: string;
  path: string;
}

/** cp.go extractFileSpec: `ns/pod:path` or `pod:path` is remote; anything else is local. */
function fileSpec(arg: string): Spec {
  const colon = arg.indexOf(':');
  if (colon <= 0 || arg.startsWith('/') || arg.startsWith('.')) return { path: arg };
  const head = arg.slice(0, colon);
  const path = arg.slice(colon + 1);
  const parts = head.split('/');
  if (parts.length === 1) return { pod: parts[0]!, path };
  if (parts.length === 2) return { namespace: parts[0]!, pod: parts[1]!, path };
  throw new KubectlError(`filespec must match the canonical format: [[namespace/]pod:]file/path`);
}

type Files = Pick<Vfs, 'exists' | 'isDir' | 'read' | 'write' | 'list' | 'mkdir'> & Partial<Pick<Vfs, 'stat'>>;

/** Copy a file or a tree from one filesystem to another. */
function copy(src: Files, from: string, dst: Files, to: string): void {
  if (src.isDir(from)) {
    dst.mkdir(to);
    for (const n of src.list(from)) copy(src, from === '/' ? `/${n}` : `${from}/${n}`, dst, to === '/' ? `/${n}` : `${to}/${n}`);
    return;
  }
  const parent = to.slice(0, to.lastIndexOf('/')) || '/';
  if (!dst.isDir(parent)) dst.mkdir(parent);
  dst.write(to, src.read(from), src.stat?.(from)?.mode);
}

export const cpVerb: Verb = {
  name: 'cp',
  run(inv, env) {
    const p = inv.parsed;
    if (p.args.length !== 2) throw new KubectlError('source and destination are required');
    const src = fileSpec(p.args[0]!);
    const dest = fileSpec(p.args[1]!);
    if (src.pod && dest.pod) throw new KubectlError('one of src or dest must be a local file specification');
    if (!src.pod && !dest.pod) throw new KubectlError('one of src or dest must be a remote file specification');
    const remote = (src.pod ? src : dest) as Required<Pick<Spec, 'pod'>> & Spec;
    if (remote.path === '') throw new KubectlError('remote path cannot be empty');
    const ns = remote.namespace ?? namespaceOf(env, p).name;
    const pod = env.api.get<Pod>('Pod', ns, remote.pod);
    const cname = str(p.flags, 'container');
    const ct = cname ? [...pod.spec.containers, ...(pod.spec.initContainers ?? [])].find((c) => c.name === cname) : pod.spec.containers[0];
    if (!ct) throw new KubectlError(`container ${cname} not found in pod ${pod.metadata.name}`);
    let stderr = '';
    if (!cname && pod.spec.containers.length > 1) stderr += `Defaulted container "${ct.name}" out of: ${pod.spec.containers.map((c) => c.name).join(', ')}\n`;
    const running = (pod.status?.containerStatuses ?? []).find((s) => s.name === ct.name)?.state.running;
    if (runtimeDownFor(env, pod)) throw streamingRuntimeError(env, pod);
    if (!running) throw new KubectlError(`unable to upgrade connection: container not found ("${ct.name}")`);
    // tar comes with the image's shell utilities (busybox, Debian, Alpine); distroless has neither
    const tools = lookupImage(ct.image)?.tools;
    if (tools && !tools.includes('sh')) return notFoundInContainer('tar', `${pod.metadata.namespace ?? 'default'}/${pod.metadata.name}/${ct.name}/tar/${env.cluster.now()}`, stderr);
    const cfs = containerFs(env.cluster, pod, ct.name);
    const remotePath = resolvePath('/', remote.path);
    if (src.pod) {
      // copy out: tar czf - PATH in the container, untarred here
      if (remote.path.startsWith('/')) stderr += "tar: Removing leading `/' from member names\n";
      if (!cfs.exists(remotePath)) {
        return { stdout: '', stderr: `${stderr}tar: ${remote.path.replace(/^\/+/, '')}: Cannot stat: No such file or directory\ntar: Exiting with failure status due to previous errors\n`, exitCode: 1 };
      }
      let to = resolvePath(env.cwd, dest.path);
      if (env.fs.isDir(to) && !cfs.isDir(remotePath)) to = `${to.replace(/\/$/, '')}/${remotePath.slice(remotePath.lastIndexOf('/') + 1)}`;
      const parent = to.slice(0, to.lastIndexOf('/')) || '/';
      if (!env.fs.isDir(parent)) throw new KubectlError(`open ${to}: no such file or directory`);
      copy(cfs, remotePath, env.fs, to);
      return { stdout: '', stderr, exitCode: 0 };
    }
    // copy in: the local file or tree, tarred and unpacked by tar xmf - -C DIR in the container
    const from = resolvePath(env.cwd, src.path);
    if (!env.fs.exists(from)) throw new KubectlError(`${src.path} doesn't exist in local filesystem`);
    let to = remotePath;
    if (cfs.isDir(to)) to = `${to.replace(/\/$/, '')}/${from.slice(from.lastIndexOf('/') + 1)}`;
    const parent = to.slice(0, to.lastIndexOf('/')) || '/';
    if (!cfs.isDir(parent)) return { stdout: '', stderr: `${stderr}tar: ${parent}: Cannot open: No such file or directory\ntar: Error is not recoverable: exiting now\ncommand terminated with exit code 2\n`, exitCode: 1 };
    copy(env.fs, from, cfs, to);
    return { stdout: '', stderr, exitCode: 0 };
  },
};
