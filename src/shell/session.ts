/**
 * A learner's shell session: the simulated cluster plus where the learner is (the workstation,
 * a node after `ssh`, a container after `kubectl exec -it … -- sh`), each place with its own
 * interpreter state, plus history and aliases. Lines run in the innermost place; `exit` leaves
 * it. The session serializes to JSON (cluster snapshot included) so it survives quit and crash.
 *
 * Commands come from registries merged here: text tools everywhere, kubectl on the workstation
 * and the control plane, node tools after ssh, and inside a container only what its image has.
 */
import { Cluster, type Snapshot, type Controller } from '../sim/cluster.js';
import type { Clock } from '../util/clock.js';
import { ApiServer } from '../sim/apiserver.js';
import type { Vfs } from '../sim/node/vfs.js';
import { Interpreter, type OutputChunk, type RunOutput, type ShellStateData } from './interpreter.js';
import { JobTable, LIST_REST, type JobData } from './jobs.js';
import { JobClock } from './job-clock.js';
import { pumpJobs, type Phase } from './background-output.js';
import { releaseSockets } from '../sim/node/user-sockets.js';
import { bootTime as bootTimeOf } from '../sim/node/runtime.js';
import { processTable } from './commands/node/processes.js';
import type { Attached, CommandContext, CommandFn, CommandResult, ExecLocation } from './types.js';
import { textCommands } from './commands/index.js';
import { runKubectl } from './kubectl/index.js';
import { notFoundInContainer } from './kubectl/verbs/exec.js';
import type { KubectlEnv } from './kubectl/context.js';
import { podFs } from '../sim/runtime/podfs.js';
import { moduleFiles, procModules, procSwaps } from '../sim/node/runtime.js';
import { procLoadavg } from './commands/node/uptime.js';
import { containerFs } from '../sim/runtime/volumes.js';
import { currentRun, endRun, flushAll, flushPod } from '../sim/runtime/processes.js';
import { nodeLogFiles } from './commands/node/pod-log-files.js';
import { binaryFiles, combineVirtual, deviceFiles } from './commands/devices.js';
import { lookupImage } from '../sim/images.js';
import { podContainers, type Pod } from '../sim/api/types.js';
import { CONTAINER_ONLY, HOST_TOOLS, SHELL_BUILTINS, nodeCommands, podCommands } from './commands/registry.js';
import { parseSshArgs } from './commands/ssh-args.js';
import type { ParseOptions } from './parse/ast.js';
import { chrootOutcome, shellWord, type ChrootFlavour } from './chroot.js';
import { LIVE, PIPE, shellExtras, type Held, type ShellResult } from './commands/types.js';
import { BudgetExceeded, LineBudget } from './budget.js';
import { provideNetTools } from '../sim/runtime/net-tools.js';
import { SCRIPT_NET_TOOLS } from './commands/pod/script-tools.js';
import { copyJSON } from '../util/json-copy.js';

export const SESSION_VERSION = 1;

export type Editor = (text: string, fileName: string) => Promise<string | undefined>;

interface FrameData {
  location: ExecLocation;
  user: string;
  cwd: string;
  env: Record<string, string>;
  /**
   * A shell started on the same host by `sudo -i`/`su -` (a login shell: `exit` says `logout`)
   * or `sudo -s`/`su` (`exit` says `exit`), or the POSIX sh `chroot` starts (`sh`: prompt `# `,
   * `exit` says nothing); absent for ssh logins and containers.
   */
  nested?: 'login' | 'shell' | 'sh';
  /** A container's own process the learner is attached to (kubectl debug -it, run -it -- sh): exit ends it. */
  attached?: Attached;
  /** An exec'd shell's command line (`kubectl exec -it POD -- sh`): a process of the container while it runs. */
  exec?: string[];
  /** This shell's background jobs (shell/jobs.ts), when it has any. */
  jobs?: { jobs: JobData[]; nextPid: number };
  /** The lines an interactive dash has read (its `sh: N:` errors count on from them), when any. */
  lines?: number;
  /** `$?` of the shell's last line, when not 0. */
  status?: number;
  /**
   * The shell's variables that are not exported, arrays, functions, traps, options and positional
   * parameters (Interpreter.shellState), when it has any: reading the session back (the REPL's
   * reload after a one-shot command wrote the file, a resumed session) must not forget them.
   */
  shell?: ShellStateData;
}

export interface SessionData {
  version: number;
  cluster: Snapshot;
  frames: FrameData[];
  history: string[];
  aliases: Record<string, string>;
}

export interface SessionOptions {
  editor?: Editor;
}

interface Frame extends FrameData {
  interp: Interpreter;
  table: JobTable;
}

export interface ExecResult extends RunOutput {
  /** The prompt to show after this line. */
  prompt: string;
  /**
   * The terminal holds a job (the line asked `hold`): no prompt until Session.foreground reports
   * that it ended, was interrupted (Ctrl-C) or stopped (Ctrl-Z).
   */
  holding?: true;
  /**
   * The job the terminal holds draws the whole screen (LiveOutput.screen: ncurses keeps the
   * terminal in noecho mode), so the terminal echoes neither `^C` nor `^Z` for it.
   */
  noEcho?: true;
}

/**
 * What reaches a job the terminal holds: the wall clock moved on, Ctrl-C, Ctrl-Z, or the
 * terminal went away (`hangup`: the exam's time ran out and its terminal closes).
 */
export type ForegroundEvent = 'tick' | 'interrupt' | 'stop' | 'hangup';

/** bash's status of a command stopped by SIGTSTP (128 + 20). */
export const STOPPED_STATUS = 148;

const WORKSTATION_ENV = (host: string): Record<string, string> => ({
  HOME: '/root',
  USER: 'root',
  HOSTNAME: host,
  PATH: '/usr/local/sbin:/usr/local/bin:/usr/sbin:/usr/bin:/sbin:/bin',
  SHELL: '/bin/bash',
  KUBECONFIG: '/root/.kube/config',
  TERM: 'xterm-256color',
});

/** When the host booted, for the dates of its device files: its oldest installed file. */
function bootTime(fs: Vfs): number {
  let t = Infinity;
  for (const f of Object.values(fs.data.files)) if (f.mtime < t) t = f.mtime;
  return Number.isFinite(t) ? t : 0;
}

/** ExecResult.noEcho for a held job that draws the whole screen. */
function noEcho(job: JobData): { noEcho?: true } {
  return job.holds?.[LIVE]?.screen ? { noEcho: true } : {};
}

