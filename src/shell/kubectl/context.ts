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

export interface KubectlEnv {
  cluster: Cluster;
  api: ApiServer;
  /** Filesystem of the host kubectl runs on. */
  fs: Vfs;
  cwd: string;
  stdin: string;
  env: Record<string, string>;
  /** Open text in the user's editor; resolves to the edited text, or undefined when the editor failed. */
  editor?: (text: string, fileName: string) => Promise<string | undefined>;
  /** Run argv inside a container (kubectl exec / run --rm -it); the session wires this to the pod's tools. */
  execInPod?: (namespace: string, pod: string, container: string, argv: string[], stdin: string) => Promise<CommandResult>;
  /** Server warnings already printed this command (kubectl shows each distinct text once). */
  warnings?: Set<string>;
}

export interface Kubeconfig {
  currentContext: string;
  contexts: { name: string; cluster: string; user: string; namespace?: string }[];
  clusters: { name: string; server: string }[];
  users: { name: string }[];
}

/** A kubectl verb: one file each under src/shell/kubectl/verbs/. */
export interface Verb {
  /** `get`, `create`, `rollout`… */
  name: string;
  aliases?: readonly string[];
  /** One-line description for `kubectl` help and completion. */
  short: string;
  run(argv: string[], env: KubectlEnv, global: Parsed): Promise<CommandResult> | CommandResult;
}
