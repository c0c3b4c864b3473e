/**
 * `kubectl run NAME --image=IMAGE` (k8s.io/kubectl pkg/cmd/run/run.go and
 * pkg/generate/versioned/run.go BasicPod): one Pod labelled `run=<name>`, container named after
 * the pod; args after `--` are the container's args (its command with --command). `--expose`
 * creates a Service first; `-i/-t` attach runs the command in the container through the
 * session's execInPod, and `--rm` then deletes the pod. `--overrides` patches the generated pod.
 */
import { ATTACH_NOTICES } from '../attachable.js';
import { warningLines } from '../validate.js';
import { Streams } from '../streams.js';
import type { Container, KObject, Pod } from '../../../sim/api/types.js';
import type { ShellResult } from '../../commands/types.js';

type OutputChunk = NonNullable<ShellResult['chunks']>[number];
import type { KubectlEnv, Verb } from '../context.js';
import { klogWarning, parseDryRun } from '../dry-run.js';
import { errorResult, KubectlError, seeHelp } from '../errors.js';
import { ApiError } from '../../../sim/api/errors.js';
import { bool, list, str, type Parsed, checkRequired } from '../flags.js';
import { checkOutput, printObject } from '../printobj.js';
import { namespaceOf } from '../target.js';
import { deleteMessage } from './delete.js';
import { pollUntil } from '../poll.js';
import { goJsonSyntaxError } from '../go-json.js';
import { mergePatch, strategicMerge, type JsonValue } from '../merge.js';
import { jsonPatch, JsonPatchError, typeMetaParseError } from '../json-patch.js';
import { recordChangeCause } from '../record.js';


/** distribution/reference's grammar, enough to reject what learners mistype (spaces, upper case). */
const IMAGE = /^(?:[a-zA-Z0-9](?:[a-zA-Z0-9.-]*[a-zA-Z0-9])?(?::\d+)?\/)?[a-z0-9]+(?:(?:[._]|__|-+)[a-z0-9]+)*(?:\/[a-z0-9]+(?:(?:[._]|__|-+)[a-z0-9]+)*)*(?::[\w][\w.-]{0,127})?(?:@sha256:[a-f0-9]{64})?$/;

function parseKV(items: string[], what: string): Record<string, string> {
  const out: Record<string, string> = {};
  for (const item of items) {
    const eq = item.indexOf('=');
    if (eq <= 0) throw new KubectlError(`invalid ${what} format: ${item}`);
    out[item.slice(0, eq)] = item.slice(eq + 1);
  }
  return out;
}

function buildPod(name: string, p: Parsed, nsExplicit: string | undefined, restart: string): KObject {
  const labels = str(p.flags, 'labels') ? parseKV(str(p.flags, 'labels')!.split(','), 'label') : { run: name };
  const annotations = list(p.flags, 'annotations').length ? parseKV(list(p.flags, 'annotations'), 'annotation') : undefined;
  const port = str(p.flags, 'port');
  const args = p.dashArgs;
  const env = list(p.flags, 'env').map((e) => {
    const eq = e.indexOf('=');
    return { name: eq < 0 ? e : e.slice(0, eq), value: eq < 0 ? '' : e.slice(eq + 1) };
  });
  const attach = bool(p.flags, 'stdin') || bool(p.flags, 'tty');
  const pull = str(p.flags, 'image-pull-policy');
  const container = {
    name,
    image: str(p.flags, 'image')!,
    ...(args.length ? { [bool(p.flags, 'command') ? 'command' : 'args']: [...args] } : {}),
    ...(port ? { ports: [{ containerPort: Number(port) }] } : {}),
    ...(env.length ? { env } : {}),
    resources: {},
    ...(pull ? { imagePullPolicy: pull } : {}),
    ...(bool(p.flags, 'privileged') ? { securityContext: { privileged: true } } : {}),
    ...(bool(p.flags, 'stdin') ? { stdin: true, stdinOnce: true } : {}),
    ...(bool(p.flags, 'tty') ? { tty: true } : {}),
  } as Container;
  void attach;
  return {
    kind: 'Pod',
    apiVersion: 'v1',
    metadata: { name, ...(nsExplicit ? { namespace: nsExplicit } : {}), labels, ...(annotations ? { annotations } : {}) },
    spec: { containers: [container], restartPolicy: restart, dnsPolicy: 'ClusterFirst' },
    status: {},
  } as KObject;
}

