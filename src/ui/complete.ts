/**
 * Tab completion for the REPL (node:readline's completer contract: [candidates, word]). Like
 * kubectl's cobra completion (`kubectl completion bash`), it offers verbs, resource types with
 * their short names, `TYPE/NAME`, object names from the cluster in the namespace the line selects,
 * namespaces after `-n`, flags; and outside kubectl, the commands that exist where the learner is
 * (workstation, node, container), hosts after `ssh`, and file names.
 */
import type { Session } from '../shell/session.js';
import { BUILTINS } from '../shell/interpreter.js';
import { textCommands } from '../shell/commands/index.js';
import { nodeCommands, podCommands } from '../shell/commands/registry.js';
import { COMMANDS } from '../shell/kubectl/spec/index.js';
import { flagsOf, locate } from '../shell/kubectl/spec/lookup.js';
import type { FlagDecl } from '../shell/kubectl/spec/types.js';
import { effectiveNamespace } from '../shell/kubectl/kubeconfig.js';
import { lookupImage } from '../sim/images.js';
import type { Pod } from '../sim/api/types.js';

/** Verbs whose first argument is a pod, not a resource type. */
const POD_VERBS = new Set(['logs', 'exec', 'attach', 'port-forward', 'cp']);
/** Verbs whose first argument is a node. */
const NODE_VERBS = new Set(['cordon', 'uncordon', 'drain', 'taint']);
const SESSION_COMMANDS = ['kubectl', 'ssh', 'sudo', 'vim', 'vi', 'nano'];

function uniqSorted(xs: Iterable<string>): string[] {
  return [...new Set(xs)].sort();
}

/** Commands that can be typed where the session is now. */
export function commandNames(session: Session, extra: readonly string[] = []): string[] {
  const loc = session.location;
  if (loc.kind === 'pod') {
    const pod = session.cluster.store.get<Pod>('Pod', loc.namespace, loc.pod);
    const image = pod?.spec.containers.find((c) => c.name === loc.container)?.image;
    return uniqSorted([...(image ? (lookupImage(image)?.tools ?? []) : []), ...BUILTINS, ...extra]);
  }
  return uniqSorted([
    ...Object.keys(textCommands),
    ...Object.keys(podCommands),
    ...(loc.kind === 'node' ? Object.keys(nodeCommands) : []),
    ...SESSION_COMMANDS,
    ...BUILTINS,
    ...Object.keys(session.aliases),
    ...extra,
  ]);
}

function flagWords(specs: readonly FlagDecl[]): string[] {
  const out: string[] = [];
  for (const f of specs) {
    out.push(`--${f.name}${f.type === 'bool' ? '' : '='}`);
    if (f.short) out.push(`-${f.short}`);
  }
  return out;
}

/** `-o` values kubectl's completion offers (cmd/get/get.go RegisterFlagCompletionFunc "output"). */
const OUTPUT_FORMATS = ['custom-columns', 'custom-columns-file', 'go-template', 'go-template-file', 'json', 'jsonpath', 'jsonpath-as-json', 'jsonpath-file', 'kyaml', 'name', 'template', 'templatefile', 'wide', 'yaml'];

function objectNames(session: Session, type: string, namespace: string): string[] {
  const info = session.cluster.discovery().resolve(type);
  if (!info) return [];
  return session.cluster.store.list(info.kind, info.namespaced ? namespace : undefined).map((o) => o.metadata.name);
}