export class Session {
  /** The API server of `cluster` (another one after adopt). */
  api: ApiServer;
  private frames: Frame[] = [];
  readonly history: string[] = [];
  aliases: Record<string, string> = { k: 'kubectl' };
  private pendingPush: FrameData | undefined;
  /** The running line's budget: commands it runs elsewhere (`ssh HOST CMD`, `kubectl exec`) share it. */
  private lineBudget = new LineBudget();
  /** Background jobs paused in a sleep, in the order the clock wakes them (job-clock.ts). */
  readonly jobClock = new JobClock();
  /** Where a job woken now writes its terminal output: the running line's, or before it (woken as it starts). */
  private terminal: (c: OutputChunk) => void = () => undefined;

  constructor(
    /** The simulated cluster; another one after adopt (a reload of the session's file). */
    public cluster: Cluster,
    private readonly opts: SessionOptions = {},
    /**
     * The first frame, saved, and the aliases its shell reads (fromJSON, reopenAtTop), instead of
     * a fresh login on the workstation: at once when it is on the workstation, whose files (fsOf)
     * the login would have set up only for the saved frame to set them up again (a copy's restore
     * made a frame only to replace it).
     */
    saved?: { first: FrameData; aliases: Record<string, string> },
  ) {
    this.api = new ApiServer(cluster);
    // containers' scripts run the same wget/nc/nslookup as `kubectl exec` (sim/runtime/net-tools.ts)
    provideNetTools(cluster, SCRIPT_NET_TOOLS);
    const ws = cluster.meta.workstation;
    const first = saved?.first;
    if (first?.location.kind !== 'workstation' || first.location.host !== ws) this.frames.push(this.makeFrame({ location: { kind: 'workstation', host: ws }, user: 'root', cwd: '/root', env: WORKSTATION_ENV(ws) }));
    if (saved) {
      this.aliases = { ...saved.aliases };
      this.frames = [this.makeFrame(saved.first)];
    }
  }

  get location(): ExecLocation {
    return this.top().location;
  }

  /** The working directory where the learner is now (Tab completes relative paths from it). */
  get cwd(): string {
    return this.top().interp.cwd;
  }

  /** $HOME where the learner is now (`~/` in a path). */
  get home(): string {
    return this.top().env['HOME'] ?? '/root';
  }

  private top(): Frame {
    return this.frames[this.frames.length - 1]!;
  }

  /** The prompt, exam style: `root@cka-cp1:~# `, `/ # ` inside busybox. */
  prompt(): string {
    const f = this.top();
    // dash's interactive prompt (Ubuntu's /bin/sh, what `chroot /host` starts on a node)
    if (f.nested === 'sh' && f.location.kind === 'node') return '# ';
    // dash's PS1 (var.c: `# ` for root, else `$ `), in a Debian-based container's sh
    if (this.dashOf(f) !== undefined) return f.user === 'root' ? '# ' : '$ ';
    if (f.location.kind === 'pod') return f.cwd === '/' ? '/ # ' : `${f.cwd} # `;
    const host = f.location.host;
    const dir = f.cwd === (f.env['HOME'] ?? '/root') ? '~' : f.cwd;
    return `${f.user}@${host}:${dir}${f.user === 'root' ? '#' : '$'} `;
  }

  /**
   * What `hostname` says where the shell runs: a node's name; in a container the pod's
   * spec.hostname or its name, but the node's own for a hostNetwork pod, which shares the node's
   * UTS namespace (kuberuntime_sandbox.go: the sandbox's namespace options follow hostNetwork).
   */
  /** The interactive shell of a container: busybox's ash in busybox and Alpine images, else bash. */
  private shellOf(location: ExecLocation): 'bash' | 'ash' {
    if (location.kind !== 'pod') return 'bash';
    const pod = this.cluster.store.get<Pod>('Pod', location.namespace, location.pod);
    const ct = pod ? podContainers(pod).find((c) => c.name === location.container) : undefined;
    const dns = ct ? lookupImage(ct.image)?.dns : undefined;
    return dns === 'busybox' || dns === 'musl' ? 'ash' : 'bash';
  }

  /** The programs on a host's PATH (what `lookup` finds there), for /usr/bin (commands/devices.ts binaryFiles). */
  private programNames(location: ExecLocation): string[] {
    const universe = new Set([...Object.keys(nodeCommands), ...Object.keys(podCommands), ...Object.keys(textCommands), 'kubectl', 'ssh', 'sudo', 'su', 'vim', 'vi', 'nano', 'bash', 'sh']);
    return [...universe].filter((n) => n === 'bash' || n === 'sh' || this.lookup(location, n) !== undefined).sort();
  }

  /**
   * How the REPL's LineReader reads the next line here: the session's aliases, and dash's rules in
   * an interactive dash (no `$'…'`, so `$'a\'` is an open quote in bash and a closed one in dash).
   */
  parseOptions(): ParseOptions {
    return { aliases: this.aliases, ...(this.dashOf(this.top()) !== undefined ? { dash: true } : {}) };
  }

  /**
   * The name an interactive dash runs as in this frame: `kubectl exec -it POD -- sh` (or /bin/sh,
   * dash) in an image whose /bin/sh is dash, i.e. not busybox or Alpine; undefined for bash and ash.
   */
  private dashOf(f: FrameData): string | undefined {
    const argv0 = f.exec?.[0];
    if (f.location.kind !== 'pod' || argv0 === undefined || this.shellOf(f.location) !== 'bash') return undefined;
    const base = argv0.slice(argv0.lastIndexOf('/') + 1);
    return base === 'sh' || base === 'dash' ? argv0 : undefined;
  }

  /** The programs the image of a pod's container ships (sim/images.ts tools). */
  private imageTools(location: Extract<ExecLocation, { kind: 'pod' }>): readonly string[] {
    const pod = this.cluster.store.get<Pod>('Pod', location.namespace, location.pod);
    const ct = pod ? podContainers(pod).find((c) => c.name === location.container) : undefined;
    return (ct ? lookupImage(ct.image)?.tools : undefined) ?? [];
  }

  private hostnameOf(location: ExecLocation): string {
    if (location.kind !== 'pod') return location.host;
    const pod = this.cluster.store.get<Pod>('Pod', location.namespace, location.pod);
    if (pod?.spec.hostNetwork && pod.spec.nodeName) return pod.spec.nodeName;
    return pod?.spec.hostname ?? location.pod;
  }