/**
 * --overrides (cmdutil OverrideOptions/Overrider.Apply in k8s.io/kubectl pkg/cmd/util/override_options.go;
 * Merge, StrategicMerge and JSONPatch in helpers.go): the generated object, as JSON, patched by the
 * fragment: an RFC 7396 JSON merge patch by default (`--override-type=merge`: objects merge, lists
 * are replaced, null deletes), a strategic merge patch (containers merge by name) or an RFC 6902
 * JSON patch. The patch libraries' own errors are what kubectl prints for a fragment that is not JSON:
 * evanphx/json-patch MergePatch's "Invalid JSON Patch", strategicpatch's "invalid JSON document".
 */
export function applyOverrides(obj: KObject, overrides: string, type: string): KObject {
  if (!['json', 'merge', 'strategic'].includes(type)) throw new KubectlError(`invalid override type: ${type}`);
  let fragment: JsonValue;
  try {
    fragment = JSON.parse(overrides) as JsonValue;
  } catch (e) {
    if (type === 'merge') throw new KubectlError('Invalid JSON Patch');
    if (type === 'strategic') throw new KubectlError('invalid JSON document');
    throw new KubectlError(goJsonSyntaxError(overrides) ?? String(e));
  }
  const target = obj as unknown as JsonValue;
  let out: JsonValue;
  if (type === 'merge') {
    if (fragment === null) throw new KubectlError('Invalid JSON Patch');
    out = mergePatch(target, fragment);
  } else if (type === 'strategic') {
    if (fragment === null || typeof fragment !== 'object' || Array.isArray(fragment)) throw new KubectlError('invalid JSON document');
    out = strategicMerge(target, fragment);
  } else {
    try {
      out = jsonPatch(target, fragment);
    } catch (e) {
      if (e instanceof JsonPatchError) throw new KubectlError(e.message);
      throw e;
    }
  }
  if (out === null || typeof out !== 'object' || Array.isArray(out)) {
    throw new KubectlError(typeMetaParseError(out));
  }
  return out as unknown as KObject;
}

function buildService(name: string, p: Parsed, nsExplicit: string | undefined, selector: Record<string, string>): KObject {
  const port = Number(str(p.flags, 'port'));
  return {
    kind: 'Service',
    apiVersion: 'v1',
    metadata: { name, ...(nsExplicit ? { namespace: nsExplicit } : {}) },
    spec: { ports: [{ protocol: 'TCP', port, targetPort: port }], selector },
    status: { loadBalancer: {} },
  } as KObject;
}

const INTERACTIVE_SHELLS = ['sh', 'ash', 'bash', '/bin/sh', '/bin/ash', '/bin/bash'];

/**
 * Wait (in simulated time) until the pod runs or ends, as `run -i` waits for it (run.go
 * handleAttachPod: waitForPod, pod-running-timeout 1m), on the shell's one foreground wait: a
 * background job due meanwhile runs at its time, after `flush` wrote what run printed so far
 * (the server's warnings, `service/NAME created` of --expose).
 */
async function waitRunning(env: KubectlEnv, ns: string, name: string, flush: () => void): Promise<Pod | undefined> {
  const running = await pollUntil(env, env.cluster.now() + 60_000, () => {
    const pod = env.api.tryGet<Pod>('Pod', ns, name);
    const phase = pod?.status?.phase;
    return phase === 'Running' || phase === 'Succeeded' || phase === 'Failed' ? pod : undefined;
  }, flush);
  return running ?? env.api.tryGet<Pod>('Pod', ns, name);
}

