/**
 * What a kubectl verb gets: the API server it talks to, the cluster (for logs/exec, which go to
 * the kubelet), the filesystem of the machine it runs on (for `-f` files and the kubeconfig),
 * stdin, and hooks the session supplies (the user's editor, running a command in a container).
 */
import type { Cluster } from '../../sim/cluster.js';
import type { ApiServer } from '../../sim/apiserver.js';
import type { Vfs } from '../../sim/node/vfs.js';
import type { CommandResult } from '../types.js';
import type { Parsed } from './flags.js';
import type { CommandSpec } from './spec/types.js';

/** What kubectl does with files: the part of a host filesystem it uses (node/vfs.ts Vfs has it all). */
export type KubectlFiles = Pick<Vfs, 'exists' | 'isFile' | 'isDir' | 'read' | 'tryRead' | 'write' | 'list' | 'mkdir'>;

import type { LineBudget } from '../budget.js';

export interface KubectlEnv {
  cluster: Cluster;
  api: ApiServer;
  /**
   * Files of the machine kubectl runs on (manifests for -f, the kubeconfig, --from-file): the
   * simulated host's in the shell, the user's own in a one-shot `cka-lab kubectl`.
   */
  fs: KubectlFiles;
  cwd: string;
  stdin: string;
  env: Record<string, string>;
  /** Open text in the user's editor; resolves to the edited text, or undefined when the editor failed. */
  editor?: (text: string, fileName: string) => Promise<string | undefined>;
  /** Run argv inside a container (kubectl exec / run --rm -it); the session wires this to the pod's tools. */
  execInPod?: (namespace: string, pod: string, container: string, argv: string[], stdin: string) => Promise<CommandResult>;
  /**
   * The short-name warnings of resolving this command's types (kubectlWarnings), in order: given
   * to every resolution (noteShortName) and printed before the command's output.
   */
  shortNames?: string[];
  /** Server warnings already printed this command (kubectl shows each distinct text once). */
  warnings?: Set<string>;
  /** The shell line's budget: waits (`kubectl wait`, `rollout status`) stop at its simulated time. */
  budget?: LineBudget;
  /** The simulated host kubectl runs on (the workstation or a node); absent for one-shot `cka-lab kubectl`. */
  host?: string;
  /** Set when kubectl runs as a background job (`kubectl port-forward … &`): its process id. */
  background?: { pid: number; argv: readonly string[] };
  /** The shell's paused background jobs, for a watch that moves the clock (ShellContext.jobs). */
  jobs?: { next(): number | undefined; runDue(): Promise<void> };
  /** Write output now, ahead of the result (ShellContext.emit). */
  emit?: (stream: 'stdout' | 'stderr', text: string) => void;
}

export interface Kubeconfig {
  currentContext: string;
  contexts: { name: string; cluster: string; user: string; namespace?: string }[];
  clusters: { name: string; server: string }[];
  users: { name: string }[];
}

/** What the dispatcher hands a verb: the command it resolved and the flags parsed from its declaration. */
export interface Invocation {
  /** The declared commands from the top-level verb down to the one run (`create`, `service`, `clusterip`). */
  path: readonly CommandSpec[];
  /** The command's words (`create service clusterip`), for messages such as `See 'kubectl … -h'`. */
  words: string;
  /** Flags (the command's own and the global options) and positional arguments. */
  parsed: Parsed;
}

/**
 * A kubectl verb implementation, one file each under src/shell/kubectl/verbs/, registered in
 * verbs/index.ts under its command path (`scale`, `create deployment`, `rollout status`). Its
 * flags, usage and help are declared in spec/ and parsed before `run` is called.
 */
export interface Verb {
  /** The command path it implements; it also serves subcommands that have no implementation of their own. */
  name: string;
  run(inv: Invocation, env: KubectlEnv): Promise<CommandResult> | CommandResult;
}