  fsOf(location: ExecLocation): Vfs {
    if (location.kind === 'pod') {
      const pod = this.cluster.store.get<Pod>('Pod', location.namespace, location.pod);
      // the container's view: its root filesystem with the pod's volumes mounted
      if (pod) return containerFs(this.cluster, pod, location.container);
      return podFs(this.cluster, `${location.namespace}/${location.pod}`);
    }
    const h = this.cluster.host(location.host);
    if (!h) throw new Error(`no host ${location.host}`);
    // /dev and /proc/self on every host; on nodes also the kubelet's log files, generated on read
    h.fs.setVirtual(combineVirtual(deviceFiles(() => bootTime(h.fs), h.data.role !== 'workstation' ? () => ({ '/proc/swaps': () => procSwaps(h), '/proc/modules': () => procModules(h), '/proc/loadavg': () => procLoadavg(this.cluster, h, this.cluster.now()), ...Object.fromEntries(Object.entries(moduleFiles(h)).map(([p, c]) => [p, () => c])) }) : undefined, () => h.fs.process, () => this.cluster.now()), combineVirtual(binaryFiles(() => this.programNames(location), () => bootTime(h.fs)), h.data.role !== 'workstation' ? nodeLogFiles(this.cluster, h) : undefined)));
    return h.fs;
  }

  private makeFrame(data: FrameData): Frame {
    const fs = this.fsOf(data.location);
    const table = new JobTable(data.jobs?.jobs.map((j) => ({ ...j })) ?? [], data.jobs?.nextPid);
    table.onEnd = (j, held) => this.release(j, held);
    const interp = new Interpreter({
      lookup: (name) => this.lookup(data.location, name),
      fs,
      env: data.env,
      cwd: data.cwd,
      user: data.user,
      location: data.location,
      now: () => this.cluster.now(),
      aliases: this.aliases,
      history: () => this.history,
      hostname: this.hostnameOf(data.location),
      shell: this.shellOf(data.location),
      ...(data.location.kind === 'pod' && this.shellOf(data.location) === 'bash' && this.imageTools(data.location).includes('bash') ? { containerBash: true } : {}),
      advanceClock: (ms) => this.sleepFor(ms),
      random: () => this.cluster.random.int(32768),
      jobs: table,
      jobClock: this.jobClock,
      runJobs: () => this.runDueJobs(),
      jobOutput: (phase) => this.jobOutput(phase),
      processExists: (pid) => this.processExists(data.location, pid),
      ...(data.exec ? { execShell: data.exec } : {}),
      ...(this.dashOf(data) !== undefined ? { dash: this.dashOf(data)! } : {}),
      // a hand-edited or damaged file's values are dropped, never trusted
      ...(Number.isSafeInteger(data.lines) && data.lines! > 0 ? { dashLines: data.lines! } : {}),
      ...(Number.isInteger(data.status) && data.status! >= 0 && data.status! <= 255 ? { status: data.status! } : {}),
      ...(data.shell !== undefined ? { shellState: data.shell } : {}),
    });
    return { ...data, interp, table };
  }

  /** A job's process ended: the sockets it listened on close (node/user-sockets.ts). */
  private release(j: JobData, held: Held): void {
    held[LIVE]?.stop();
    const host = this.cluster.host(held.host);
    if (host) releaseSockets(host, j.pid);
  }

  private processExists(location: ExecLocation, pid: number): boolean {
    if (location.kind === 'pod') return false;
    const host = this.cluster.host(location.host);
    return !!host && processTable(this.cluster, host, 'kill', bootTimeOf(host, this.cluster.now())).some((p) => p.pid === pid);
  }

  /**
   * What running background jobs print as time passes and connections come (shell/jobs.ts): a job
   * that slept to its end finishes, a port-forward reports each connection and ends when its pod
   * does (background-output.ts).
   */
  private jobOutput(phase: Phase): OutputChunk[] {
    const out: OutputChunk[] = [];
    for (const f of this.frames) out.push(...pumpJobs(this.cluster, f.table, phase));
    return out;
  }

  /**
   * What running pipelines' first members wrote since, through their later members (`kubectl get
   * po -w | grep web`: grep shows each new line as it comes); `end`: a pipeline whose first
   * member ended on its own, whose later members show what they read only at its end (`| wc -l`).
   */
  private async pipeOutput(end?: { job: JobData; holds: Held | undefined }): Promise<OutputChunk[]> {
    const out: OutputChunk[] = [];
    const run = async (j: JobData, held: Held | undefined): Promise<void> => {
      const text = held?.piped ?? '';
      if (held) held.piped = '';
      const through = j[PIPE];
      if (through) out.push(...(await through(text, this.lineBudget)));
    };
    for (const f of this.frames) {
      for (const j of f.table.running()) {
        const h = j.holds;
        if (h?.stdout?.kind === 'pipe' && h.stdout.flows && h.piped && !j.stopped) await run(j, h);
      }
    }
    if (end) await run(end.job, end.holds);
    return out;
  }

  /**
   * A command in the line slept: the cluster lives through that time before the next command of
   * the same line runs (controllers, back-offs, probes fire in order), and container programs'
   * output catches up, exactly as between two lines. Deterministic: only the simulated clock moves.
   */
  private async sleepFor(ms: number): Promise<void> {
    await this.runClockTo(this.cluster.now() + Math.max(0, ms));
  }

  /**
   * Move the clock to `target`, stopping at each paused background job's time to run it on
   * (job-clock.ts): what it does happens at its time, between the cluster's own events.
   */
  private async runClockTo(target: number): Promise<void> {
    const step = (to: number): void => {
      if (to <= this.cluster.now()) return;
      this.cluster.advanceTo(to);
      flushAll(this.cluster, this.cluster.store.list<Pod>('Pod'));
    };
    for (let guard = 0; guard < 10_000; guard++) {
      const next = this.jobClock.next();
      if (next === undefined || next > target) break;
      step(next);
      await this.runDueJobs();
    }
    step(target);
  }

  /** Run on the paused jobs whose time has come, writing to the terminal of the line that runs now. */
  private async runDueJobs(): Promise<void> {
    await this.jobClock.runDue(this.cluster.now(), { terminal: (c) => this.terminal(c), budget: this.lineBudget });
  }

