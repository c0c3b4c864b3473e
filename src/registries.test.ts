/**
 * Every extension point is one folder of one-file entries plus an index that lists them in order
 * (docs/extending.md). Nothing registers itself when imported, so a file the index does not list
 * is dead code that looks alive. This test reads each folder, imports every file and fails when a
 * file exports nothing its index lists. Files that are not entries (shared helpers, types) are
 * named below with the reason; a named helper that exports a listed entry, or that no longer
 * exists, fails too, so the exemptions cannot go stale.
 *
 * Program overrides are not a folder of their own (each is declared beside the controller of its
 * component), so the rule for them is by shape: any object exported anywhere in src/sim that looks
 * like a ProgramOverride must be in PROGRAM_OVERRIDES.
 *
 * kubectl: every verb file is an implementation listed in verbs/index.ts (VERBS), every spec file
 * a command listed in spec/index.ts (COMMANDS), and every implementation names a declared
 * command path. The describers of src/shell/kubectl/describers (node, EndpointSlice, the generic
 * one), which `kubectl describe` dispatches itself, are not covered here yet.
 */
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { existsSync, readdirSync, statSync } from 'node:fs';
import { dirname, extname, join, relative } from 'node:path';
import { fileURLToPath, pathToFileURL } from 'node:url';

/** The sources, also when this test runs compiled from .test-build/ (scripts/test.mjs): one level up, then src/. */
const SRC = fileURLToPath(new URL('../src/', import.meta.url)).replace(/\/$/, '');

interface ExtensionPoint {
  /** What one entry is (for messages). */
  name: string;
  /** Folder of the entries, relative to src/ (not recursive). */
  folder: string;
  /** The index file in that folder. */
  index: string;
  /** What the index lists (entries are compared by identity with the files' exports). */
  registered(): Promise<readonly unknown[]>;
  /** Files in the folder that are not entries, each with the reason. */
  helpers: Readonly<Record<string, string>>;
}