async function attachAndRun(env: KubectlEnv, ns: string, name: string, p: Parsed, flush: () => void): Promise<ShellResult> {
  const pod = await waitRunning(env, ns, name, flush);
  if (!pod || pod.status?.phase === 'Pending') throw new KubectlError(`timed out waiting for the condition`);
  let argv = p.dashArgs.length ? [...p.dashArgs] : ['sh'];
  let stdin = env.stdin;
  if (argv.length === 1 && INTERACTIVE_SHELLS.includes(argv[0]!)) {
    argv = [argv[0]!, '-c', stdin];
    stdin = '';
  }
  let stdout = '';
  let stderr = '';
  const chunks: OutputChunk[] = [];
  let exitCode = 0;
  // attach.go prints the session-recording notice and the prompt hint before it attaches, so they
  // come before the container's output; --quiet suppresses them
  if (bool(p.flags, 'stdin') && !bool(p.flags, 'quiet')) {
    stderr += ATTACH_NOTICES;
    chunks.push({ stream: 'stderr', text: ATTACH_NOTICES });
  }
  if (env.execInPod) {
    const r = await env.execInPod(ns, name, name, argv, stdin);
    stdout += r.stdout;
    stderr += r.stderr;
    chunks.push({ stream: 'stdout', text: r.stdout }, { stream: 'stderr', text: r.stderr });
    exitCode = r.exitCode;
  }
  return { stdout, stderr, exitCode, chunks };
}