  /** Which commands exist where. */
  lookup(location: ExecLocation, name: string): CommandFn | undefined {
    const wrap = (fn: CommandFn): CommandFn => (ctx) => fn({ ...ctx, cluster: this.cluster });
    if (location.kind === 'pod') {
      const pod = this.cluster.store.get<Pod>('Pod', location.namespace, location.pod);
      const ct = pod ? podContainers(pod).find((c) => c.name === location.container) ?? pod.spec.containers[0] : undefined;
      const image = ct ? lookupImage(ct.image) : undefined;
      if (!image || !(image.tools.includes(name) || (SHELL_BUILTINS.has(name) && image.tools.includes('sh')))) return undefined;
      if (name === 'chroot') return (ctx) => this.chroot(ctx, location, image.dns === 'glibc' ? 'coreutils' : 'busybox');
      const fn = podCommands[name] ?? textCommands[name];
      return fn ? wrap(fn) : undefined;
    }
    if (name === 'kubectl') return (ctx) => this.kubectl(ctx);
    if (name === 'ssh') return (ctx) => this.ssh(ctx);
    if (name === 'sudo') return (ctx) => this.sudo(ctx);
    if (name === 'su') return (ctx) => this.su(ctx);
    if (name === 'vim' || name === 'vi' || name === 'nano') return (ctx) => this.edit(ctx);
    if (location.kind === 'node' || HOST_TOOLS.has(name)) {
      const fn = nodeCommands[name];
      if (fn) return wrap(fn);
    }
    const fn = (CONTAINER_ONLY.has(name) ? undefined : podCommands[name]) ?? textCommands[name];
    return fn ? wrap(fn) : undefined;
  }

  kubectlEnv(ctx: CommandContext): KubectlEnv {
    return {
      cluster: this.cluster,
      api: this.api,
      fs: ctx.fs,
      cwd: ctx.cwd,
      stdin: ctx.stdin,
      env: ctx.env,
      ...(this.opts.editor ? { editor: this.opts.editor } : {}),
      execInPod: (ns, pod, container, argv, stdin) => this.execInPod(ns, pod, container, argv, stdin),
      budget: shellExtras(ctx).budget ?? new LineBudget(),
      ...(ctx.location.kind !== 'pod' ? { host: ctx.location.host } : {}),
      ...(shellExtras(ctx).background ? { background: { pid: shellExtras(ctx).background!.pid, argv: ctx.argv } } : {}),
      ...(shellExtras(ctx).jobs ? { jobs: shellExtras(ctx).jobs! } : {}),
      ...(shellExtras(ctx).emit ? { emit: shellExtras(ctx).emit! } : {}),
    };
  }

  private async kubectl(ctx: CommandContext): Promise<CommandResult> {
    const r = await runKubectl(ctx.argv.slice(1), this.kubectlEnv(ctx));
    if (r.enter) this.pendingPush = { location: r.enter, user: 'root', cwd: '/', env: this.containerEnv(r.enter), ...(r.attached ? { attached: r.attached } : {}), ...(r.enterArgv && !r.attached ? { exec: r.enterArgv } : {}) };
    return r;
  }

  /**
   * The environment an exec'd process gets: the container's own (the kubelet's variables as the
   * container started, runtime/processes.ts), as `kubectl exec POD -- env` prints it.
   */
  private containerEnv(location: Extract<ExecLocation, { kind: 'pod' }>): Record<string, string> {
    const pod = this.cluster.store.get<Pod>('Pod', location.namespace, location.pod);
    const run = pod ? currentRun(this.cluster, pod, location.container) : undefined;
    if (run) return Object.fromEntries(run.env);
    return { PATH: '/usr/local/sbin:/usr/local/bin:/usr/sbin:/usr/bin:/sbin:/bin', HOSTNAME: location.pod, HOME: '/root' };
  }