const POINTS: readonly ExtensionPoint[] = [
  {
    name: 'kubectl verb',
    folder: 'shell/kubectl/verbs',
    index: 'index.ts',
    registered: async () => (await import('./shell/kubectl/verbs/index.js')).VERBS,
    helpers: {
      'read.ts': 'the read-only verbs in help order, concatenated by index.ts',
      'write.ts': 'the verbs that change the cluster in help order, concatenated by index.ts',
      'get-raw.ts': '`get --raw`, called by get.ts',
      'metadata-edit.ts': 'what label and annotate share',
      'rollout-kinds.ts': 'what rollout does per kind (pkg/polymorphichelpers), used by rollout.ts',
      'set-selector.ts': '`set selector`, called by set.ts',
      'config-edit.ts': 'the kubeconfig-editing `config` subcommands, called by config.ts',
      'get-watch.ts': '`get -w` / `--watch-only`, called by get.ts',
      'raw-put.ts': '`replace --raw`: the file PUT to a path (a namespace finalize), called by replace.ts',
      'completion-scripts.generated.ts': 'the recorded completion scripts completion.ts prints (loaded on demand)',
    },
  },
  {
    name: 'kubectl command declaration',
    folder: 'shell/kubectl/spec',
    index: 'index.ts',
    registered: async () => (await import('./shell/kubectl/spec/index.js')).COMMANDS,
    helpers: {
      'types.ts': 'the CommandSpec and FlagDecl shapes',
      'help.ts': 'renders help from a declaration',
      'lookup.ts': 'finds a command path in the declared tree',
      'flags.ts': 'flags many commands declare alike (PrintFlags, dry-run, filename), referenced by the command files',
    },
  },
  {
    name: 'controller',
    folder: 'sim/controllers',
    index: 'index.ts',
    registered: async () => (await import('./sim/controllers/index.js')).CONTROLLERS,
    helpers: {
      'util.ts': 'owner references, template hashing and pod readiness shared by controllers',
      'controller-ref-manager.ts': 'the claim of dependents by labels (controller_ref_manager.go ClaimObject) the ReplicaSet and Deployment controllers share',
      'history.ts': 'ControllerRevision bookkeeping shared by the DaemonSet and StatefulSet controllers',
      'owner-index.ts': "a namespace's ReplicaSets and pods by controller uid (the informers' controller-UID index), read by the Deployment and ReplicaSet controllers",
      'namespace-cache.ts': "what a controller derives from one kind's objects in a namespace, kept while they are unchanged (owner-index, label-index, the scheduler's Service index)",
      'label-index.ts': "a namespace's pods by label, through which the Endpoints and EndpointSlice controllers find a Service's pods",
      'sync-memo.ts': 'the per-object memo of syncs that wrote nothing, keyed by the frozen objects each read, shared by the workload, endpoints and CRD status controllers',
      'deployment-progress.ts': "the deployment controller's Progressing and Available conditions (progress.go, deployment_util.go)",
      'prober.ts': "the kubelet's probes and probe workers (pkg/kubelet/prober, pkg/probe), driven by kubelet.ts",
      'kube-proxy-derived.ts': "which nodes' iptables rules are kube-proxy's sync and nothing else, recorded by kube-proxy.ts, rebuilt on restore",
      'kube-proxy-startup.ts': "what the kube-proxy process logs at its start and exit, written by kube-proxy.ts",
    },
  },
  {
    name: 'admission plugin',
    folder: 'sim/api/admission',
    index: 'index.ts',
    registered: async () => (await import('./sim/api/admission/index.js')).ADMISSION_PLUGINS,
    helpers: {
      'types.ts': 'the AdmissionPlugin and AdmissionAttributes shapes',
      'resources.ts': 'resource-list arithmetic LimitRanger and ResourceQuota share',
      'forbidden.ts': 'admission.NewForbidden, the error text every plugin refuses with',
    },
  },
  {
    name: 'log source',
    folder: 'sim/runtime/logs',
    index: 'index.ts',
    registered: async () => (await import('./sim/runtime/logs/index.js')).LOG_SOURCES,
    helpers: {},
  },
  {
    name: 'text command',
    folder: 'shell/commands',
    index: 'index.ts',
    registered: async () => Object.values((await import('./shell/commands/index.js')).textCommands),
    helpers: {
      'format.ts': "C printf-style formatting shared by awk's printf and the printf command",
      'fsutil.ts': 'path helpers and errno wording shared by mkdir, rm, cp, mv and touch',
      'busybox.ts': 'which text tools are busybox applets (the container image), their usage and option errors',
      'busybox-usage.ts': 'the usage texts of busybox 1.36.1 applets, recorded',
      'types.ts': 'the CommandFn interface',
      'util.ts': 'getopt_long-style option parsing and file reading shared by the text commands',
      'ssh-args.ts': "OpenSSH's option parsing, shared by the workstation's and the nodes' ssh",
      'registry.ts': 'merges the node and pod command tables (node/index.ts, pod/index.ts) by where they run',
      'devices.ts': "/dev and /proc/self files every host has, attached to the host's filesystem by the session",
      'jq.ts': 'the jq command, loaded on demand by index.ts when first run',
      'awk.ts': 'the awk command, loaded on demand by index.ts when first run',
      'size-suffix.ts': "GNU's and busybox's size suffixes for head -c/-n and tail -c/-n",
    },
  },
  {
    name: 'node command',
    folder: 'shell/commands/node',
    index: 'index.ts',
    registered: async () => Object.values((await import('./shell/commands/node/index.js')).NODE_COMMANDS),
    helpers: {
      'host.ts': "a node command's environment: root check, pids, time formats, the node's ruleset",
      'etcd-client.ts': 'files, zap log lines and the TLS connection model shared by etcdctl and etcdutl',
      'etcd-cli-spec.ts': 'the etcdctl and etcdutl v3.6.5 cobra command trees as data (help, flag checks)',
      'tablewriter.ts': "olekukonko/tablewriter's table layout, shared by etcdctl and etcdutl",
      'containerd-default-config.ts': "containerd v2.1.4's `config default` text, the data of containerd.ts",
      'kmod-log.ts': "kmod's `PROG: ERROR:` log lines and getopt complaints, shared by rmmod, insmod and modinfo",
      'apt-lib.ts': 'package state, candidates and repository labels shared by apt, apt-get, apt-cache, apt-mark and dpkg',
      'kubeadm-upgrade.ts': 'kubeadm upgrade plan|apply|node, dispatched from kubeadm.ts',
      'kubeadm-upgrade-dryrun.ts': 'kubeadm upgrade apply|node --dry-run, called from kubeadm-upgrade.ts',
      'kubeadm-coredns-check.ts': 'the CoreDNSUnsupportedPlugins preflight check of kubeadm upgrade apply (corefile-migration Unsupported), called from kubeadm-upgrade.ts',
      'kubeadm-token.ts': 'kubeadm token create|list, dispatched from kubeadm.ts',
      'kubeadm-join.ts': 'kubeadm join and its phases, dispatched from kubeadm.ts',
      'kubeadm-reset.ts': 'kubeadm reset and its phases, dispatched from kubeadm.ts',
      'kubeadm-config.ts': 'kubeadm config print, dispatched from kubeadm.ts',
      'kubeadm-images.ts': 'kubeadm config images list|pull and the images each kubeadm release pins, dispatched from kubeadm.ts',
      'kubeadm-certs.ts': 'kubeadm certs check-expiration|renew, dispatched from kubeadm.ts',
      'kubeadm-renewal.ts': 'certificate renewal (Manager.RenewUsingLocalCA) shared by kubeadm certs renew and kubeadm upgrade',
      'kubeadm-patches.ts': 'the --patches directory (util/patches/patches.go) shared by kubeadm init phase, join and upgrade',
      'kubeadm-init.ts': 'kubeadm init phase upload-certs and certs certificate-key, dispatched from kubeadm.ts',
      'kubeadm-init-certs.ts': 'kubeadm init phase certs NAME|all, dispatched from kubeadm-init.ts',
      'kubeadm-init-kubeconfig.ts': 'kubeadm init phase kubeconfig NAME|all, dispatched from kubeadm-init.ts',
      'kubeadm-init-phases.ts': 'kubeadm init phase control-plane|etcd|kubelet-start|upload-config|mark-control-plane|addon, dispatched from kubeadm-init.ts',
      'kubeadm-phases-spec.ts': "kubeadm init|join|reset and their phases as cobra commands (help, flag checks), part of kubeadm-spec.ts's tree",
      'etcdctl-member.ts': 'etcdctl member add|remove, dispatched from etcdctl.ts',
      'etcdctl-usage.ts': "etcdctl's cobrautl usage template, used by etcdctl.ts",
      'crictl-config.ts': "crictl's endpoints (/etc/crictl.yaml, -r/-i) and `crictl config`, used by crictl.ts",
      'kubeadm-lib.ts': "kubeadm's version, error tail and cluster configuration, shared by the kubeadm subcommands",
      'kubeadm-spec.ts': "kubeadm's cobra command tree (Use, Short, Long, flags), read by kubeadm.ts for help and flag errors",
      'journal.ts': 'journal entries of units and static pods, read by journalctl and systemctl',
      'netmodel.ts': "the node's interfaces, addresses and routes, read by ip, route and netstat",
      'pod-log-files.ts': 'the /var/log/pods and /var/log/containers files a node shows',
      'sockets.ts': 'listening sockets derived from what runs on the node, read by ss and netstat',
      'processes.ts': 'the process table derived from what runs on the node, read by ps, pgrep and pidof',
      'mounts.ts': 'the node\'s mount table, shared by df and mount',
      'systemctl-cat.ts': '`systemctl cat` and `list-units`, dispatched from systemctl.ts',
    },
  },
  {
    name: 'pod command',
    folder: 'shell/commands/pod',
    index: 'index.ts',
    registered: async () => Object.values((await import('./shell/commands/pod/index.js')).POD_COMMANDS),
    helpers: {
      'dns-client.ts': 'the resolver run shared by nslookup, dig, host and getent',
      'http.ts': 'the HTTP request shared by wget and curl',
      'component-http.ts': "what the cluster's own components (API server, kubelet, scheduler…) answer to curl, TLS included",
      'net.ts': 'source of a connection, the stub resolver flavour and the `why` record',
      'script-tools.ts': "the pod commands a container's own script runs (wget, nc, nslookup, curl), handed to the runtime",
    },
  },
  {
    name: 'CoreDNS plugin',
    folder: 'sim/dns/plugins',
    index: 'registry.ts',
    registered: async () => [...(await import('./sim/dns/plugins/registry.js')).PLUGINS.values()],
    helpers: { 'util.ts': "helpers shared by plugin setups (Go's SplitHostPort wording, durations)" },
  },
  {
    name: 'check kind',
    folder: 'scenario/checks',
    index: 'registry.ts',
    registered: async () => (await import('./scenario/checks/registry.js')).CHECK_KINDS,
    helpers: {
      'client.ts': 'which client tool (wget, curl, nslookup, dig) a traffic or DNS check uses from a place',
      'matchers.ts': 'the value matchers (equals, contains, regex, …) checks share',
      'problems.ts': 'what a failing check tells the learner (never the expected value), worded in en, ja and zh-CN',
      'types.ts': 'defineCheck, the base fields and the place schema',
    },
  },
  {
    name: 'table printer',
    folder: 'shell/printers/columns',
    index: 'index.ts',
    registered: async () => {
      const m = await import('./shell/printers/columns/index.js');
      // the two fallback tables are chosen by printerFor for kinds without their own columns
      return [...Object.values(m.PRINTERS), m.printerFor('NoSuchKind', ''), m.printerFor('NoSuchKind', 'example.com')];
    },
    helpers: {
      'cells.ts': 'cell helpers and typed field readers shared by the column files',
      'gatewayapi-cells.ts': 'the condition-status cell the Gateway API kinds share',
      'types.ts': 'the Column and KindPrinter interfaces',
      'customresources.ts': "a custom resource's printer, built from its CRD's additionalPrinterColumns at get time",
    },
  },
  {
    name: 'describer',
    folder: 'shell/printers/describe',
    index: 'index.ts',
    registered: async () => Object.values((await import('./shell/printers/describe/index.js')).DESCRIBERS),
    helpers: {
      'containers.ts': 'the containers, probes and volumes sections shared by pod and pod-template describers',
      'events.ts': 'the Events section every describer ends with',
      'writer.ts': "kubectl's PrefixWriter and the label/annotation/toleration printers",
    },
  },
  {
    name: 'fixture add-on',
    folder: 'sim/fixture',
    index: 'fixture-addons.ts',
    registered: async () => Object.values((await import('./sim/fixture/fixture-addons.js')).FIXTURE_ADDONS),
    helpers: {
      'build.ts': 'parses a fixture and builds the cluster from it',
      'addons.ts': "the objects every kubeadm cluster has (CoreDNS, kube-proxy, the CNI's workloads), not optional add-ons",
      'kubeadm-files.ts': "the node files kubeadm writes (static pod manifests, kubelet config, kubeconfigs)",
      'calico-crds.ts': "Calico's CustomResourceDefinitions, part of the CNI's objects in addons.ts",
      'gateway-api-crds.ts': "the Gateway API CustomResourceDefinitions, part of the nginx-gateway-fabric add-on's objects",
      'gateway-api-schemas.generated.ts': "GRPCRoute's recorded openAPIV3Schema (scripts/record-gateway-crds.mjs), read by gateway-api-crds.ts",
    },
  },
];