export const runVerb: Verb = {
  name: 'run',
  async run(inv, env) {
    const p = inv.parsed;
    checkRequired(p, ['image']);
    const image = str(p.flags, 'image')!;
    if (!IMAGE.test(image)) throw new KubectlError(`Invalid image name "${image}": invalid reference format`);
    if (p.args.length === 0) throw new KubectlError('NAME is required for run', seeHelp('run'));
    const name = p.args[0]!;
    const dry = parseDryRun(p.flags);
    const output = str(p.flags, 'output');
    checkOutput(output);
    const interactive = bool(p.flags, 'stdin') || bool(p.flags, 'tty') || bool(p.flags, 'attach');
    if (bool(p.flags, 'rm') && !interactive) throw new KubectlError('--rm should only be used for attached containers', seeHelp('run'));
    const restart = str(p.flags, 'restart')!;
    if (!['Always', 'OnFailure', 'Never'].includes(restart)) throw new KubectlError(`invalid restart policy: ${restart}`, seeHelp('run'));
    if (interactive && dry.mode !== 'none') throw new KubectlError("--dry-run=[server|client] can't be used with attached containers options (--attach, --stdin, or --tty)");
    const expose = bool(p.flags, 'expose');
    if (expose && !str(p.flags, 'port')) throw new KubectlError('--port must be set when exposing a service', seeHelp('run'));
    const port = str(p.flags, 'port');
    if (port !== undefined && !/^\d+$/.test(port)) throw new KubectlError(`strconv.Atoi: parsing ${JSON.stringify(port)}: invalid syntax`);
    const ns = namespaceOf(env, p);
    const nsField = ns.explicit ? ns.name : undefined;
    const overrides = str(p.flags, 'overrides') ?? '';
    const generated = buildPod(name, p, nsField, restart);
    const pod = recordChangeCause(inv, overrides ? applyOverrides(generated, overrides, str(p.flags, 'override-type') ?? 'merge') : generated);
    const print = (obj: KObject): string => printObject(obj, { output, operation: 'created', dryRun: dry.mode, generated: dry.mode === 'client' });
    // the server's warnings come as each response arrives, before what the printer writes
    const io = new Streams();
    io.err(dry.warning ? klogWarning(env.cluster.now(), dry.warning) : '');
    const send = (obj: KObject): KObject => {
      if (dry.mode === 'client') return obj;
      const warnings: string[] = [];
      try {
        return env.api.create({ ...structuredClone(obj), metadata: { ...obj.metadata, namespace: ns.name } }, { dryRun: dry.mode === 'server', warnings });
      } finally {
        io.err(warningLines(env, warnings));
      }
    };
    let svc: KObject | undefined;
    if (expose) {
      svc = send(buildService(name, p, nsField, (pod.metadata.labels ?? {}) as Record<string, string>));
      io.out(print(svc));
      if ((output ?? '').startsWith('yaml')) io.out('---\n---\n');
    }
    let created: KObject;
    try {
      created = send(pod);
    } catch (e) {
      if (!(e instanceof ApiError)) throw e;
      // the server's warnings (PodSecurity's warn level) come before its refusal
      io.err(errorResult(e, 'run').stderr);
      return io.result(1);
    }
    if (!interactive) {
      io.out(print(created));
      return io.result(0);
    }
    const flush = (): void => io.flush(env.emit);
    // a shell on a terminal with nothing piped in: the session continues inside the container
    // until the learner leaves it (the attached shell is the container's process)
    const argv = p.dashArgs.length ? p.dashArgs : ['sh'];
    if (bool(p.flags, 'stdin') && bool(p.flags, 'tty') && env.stdin === '' && argv.length === 1 && INTERACTIVE_SHELLS.includes(argv[0]!)) {
      const running = await waitRunning(env, ns.name, name, flush);
      const { stdout, stderr } = io;
      if (!running || running.status?.phase === 'Pending') throw new KubectlError('timed out waiting for the condition');
      const rm = bool(p.flags, 'rm');
      const quiet = bool(p.flags, 'quiet');
      return {
        stdout,
        stderr: stderr + (quiet ? '' : ATTACH_NOTICES),
        exitCode: 0,
        enter: { kind: 'pod', namespace: ns.name, pod: name, container: name },
        attached: {
          ...(rm ? { remove: { namespace: ns.name, pod: name, message: deleteMessage(created, 'deleted', undefined) } } : {}),
          ...(!rm && restart === 'Always' && !quiet ? { reattach: `Session ended, resume using 'kubectl attach ${name} -c ${name} -i -t' command when the pod is running` } : {}),
        },
      };
    }
    const r = await attachAndRun(env, ns.name, name, p, flush);
    const chunks: OutputChunk[] = [...(io.result(0).chunks ?? []), ...(r.chunks ?? [])];
    let stdout = io.stdout + r.stdout;
    let errText = io.stderr + r.stderr;
    if (bool(p.flags, 'rm')) {
      // run.go removeCreatedObjects: DeleteResult with WaitForDeletion false (RunOptions.Complete):
      // the pod is left Terminating, run does not wait for it to go; the --expose Service goes too
      // (createdObjects: the pod, then the Service)
      for (const o of svc && dry.mode === 'none' ? [created, svc] : [created]) {
        try {
          env.api.delete(o.kind, ns.name, o.metadata.name, {});
        } catch (e) {
          if (!(e instanceof ApiError && e.code === 404)) throw e;
          continue; // IgnoreNotFound
        }
        const msg = deleteMessage(o, 'deleted', undefined);
        stdout += msg;
        chunks.push({ stream: 'stdout', text: msg });
      }
    } else if (restart === 'Always' && !bool(p.flags, 'quiet')) {
      const msg = `Session ended, resume using 'kubectl attach ${name} -c ${name} -i -t' command when the pod is running\n`;
      errText += msg;
      chunks.push({ stream: 'stderr', text: msg });
    }
    // run.go: a failed container ends the command with its exit code and
    // `pod NS/NAME terminated (Reason)`, printed by checkErr with the `error: ` prefix
    let exitCode = 0;
    if (r.exitCode !== 0 && restart === 'Never') {
      const msg = `error: pod ${ns.name}/${name} terminated (Error)\n`;
      errText += msg;
      chunks.push({ stream: 'stderr', text: msg });
      exitCode = r.exitCode;
    }
    return { stdout, stderr: errText, exitCode, chunks: chunks.filter((c) => c.text !== '') };
  },
};