  /** Run a command inside a container (kubectl exec POD -- CMD). */
  async execInPod(namespace: string, pod: string, container: string, argv: string[], stdin: string): Promise<CommandResult> {
    const location: Extract<ExecLocation, { kind: 'pod' }> = { kind: 'pod', namespace, pod, container };
    const podObj = this.cluster.store.get<Pod>('Pod', namespace, pod);
    if (podObj) flushPod(this.cluster, podObj);
    const frame = this.makeFrame({ location, user: 'root', cwd: '/', env: this.containerEnv(location) });
    const name = argv[0] ?? '';
    const base = name.split('/').pop() ?? name;
    if (['sh', 'bash', 'ash'].includes(base) && argv[1] === '-c') {
      const cur = this.cluster.store.get<Pod>('Pod', namespace, pod);
      if (!this.lookup(location, base) && !lookupImage((cur ? podContainers(cur) : []).find((c) => c.name === container)?.image ?? '')?.tools.includes(base))
        return notFoundInContainer(name, `${namespace}/${pod}/${container}/${argv.join(' ')}/${this.cluster.now()}`);
      // a Debian-based image's /bin/sh is dash and bash is bash: the shell runs as its own process
      // with its non-interactive wording (`sh: 1: nosuch: not found`, `bash: line 1: …`); busybox's
      // ash keeps the interactive form it prints for -c (`sh: nosuch: not found`)
      const source = this.shellOf(location) === 'bash' ? [base, ...argv.slice(1)].map((a) => `'${a.replace(/'/g, `'\\''`)}'`).join(' ') : argv.slice(2).join(' ');
      const out = await frame.interp.run(source, '', this.lineBudget, true);
      this.cluster.advance(out.advanceMs);
      return { stdout: out.stdout, stderr: out.stderr, exitCode: out.exitCode };
    }
    const fn = this.lookup(location, base);
    if (!fn) return notFoundInContainer(name, `${namespace}/${pod}/${container}/${argv.join(' ')}/${this.cluster.now()}`);
    const ctx: CommandContext & { budget: LineBudget } = { argv: [base, ...argv.slice(1)], stdin, env: frame.env, cwd: '/', user: 'root', fs: this.fsOf(location), location, now: () => this.cluster.now(), cluster: this.cluster, budget: this.lineBudget };
    const res = await fn(ctx);
    const adv = (res as { advanceMs?: number }).advanceMs;
    if (adv !== undefined && adv > 0) {
      this.lineBudget.time(adv);
      this.cluster.advance(adv);
    }
    return res;
  }

  /**
   * `ssh [user@]HOST` logs in (a new frame, left with `exit`); `ssh HOST CMD…` runs the command
   * line in a non-interactive shell on HOST, as sshd runs `bash -c CMD` without a terminal, and
   * returns its output and exit status, leaving the learner where they were (ssh-args.ts).
   */
  private async ssh(ctx: CommandContext): Promise<ShellResult> {
    const parsed = parseSshArgs(ctx.argv.slice(1));
    if (typeof parsed === 'string') return { stdout: '', stderr: parsed, exitCode: 255 };
    const at = parsed.destination.lastIndexOf('@');
    const hostPart = at >= 0 ? parsed.destination.slice(at + 1) : parsed.destination;
    const user = parsed.login ?? (at >= 0 ? parsed.destination.slice(0, at) : 'root');
    const host = this.cluster.findHost(hostPart);
    if (!host || host.data.role === 'workstation')
      return { stdout: '', stderr: `ssh: Could not resolve hostname ${hostPart}: Name or service not known\n`, exitCode: 255 };
    const home = user === 'root' ? '/root' : `/home/${user}`;
    const login: FrameData = {
      location: { kind: 'node', host: host.name },
      user,
      cwd: home,
      env: { HOME: home, USER: user, HOSTNAME: host.name, PATH: '/usr/local/sbin:/usr/local/bin:/usr/sbin:/usr/bin:/sbin:/bin', SHELL: '/bin/bash', ...loginProfile(this.cluster, { kind: 'node', host: host.name }) },
    };
    if (parsed.command === undefined) {
      this.pendingPush = login;
      return { stdout: '', stderr: '', exitCode: 0 };
    }
    return this.runRemote(login, parsed.command, ctx.stdin, shellExtras(ctx).budget);
  }

  /**
   * One command line in a fresh, non-interactive shell at `where` (no tty, no aliases); ssh forwards
   * its own stdin to the remote command (`kubectl … -o yaml | ssh HOST 'cat > FILE'`).
   */
  private async runRemote(where: FrameData, command: string, stdin = '', budget = this.lineBudget): Promise<ShellResult> {
    const saved = this.pendingPush;
    const interp = new Interpreter({
      lookup: (name) => this.lookup(where.location, name),
      fs: this.fsOf(where.location),
      env: where.env,
      cwd: where.cwd,
      user: where.user,
      location: where.location,
      now: () => this.cluster.now(),
      aliases: {},
      history: () => [],
      hostname: this.hostnameOf(where.location),
      tty: false,
      advanceClock: (ms) => this.sleepFor(ms),
    });
    const boots = this.rebootsOf(where.location);
    const out = await interp.run(command, stdin, budget, true);
    // a login the remote command asked for (ssh from there, sudo -i) ends with that command
    this.pendingPush = saved;
    if (where.location.kind === 'node' && this.rebootsOf(where.location) !== boots) {
      const msg = `Connection to ${where.location.host} closed by remote host.\n`;
      return { stdout: out.stdout, stderr: out.stderr + msg, exitCode: 255, chunks: [...out.output, { stream: 'stderr', text: msg }], advanceMs: out.advanceMs };
    }
    return { stdout: out.stdout, stderr: out.stderr, exitCode: out.exit ?? out.exitCode, chunks: out.output, advanceMs: out.advanceMs };
  }

  /** A root shell on this host: a login shell starts in /root, `sudo -s`/`su` stays where it is. */
  private rootShell(ctx: CommandContext, login: boolean): CommandResult {
    const f = this.top();
    this.pendingPush = {
      location: f.location,
      user: 'root',
      cwd: login ? '/root' : ctx.cwd,
      env: { ...(login ? {} : ctx.env), HOME: '/root', USER: 'root', LOGNAME: 'root', SHELL: '/bin/bash', PATH: '/usr/local/sbin:/usr/local/bin:/usr/sbin:/usr/bin:/sbin:/bin', ...(f.env['KUBECONFIG'] && !login ? { KUBECONFIG: f.env['KUBECONFIG'] } : {}), ...(login ? loginProfile(this.cluster, f.location) : {}) },
      nested: login ? 'login' : 'shell',
    };
    return { stdout: '', stderr: '', exitCode: 0 };
  }

  /**
   * `chroot NEWROOT [COMMAND…]` in a container (chroot.ts decides): into the node's `/` mounted by
   * a node debugging pod, the shell continues on the node as root (dash, Ubuntu's /bin/sh, when no
   * command is given; the command in a non-interactive shell otherwise), keeping the environment.
   */
  private async chroot(ctx: CommandContext, at: Extract<ExecLocation, { kind: 'pod' }>, flavour: ChrootFlavour): Promise<ShellResult> {
    const pod = this.cluster.store.get<Pod>('Pod', at.namespace, at.pod);
    if (!pod) return { stdout: '', stderr: '', exitCode: 1 };
    const out = chrootOutcome({ argv: ctx.argv, cwd: ctx.cwd, user: ctx.user, env: ctx.env, pod, container: at.container, fs: ctx.fs, flavour });
    if (out.kind === 'error') return { stdout: '', stderr: out.stderr, exitCode: out.exitCode };
    const location: ExecLocation = out.kind === 'node' ? { kind: 'node', host: out.node } : at;
    const frame: FrameData = { location, user: 'root', cwd: '/', env: { ...ctx.env }, nested: 'sh' };
    if (out.command.length === 0) {
      this.pendingPush = frame;
      return { stdout: '', stderr: '', exitCode: 0 };
    }
    return this.runRemote(frame, out.command.map(shellWord).join(' '), ctx.stdin, shellExtras(ctx).budget);
  }

  /** `su [-|-l|--login] [root]`: only root switches without a password here (util-linux su). */
  private async su(ctx: CommandContext, asRoot = false): Promise<CommandResult> {
    const args = ctx.argv.slice(1);
    const login = args.some((a) => a === '-' || a === '-l' || a === '--login');
    const who = args.find((a) => !a.startsWith('-')) ?? 'root';
    if (who !== 'root') return { stdout: '', stderr: `su: user ${who} does not exist or the user entry does not contain all the required fields\n`, exitCode: 1 };
    if (ctx.user !== 'root' && !asRoot) return { stdout: '', stderr: 'Password: \nsu: Authentication failure\n', exitCode: 1 };
    return this.rootShell(ctx, login);
  }

  private async sudo(ctx: CommandContext): Promise<CommandResult> {
    const args = ctx.argv.slice(1);
    if (args[0] === '-i' || args[0] === '--login') return this.rootShell(ctx, true);
    if (args[0] === '-s' || args[0] === '--shell') return this.rootShell(ctx, false);
    if (args[0] === 'su') return this.su({ ...ctx, argv: args }, true);
    const rest = args.filter((a, i) => !(a.startsWith('-') && i === 0 && a !== '--'));
    // sudo(8): "Environment variables to be set for the command may also be passed on the command
    // line in the form of VAR=value" (`sudo ETCDCTL_API=3 etcdctl …`), before the command's name.
    const env = { ...ctx.env };
    while (rest.length > 0 && /^[A-Za-z_][A-Za-z0-9_]*=/.test(rest[0]!)) {
      const a = rest.shift()!;
      env[a.slice(0, a.indexOf('='))] = a.slice(a.indexOf('=') + 1);
    }
    if (rest.length === 0) return { stdout: '', stderr: 'usage: sudo -h | -K | -k | -V\n', exitCode: 1 };
    const fn = this.lookup(ctx.location, rest[0]!);
    if (!fn) return { stdout: '', stderr: `sudo: ${rest[0]}: command not found\n`, exitCode: 1 };
    return fn({ ...ctx, argv: rest, env, user: 'root' });
  }

  /** vim/vi/nano: open the user's editor on the file, write the result back. */
  private async edit(ctx: CommandContext): Promise<CommandResult> {
    const file = ctx.argv.slice(1).find((a) => !a.startsWith('-') && !a.startsWith('+'));
    if (!this.opts.editor) return { stdout: '', stderr: `${ctx.argv[0]}: no editor is available in this session\n`, exitCode: 1 };
    if (!file) return { stdout: '', stderr: '', exitCode: 0 };
    const { resolvePath } = await import('../sim/node/vfs.js');
    const path = resolvePath(ctx.cwd, file);
    const before = ctx.fs.tryRead(path) ?? '';
    const after = await this.opts.editor(before, path.split('/').pop() ?? 'file');
    if (after === undefined) return { stdout: '', stderr: '', exitCode: 1 };
    // the host's filesystem tells the cluster about the write (an edited manifest restarts its pod)
    if (after !== before || !ctx.fs.exists(path)) ctx.fs.write(path, after);
    return { stdout: '', stderr: '', exitCode: 0 };
  }

  /**
   * Run one complete line (use parse/linereader for multi-line input such as here-documents).
   * The line runs within one budget (budget.ts); `signal` interrupts it as Ctrl-C does.
   */
  /**
   * The clock follows the wall (`sync`), stopping at each background job's time: jobs whose sleep
   * ended meanwhile run at their time, with containers' output up to then, as at a prompt.
   */
  private async followWall(sync: (limit?: number) => void): Promise<void> {
    for (let guard = 0; guard < 10_000; guard++) {
      const next = this.jobClock.next();
      if (next === undefined) break;
      sync(next);
      if (this.cluster.now() < next) break;
      this.cluster.catchUp();
      flushAll(this.cluster, this.cluster.store.list<Pod>('Pod'));
      await this.runDueJobs();
    }
    sync();
  }

  async exec(line: string, opts: { signal?: AbortSignal; sync?: (limit?: number) => void; hold?: boolean } = {}): Promise<ExecResult> {
    if (line.trim() !== '') this.history.push(line);
    const prevLine = this.lastLine;
    this.lastLine = line.trim();
    const before: OutputChunk[] = [];
    this.terminal = (c) => {
      const last = before[before.length - 1];
      if (last && last.stream === c.stream) last.text += c.text;
      else before.push({ ...c });
    };
    this.lineBudget = new LineBudget(opts.signal);
    // the wall moved on while the learner typed
    if (opts.sync) await this.followWall(opts.sync);
    this.cluster.catchUp();
    // container programs' output (logs, files in volumes) up to now, before anything reads it
    flushAll(this.cluster, this.cluster.store.list<Pod>('Pod'));
    const frame = this.top();
    this.pendingPush = undefined;
    const boots = this.rebootsOf(frame.location);
    // what jobs printed while the learner typed, and which ended jobs bash reports after this line
    for (const f of this.frames) f.table.newLine();
    // jobs paused in a sleep that ended by now run on first (without `sync`, at the time the line starts)
    await this.runDueJobs();
    before.push(...this.jobOutput('accept'), ...this.jobOutput('end'), ...(await this.pipeOutput()));
    this.terminal = (c) => frame.interp.writeTerminal(c);
    let out: RunOutput;
    frame.interp.holdTerminal = opts.hold === true;
    try {
      out = await frame.interp.run(line, '', this.lineBudget);
    } finally {
      frame.interp.holdTerminal = false;
      this.terminal = () => undefined;
    }
    if (out.exit !== undefined && opts.hold && this.frames.length === 1) {
      // builtins/exit.def: an interactive bash says `exit` as it leaves (a terminal's REPL passes `hold`)
      out.output.push({ stream: 'stderr', text: 'exit\n' });
      out.stderr += 'exit\n';
    }
    if (out.exit !== undefined && frame.table.hasStopped() && !/^(exit|logout|jobs)(\s|$)/.test(prevLine)) {
      // builtins/exit.def exit_or_logout: a first `exit` with stopped jobs warns and stays; a
      // second one right after it (or after `jobs`) leaves
      out.output.push({ stream: 'stderr', text: 'There are stopped jobs.\n' });
      out.stderr += 'There are stopped jobs.\n';
      out = { ...out, exitCode: out.exit };
      delete out.exit;
    }
    if (before.length > 0) {
      out.output.unshift(...before);
      for (const s of ['stdout', 'stderr'] as const) out[s] = before.filter((c) => c.stream === s).map((c) => c.text).join('') + out[s];
    }
    frame.cwd = frame.interp.cwd;
    if (out.advanceMs > 0) this.cluster.advance(out.advanceMs);
    this.cluster.settle();
    // what running pipelines' first members wrote during the line, through their later members
    // (`kubectl get po -w | grep x &`: grep shows the rows the line's changes made, as they come)
    for (const c of await this.pipeOutput()) {
      out.output.push(c);
      out[c.stream] += c.text;
    }
    const notices = frame.table.notices();
    if (notices) {
      out.output.push({ stream: 'stderr', text: notices });
      out.stderr += notices;
    }
    if (frame.location.kind === 'node' && this.rebootsOf(frame.location) !== boots && this.frames.length > 1) {
      // the node rebooted under the login: sshd dies, every shell on it with it (ssh's own words)
      const host = frame.location.host;
      while (this.frames.length > 1 && this.top().location.kind === 'node' && (this.top().location as { host: string }).host === host) this.hangUp(this.frames.pop()!);
      const msg = `Connection to ${host} closed by remote host.\nConnection to ${host} closed.\n`;
      out.output.push({ stream: 'stderr', text: msg });
      out.stderr += msg;
      out.exitCode = 255;
      this.pendingPush = undefined;
    } else if (out.exit !== undefined) {
      if (this.frames.length > 1) {
        this.hangUp(this.frames.pop()!);
        const msg =
          frame.nested === 'login'
            ? 'logout\n'
            : frame.nested === 'shell'
              ? 'exit\n'
              : frame.nested === 'sh'
                ? ''
              : frame.location.kind === 'node'
                ? `logout\nConnection to ${frame.location.host} closed.\n`
                : '';
        if (msg) out.output.push({ stream: 'stdout', text: msg });
        out.stdout += msg;
        if (frame.attached && frame.location.kind === 'pod') this.endAttached(frame.location, out.exit, frame.attached, out);
      } else out.exitCode = out.exit;
    } else if (this.pendingPush) {
      this.frames.push(this.makeFrame(this.pendingPush));
      this.pendingPush = undefined;
    }
    if (out.hold && !out.hold.ended) {
      this.held = { frame, job: out.hold };
      // a job continued by fg writes at once what waited for it while it was stopped
      for (const c of [...this.jobOutput('end'), ...(await this.pipeOutput())]) {
        out.output.push(c);
        out[c.stream] += c.text;
      }
      return { ...out, prompt: this.prompt(), holding: true, ...noEcho(out.hold) };
    }
    return { ...out, prompt: this.prompt() };
  }

  /**
   * The held job does work as time passes that needs its shell (LiveOutput.refresh: `watch` runs
   * its command again), against this tick's budget; a stopped one does nothing.
   */
  private async refreshHeld(frame: Frame, job: JobData): Promise<void> {
    const live = job.holds?.[LIVE];
    if (!live?.refresh || job.stopped || job.ended) return;
    frame.interp.resume(this.lineBudget);
    try {
      await live.refresh(this.cluster);
    } catch (e) {
      // its commands ran out of the tick's budget: it ends as if killed, the session unharmed
      if (!(e instanceof BudgetExceeded)) throw e;
      frame.table.end(job, 130, 'INT');
    }
  }

  /**
   * Ctrl-D on an empty line at the top-level prompt: bash reads end of input as `exit` (readline
   * echoes `exit`; eval.c reader_loop → exit_or_logout), so with stopped jobs a first one warns
   * `There are stopped jobs.` and stays, and one right after it (or after `exit` or `jobs`)
   * leaves. Recorded from bash 5.2.15 on a pty (testdata/job-control-eof.txt). The key is no
   * line of history.
   */
  endOfInput(): { leave: true } | { leave: false; warning: string } {
    const prev = this.lastLine;
    this.lastLine = 'exit';
    if (this.top().table.hasStopped() && !/^(exit|logout|jobs)(\s|$)/.test(prev)) return { leave: false, warning: 'There are stopped jobs.\n' };
    return { leave: true };
  }

  /** The job the terminal holds (exec with `hold`), and the shell it belongs to. */
  private held: { frame: Frame; job: JobData } | undefined;
  /** The line run last (a second `exit` right after the warning about stopped jobs leaves). */
  private lastLine = '';

  /**
   * The job the terminal holds, as the REPL reports what happens to it: `tick` (the wall clock moved:
   * the cluster lives up to now and the job writes what it saw, a sleep ends at its time),
   * `interrupt` (Ctrl-C: it dies of SIGINT, status 130, no notice: the terminal already echoed
   * `^C` and the newline) or `stop` (Ctrl-Z: bash jobs.c notify_of_job_status prints a newline
   * after the terminal's `^Z`, then `[N]+  Stopped                 TEXT`; status 148) or `hangup`
   * (the terminal is gone: it dies of SIGHUP, status 129, without a word). `holding`
   * stays set while it keeps the terminal.
   */
  async foreground(ev: ForegroundEvent, opts: { sync?: (limit?: number) => void } = {}): Promise<ExecResult> {
    const held = this.held;
    const out: ExecResult = { output: [], stdout: '', stderr: '', exitCode: 0, advanceMs: 0, prompt: this.prompt() };
    const write = (c: OutputChunk): void => {
      if (c.text === '') return;
      const last = out.output[out.output.length - 1];
      if (last && last.stream === c.stream) last.text += c.text;
      else out.output.push({ ...c });
      out[c.stream] += c.text;
    };
    if (!held) return out;
    const { frame, job } = held;
    // (a job that ends lets go of what it holds: a pipeline's later members still read the rest)
    const holds = job.holds;
    this.terminal = write;
    this.lineBudget = new LineBudget();
    try {
      if (ev === 'tick') {
        if (opts.sync) await this.followWall(opts.sync);
        this.cluster.catchUp();
        flushAll(this.cluster, this.cluster.store.list<Pod>('Pod'));
        await this.runDueJobs();
        await this.refreshHeld(frame, job);
        for (const c of [...this.jobOutput('accept'), ...this.jobOutput('end')]) write(c);
        // a pipeline's first member that ended on its own (status 0: its watch closed) gives its later ones end of input
        const ended = job.ended && !job.ended.signal && job[PIPE] ? { job, holds } : undefined;
        for (const c of await this.pipeOutput(ended)) write(c);
      } else if (ev === 'interrupt') {
        const caught = job.holds?.[LIVE]?.interrupt?.();
        if (caught) {
          // it catches SIGINT and exits on its own terms (watch: endwin, exit 0)
          write({ stream: 'stdout', text: caught.stdout });
          frame.table.end(job, caught.status);
        } else frame.table.end(job, 130, 'INT');
      } else if (ev === 'hangup') {
        // the terminal closed under it: SIGHUP (status 129), no notice, nothing echoed
        frame.table.end(job, 129, 'HUP');
      } else {
        // a full-screen program gives the screen back first (ncurses' SIGTSTP handler calls endwin)
        const leave = job.holds?.[LIVE]?.screen?.leave;
        if (leave) write({ stream: 'stdout', text: leave });
        frame.table.stop(job, this.cluster.now());
        write({ stream: 'stderr', text: `\n${frame.table.line(job)}` });
      }
    } finally {
      this.terminal = () => undefined;
    }
    if (!job.ended && !job.stopped) return { ...out, holding: true, ...noEcho(job), prompt: this.prompt() };
    this.held = undefined;
    let status = job.stopped ? STOPPED_STATUS : (job.ended?.status ?? 0);
    if (job.ended) frame.table.drop(job);
    frame.interp.setStatus(status);
    // the first pipeline of a list ended on its own or stopped: the list runs on (not after Ctrl-C
    // or a hangup, which end the whole line); what is left may be held in its turn
    const rest = job[LIST_REST];
    delete job[LIST_REST];
    if (rest && (job.stopped || !job.ended?.signal)) {
      this.terminal = (c) => frame.interp.writeTerminal(c);
      let more: RunOutput;
      try {
        more = await rest(status, this.lineBudget);
      } finally {
        this.terminal = () => undefined;
      }
      for (const c of more.output) write(c);
      if (more.advanceMs > 0) this.cluster.advance(more.advanceMs);
      this.cluster.settle();
      if (more.hold && !more.hold.ended) {
        this.held = { frame, job: more.hold };
        return { ...out, holding: true, ...noEcho(more.hold), prompt: this.prompt() };
      }
      status = more.exitCode;
      frame.cwd = frame.interp.cwd;
      if (more.exit !== undefined) out.exit = more.exit;
    }
    const notices = frame.table.notices();
    if (notices) write({ stream: 'stderr', text: notices });
    return { ...out, exitCode: status, prompt: this.prompt() };
  }

  /**
   * Leaving an attached shell ends the container's process; kubectl then prints how to reattach,
   * or, for `run --rm`, deletes the pod and says so.
   */
  private endAttached(at: Extract<ExecLocation, { kind: 'pod' }>, code: number, attached: Attached, out: { stdout: string; stderr: string; output: { stream: 'stdout' | 'stderr'; text: string }[] }): void {
    const pod = this.cluster.store.get<Pod>('Pod', at.namespace, at.pod);
    if (pod && endRun(this.cluster, pod, at.container, code)) {
      // the runtime's state changed on the host: the kubelet's next sync sees the exit
      this.cluster.touchHosts();
      this.cluster.settle();
    }
    if (attached.reattach) {
      out.output.push({ stream: 'stderr', text: `${attached.reattach}\n` });
      out.stderr += `${attached.reattach}\n`;
    }
    const rm = attached.remove;
    if (rm && this.cluster.store.get<Pod>('Pod', rm.namespace, rm.pod)) {
      try {
        this.api.delete('Pod', rm.namespace, rm.pod);
      } catch {
        return;
      }
      // run.go removeCreatedObjects deletes without waiting (WaitForDeletion false): the pod
      // is left Terminating
      out.output.push({ stream: 'stdout', text: rm.message });
      out.stdout += rm.message;
    }
  }

  /** A shell that ends takes its running jobs with it (the terminal's hangup, SIGHUP). */
  private hangUp(frame: Frame): void {
    for (const j of frame.table.running()) frame.table.end(j, 129, 'HUP');
  }

  /**
   * The saved job tables belonged to a shell process that has ended: a new `cka-lab shell` (or a
   * practice resumed after a crash) is a new bash, whose job table starts empty, and the old
   * shell's jobs went with its terminal (SIGHUP, bash jobs.c hangup_all_jobs): what they held
   * (a port-forward's sockets) is released and they are forgotten without a notice, so `jobs`
   * lists nothing and no `Done` reports a list whose rest never ran (a paused list's continuation
   * lives in the old process's memory only). Within one process the session keeps its jobs
   * across the save after every command.
   */
  endSavedJobs(): void {
    for (const f of this.frames) {
      this.hangUp(f);
      f.table.clear();
    }
  }

  /**
   * Take over the cluster of `next`, this session's file as another process (a one-shot `cka-lab
   * kubectl`) wrote it, and keep what this shell process holds in memory: its frames, their job
   * tables and the job lists paused in a sleep (jobClock), which a revived session would have
   * lost (a list's continuation cannot be saved). The frames' shells read and write the new
   * cluster's files from now on; a resumed job runs its next commands against the new cluster.
   */
  adopt(next: Session): void {
    this.cluster = next.cluster;
    this.api = next.api;
    for (const f of this.frames) f.interp.rebindFs(this.fsOf(f.location));
  }

  /** Whether this shell has background jobs (running, or paused in a sleep): adopt keeps them. */
  hasJobs(): boolean {
    return this.jobClock.next() !== undefined || this.frames.some((f) => f.table.jobs.length > 0);
  }

  /** How often a node has rebooted (node/reboot.ts), to end the logins on it; undefined elsewhere. */
  private rebootsOf(location: ExecLocation): number | undefined {
    return location.kind === 'node' ? (this.cluster.host(location.host)?.data.state.reboots ?? 0) : undefined;
  }

  /** True when the learner is back at the workstation's top level. */
  get atTop(): boolean {
    return this.frames.length === 1;
  }

  /** `persist`: for a file, leaving out what loading rebuilds (Cluster.snapshot). */
  toJSON(opts: { persist?: boolean } = {}): SessionData {
    return {
      version: SESSION_VERSION,
      cluster: this.cluster.snapshot(opts),
      frames: this.frames.map((f) => frameData(f)),
      history: [...this.history],
      aliases: { ...this.aliases },
    };
  }

  /**
   * A new session on this one's own cluster, as the grader's copies are (scenario/session.ts
   * copier): back on the workstation with the first frame's shell as `fromJSON` would restore it
   * (from a copy of its saved data, its job table included), this session's aliases, no history,
   * no paused job lists (jobClock), a fresh API server; and the cluster goes on as a restored copy of it would (Cluster.forgetCarried). For a
   * caller that throws this session away (the grader's last line graded in place): it then needs
   * no copy of the state for that line.
   */
  reopenAtTop(): Session {
    const s = new Session(this.cluster, {}, { first: copyJSON(frameData(this.frames[0]!)), aliases: this.aliases });
    this.cluster.forgetCarried();
    return s;
  }

  /**
   * Rebuild a session from saved data. The data is copied unless the caller hands it over
   * (`owned`: parsed or copied for this session alone, e.g. read from its file).
   */
  static fromJSON(data: SessionData, clock: Clock, controllers: readonly Controller[], opts: SessionOptions = {}, owned = false): Session {
    if (data.version !== SESSION_VERSION) throw new Error(`unsupported session version ${data.version}`);
    const first = data.frames[0];
    const s = new Session(Cluster.restore(data.cluster, clock, controllers, { owned }), opts, first && { first, aliases: data.aliases });
    if (!first) {
      s.aliases = { ...data.aliases };
      s.frames = [];
    }
    s.history.push(...data.history);
    for (const f of data.frames.slice(1)) s.frames.push(s.makeFrame(f));
    return s;
  }
}

/** What a frame saves (Session.toJSON). */
function frameData(f: Frame): FrameData {
  return { location: f.location, user: f.user, cwd: f.interp.cwd, env: f.interp.env, ...(f.nested ? { nested: f.nested } : {}), ...(f.exec ? { exec: f.exec } : {}), ...(f.table.jobs.length > 0 ? { jobs: f.table.toJSON() } : {}), ...(f.interp.linesRead > 0 ? { lines: f.interp.linesRead } : {}), ...(f.interp.lastStatus !== 0 ? { status: f.interp.lastStatus } : {}), ...shellOf(f.interp) };
}

/** A frame's `shell` entry: present only when the shell has state beyond its environment. */
function shellOf(interp: Interpreter): { shell?: ShellStateData } {
  const shell = interp.shellState;
  return shell ? { shell } : {};
}

/**
 * What a login shell's profile sets on a host: on the exam's control-plane nodes kubectl works for
 * every login (ssh and `sudo -i` alike) because the profile exports the admin kubeconfig.
 */
function loginProfile(cluster: Cluster, location: ExecLocation): Record<string, string> {
  if (location.kind !== 'node') return {};
  return cluster.hosts.get(location.host)?.data.role === 'control-plane' ? { KUBECONFIG: '/etc/kubernetes/admin.conf' } : {};
}