function sourceFiles(dir: string, recursive: boolean, out: string[] = []): string[] {
  for (const n of readdirSync(dir).sort()) {
    const p = join(dir, n);
    if (statSync(p).isDirectory()) {
      if (recursive && n !== 'testdata') sourceFiles(p, true, out);
    } else if (n.endsWith('.ts') && !n.endsWith('.test.ts')) out.push(p);
  }
  return out;
}

/** This test's own tree (src/ under tsx, .test-build/ when compiled) and its module extension. */
const HERE = dirname(fileURLToPath(import.meta.url));
const EXT = extname(fileURLToPath(import.meta.url));

/** A source file's exports, loaded from the tree this test runs in so identities match the indexes. */
async function exportsOf(file: string): Promise<unknown[]> {
  const running = join(HERE, relative(SRC, file)).replace(/\.ts$/, EXT);
  return Object.values((await import(pathToFileURL(running).href)) as Record<string, unknown>);
}

for (const point of POINTS) {
  test(`every file in src/${point.folder} is a ${point.name} listed in ${point.index}, or a named helper`, async () => {
    const dir = join(SRC, point.folder);
    const registered = new Set(await point.registered());
    assert.ok(registered.size > 0, `${point.index} lists nothing`);
    for (const helper of Object.keys(point.helpers)) assert.ok(existsSync(join(dir, helper)), `helper ${helper} named in this test does not exist`);
    const problems: string[] = [];
    for (const file of sourceFiles(dir, false)) {
      const name = relative(dir, file);
      if (name === point.index) continue;
      const listed = (await exportsOf(file)).some((v) => registered.has(v));
      if (point.helpers[name] !== undefined) {
        if (listed) problems.push(`${name} is named as a helper but exports a listed ${point.name}`);
      } else if (!listed) problems.push(`${name} exports no ${point.name} listed in ${point.index}`);
    }
    assert.deepEqual(problems, []);
  });
}