/** Candidates for the kubectl word at `args.length` (args are the words before it, after `kubectl`). */
function kubectlCandidates(session: Session, args: string[], word: string): string[] {
  const prev = args[args.length - 1];
  if (prev === '-n' || prev === '--namespace') return session.cluster.store.list('Namespace').map((o) => o.metadata.name);
  if (word.startsWith('--namespace=')) return session.cluster.store.list('Namespace').map((o) => `--namespace=${o.metadata.name}`);
  let ns: string | undefined;
  const positional: string[] = [];
  for (let i = 0; i < args.length; i++) {
    const a = args[i]!;
    if (a === '-n' || a === '--namespace') ns = args[++i];
    else if (a.startsWith('--namespace=')) ns = a.slice(12);
    else if (/^-[^-]/.test(a) && ['-o', '-l', '-c', '-f'].includes(a)) i++;
    else if (!a.startsWith('-')) positional.push(a);
  }
  if (prev === '-o' || prev === '--output') return OUTPUT_FORMATS;
  if (word.startsWith('--output=')) return OUTPUT_FORMATS.map((f) => `--output=${f}`);
  const located = locate(positional);
  const spec = located.path[located.path.length - 1];
  if (word.startsWith('-')) return flagWords(flagsOf(spec));
  if (positional.length === 0) return COMMANDS.flatMap((v) => [v.name, ...(v.aliases ?? [])]);
  if (spec?.commands?.length && located.rest.length === 0) return spec.commands.flatMap((c) => [c.name, ...(c.aliases ?? [])]);
  const loc = session.location;
  const fs = session.fsOf(loc);
  const kubeconfig = loc.kind === 'node' ? '/etc/kubernetes/admin.conf' : '/root/.kube/config';
  const namespace = effectiveNamespace(fs, { KUBECONFIG: kubeconfig }, ns);
  const verb = positional[0]!;
  if (positional.length === 1 && POD_VERBS.has(verb)) return objectNames(session, 'pods', namespace);
  if (positional.length === 1 && NODE_VERBS.has(verb)) return objectNames(session, 'nodes', namespace);
  if (positional.length === 1) {
    const slash = word.indexOf('/');
    if (slash > 0) return objectNames(session, word.slice(0, slash), namespace).map((n) => `${word.slice(0, slash)}/${n}`);
    return session.cluster.discovery().resources.flatMap((r) => [r.resource, r.singular, ...r.shortNames]);
  }
  if (positional.length >= 2 && !positional[1]!.includes('/') && !positional[1]!.includes(',')) return objectNames(session, positional[1]!, namespace);
  return [];
}

/**
 * A word that names a file, split into what precedes the path (a redirection `>`, `2>>`, `<`, or
 * a `--flag=`) and the path itself, as bash's completion sees the path after such a prefix.
 */
function pathWord(word: string): { prefix: string; path: string } {
  const m = /^(\d*>>?|<|--[\w-]+=)(.*)$/.exec(word);
  return m ? { prefix: m[1]!, path: m[2]! } : { prefix: '', path: word };
}

/**
 * Files and directories matching the word on the host (or in the container) the learner is on,
 * relative paths from the shell's working directory and `~/` from $HOME, directories with a
 * trailing `/`, dot files only when the word asks for them (bash's default, match-hidden-files).
 */
function fileCandidates(session: Session, word: string): string[] {
  const fs = session.fsOf(session.location);
  const { prefix, path } = pathWord(word);
  const slash = path.lastIndexOf('/');
  const dirPart = slash >= 0 ? path.slice(0, slash + 1) : '';
  const base = path.slice(slash + 1);
  const cwd = session.cwd;
  const expanded = dirPart.startsWith('~/') ? `${session.home}/${dirPart.slice(2)}` : dirPart;
  const dir = expanded === '' ? cwd : expanded.startsWith('/') ? expanded : `${cwd.replace(/\/$/, '')}/${expanded}`;
  const under = dir.replace(/\/$/, '');
  try {
    return fs
      .list(under || '/')
      .filter((n) => base.startsWith('.') || !n.startsWith('.'))
      .map((n) => `${prefix}${dirPart}${n}${fs.isDir(`${under}/${n}`) ? '/' : ''}`);
  } catch {
    return [];
  }
}

/** readline completer: `line` is the text before the cursor. */
export function complete(session: Session, line: string, extraCommands: readonly string[] = []): [string[], string] {
  // the current simple command starts after the last | ; && ||
  const cmdText = line.split(/\|\||&&|[|;]/).pop() ?? '';
  const words = cmdText.trimStart().split(/\s+/);
  const word = words.pop() ?? '';
  let candidates: string[];
  if (words.length === 0) candidates = commandNames(session, extraCommands);
  else {
    const cmd = words[0] === 'sudo' ? words[1] : words[0];
    const rest = words[0] === 'sudo' ? words.slice(2) : words.slice(1);
    const resolved = cmd !== undefined ? (session.aliases[cmd]?.split(/\s+/)[0] ?? cmd) : undefined;
    if (words[0] === 'sudo' && words.length === 1) candidates = commandNames(session);
    else if (resolved === 'kubectl' && (['-f', '--filename', '-k', '--kustomize'].includes(rest[rest.length - 1] ?? '') || /^(--filename=|--kustomize=|\d*>|<)/.test(word))) candidates = fileCandidates(session, word);
    else if (/^(\d*>>?|<)/.test(word)) candidates = fileCandidates(session, word);
    else if (resolved === 'kubectl') candidates = kubectlCandidates(session, rest, word);
    else if (resolved === 'ssh') candidates = [...session.cluster.hosts.values()].filter((h) => h.data.role !== 'workstation').map((h) => h.name);
    else candidates = fileCandidates(session, word);
  }
  const hits = uniqSorted(candidates.filter((c) => c.startsWith(word)));
  return [hits, word];
}