test('every kubectl implementation names a declared command path', async () => {
  const { VERBS } = await import('./shell/kubectl/verbs/index.js');
  const { locate } = await import('./shell/kubectl/spec/lookup.js');
  const undeclared = VERBS.filter((v) => {
    const words = v.name.split(' ');
    const loc = locate(words);
    return loc.path.length !== words.length || loc.path.some((c, i) => c.name !== words[i]);
  }).map((v) => v.name);
  assert.deepEqual(undeclared, []);
  assert.equal(new Set(VERBS.map((v) => v.name)).size, VERBS.length, 'a command path has two implementations');
});

/** A ProgramOverride, recognised by shape (runtime/overrides.ts). */
function isProgramOverride(v: unknown): boolean {
  const o = v as Record<string, unknown> | null;
  return (
    typeof o === 'object' &&
    o !== null &&
    Array.isArray(o['repositories']) &&
    typeof o['start'] === 'function' &&
    typeof o['status'] === 'function' &&
    typeof o['logs'] === 'function'
  );
}

test('every program override exported in src/sim is listed in PROGRAM_OVERRIDES', async () => {
  const { PROGRAM_OVERRIDES } = await import('./sim/runtime/overrides.js');
  const listed = new Set<unknown>(PROGRAM_OVERRIDES);
  const found: string[] = [];
  const missing: string[] = [];
  for (const file of sourceFiles(join(SRC, 'sim'), true)) {
    for (const v of await exportsOf(file)) {
      if (!isProgramOverride(v)) continue;
      found.push(relative(SRC, file));
      if (!listed.has(v)) missing.push(relative(SRC, file));
    }
  }
  assert.ok(found.length >= PROGRAM_OVERRIDES.length, 'expected to find the listed overrides by scanning src/sim');
  assert.deepEqual(missing, []);
  // one repository, one program: the lookup takes the first match, so a duplicate would be dead
  const repos = PROGRAM_OVERRIDES.flatMap((o) => o.repositories);
  assert.equal(new Set(repos).size, repos.length, 'a repository is claimed by two overrides');
});
