/**
 * kubeadm v1.35's cobra command tree as data (cmd/kubeadm/app/cmd/cmd.go NewKubeadmCommand and the
 * files it adds: token.go, certs.go, version.go, upgrade/upgrade.go, upgrade/plan.go), rendered by
 * the shared cobra model (src/shell/cobra/command.ts). Facts only: Use, Short, Long (lithammer/dedent
 * keeps the leading newline of a `\n`-started Long, so the help starts with a blank line), flags
 * with their pflag types, defaults and usages, and which commands have a Run:
 *  - the root has none (bare `kubeadm` prints the help, status 0); it is SilenceErrors and
 *    SilenceUsage, so every error reaches kubeadm's CheckErr (cmd/kubeadm/app/util/error.go);
 *  - token, certs, certs renew and upgrade run cmdutil.SubCmdRun (cmd/kubeadm/app/cmd/util/cmdutil.go):
 *    alone they print their help and exit 1, with words `invalid subcommand "…"`;
 *  - root persistent flags: --rootfs (options.AddKubeadmOtherFlags) and the two klog flags kubeadm
 *    keeps (cmd/kubeadm/app/kubeadm.go: `v`, `vmodule`; klog's Level has no Type(), so pflag names
 *    it by reflection, moduleSpec's Type() is `pattern=N,...`).
 * Texts were taken from the generated reference (kubernetes/website
 * content/en/docs/reference/setup-tools/kubeadm/generated/kubeadm_*.md) and kubeadm's sources, with
 * the v1.34+ wording where those differ (--rootfs, kyaml in -o, upgrade plan's flags).
 *
 * init, join and reset with their phases are in kubeadm-phases-spec.ts. Commands marked
 * `recorded: false` are listed by their parents but their own help is not recorded here yet
 * (config, upgrade apply|node|diff, certs check-expiration…): asking for their help says so
 * instead of running them.
 */
import type { CobraCommand, FlagDef } from '../../cobra/command.js';
import { ENTRIES } from './kubeadm-renewal.js';
import { INIT, JOIN, RESET } from './kubeadm-phases-spec.js';

const kubeconfig: FlagDef = {
  name: 'kubeconfig',
  type: 'string',
  def: '/etc/kubernetes/admin.conf',
  usage: 'The kubeconfig file to use when talking to the cluster. If the flag is not set, a set of standard locations can be searched for an existing kubeconfig file.',
};
const config: FlagDef = { name: 'config', type: 'string', usage: 'Path to a kubeadm configuration file.' };
const certDir: FlagDef = { name: 'cert-dir', type: 'string', def: '/etc/kubernetes/pki', usage: 'The path where to save the certificates' };
const allowMissingTemplateKeys: FlagDef = {
  name: 'allow-missing-template-keys',
  type: 'bool',
  def: 'true',
  usage: 'If true, ignore any errors in templates when a field or map key is missing in the template. Only applies to golang and jsonpath output formats.',
};
const output: FlagDef = {
  name: 'output',
  short: 'o',
  type: 'string',
  def: 'text',
  usage: 'Output format. One of: text|json|yaml|kyaml|go-template|go-template-file|template|templatefile|jsonpath|jsonpath-as-json|jsonpath-file.',
};
const showManagedFields: FlagDef = { name: 'show-managed-fields', type: 'bool', usage: 'If true, keep the managedFields when printing objects in JSON or YAML format.' };

const unrecorded = (use: string, short: string, commands?: CobraCommand[]): CobraCommand => ({ use, short, run: 'run', recorded: false, ...(commands ? { commands } : {}) });

const token: CobraCommand = {
  use: 'token',
  short: 'Manage bootstrap tokens',
  long: `
This command manages bootstrap tokens. It is optional and needed only for advanced use cases.

In short, bootstrap tokens are used for establishing bidirectional trust between a client and a server.
A bootstrap token can be used when a client (for example a node that is about to join the cluster) needs
to trust the server it is talking to. Then a bootstrap token with the "signing" usage can be used.
bootstrap tokens can also function as a way to allow short-lived authentication to the API Server
(the token serves as a way for the API Server to trust the client), for example for doing the TLS Bootstrap.

What is a bootstrap token more exactly?
 - It is a Secret in the kube-system namespace of type "bootstrap.kubernetes.io/token".
 - A bootstrap token must be of the form "[a-z0-9]{6}.[a-z0-9]{16}". The former part is the public token ID,
   while the latter is the Token Secret and it must be kept private at all circumstances!
 - The name of the Secret must be named "bootstrap-token-(token-id)".

You can read more about bootstrap tokens here:
  https://kubernetes.io/docs/admin/bootstrap-tokens/
`,
  run: 'subcommands',
  persistentFlags: [{ name: 'dry-run', type: 'bool', usage: 'Whether to enable dry-run mode or not' }, kubeconfig],
  commands: [
    {
      use: 'create [token]',
      disableFlagsInUseLine: true,
      short: 'Create bootstrap tokens on the server',
      long: `
This command will create a bootstrap token for you.
You can specify the usages for this token, the "time to live" and an optional human friendly description.

The [token] is the actual token to write.
This should be a securely generated random token of the form "[a-z0-9]{6}.[a-z0-9]{16}".
If no [token] is given, kubeadm will generate a random token instead.
`,
      run: 'run',
      flags: [
        config,
        { name: 'print-join-command', type: 'bool', usage: "Instead of printing only the token, print the full 'kubeadm join' flag needed to join the cluster using the token." },
        {
          name: 'certificate-key',
          type: 'string',
          usage: "When used together with '--print-join-command', print the full 'kubeadm join' flag needed to join the cluster as a control-plane. To create a new certificate key you must use 'kubeadm init phase upload-certs --upload-certs'.",
        },
        { name: 'ttl', type: 'duration', def: '24h0m0s', usage: "The duration before the token is automatically deleted (e.g. 1s, 2m, 3h). If set to '0', the token will never expire" },
        {
          name: 'usages',
          type: 'stringSlice',
          def: '[signing,authentication]',
          usage: 'Describes the ways in which this token can be used. You can pass --usages multiple times or provide a comma separated list of options. Valid options: [signing,authentication]',
        },
        {
          name: 'groups',
          type: 'stringSlice',
          def: '[system:bootstrappers:kubeadm:default-node-token]',
          usage: 'Extra groups that this token will authenticate as when used for authentication. Must match "\\\\Asystem:bootstrappers:[a-z0-9:-]{0,255}[a-z0-9]\\\\z"',
        },
        { name: 'description', type: 'string', usage: 'A human friendly description of how this token is used.' },
      ],
    },
    {
      use: 'generate',
      short: 'Generate and print a bootstrap token, but do not create it on the server',
      long: `
This command will print out a randomly-generated bootstrap token that can be used with
the "init" and "join" commands.

You don't have to use this command in order to generate a token. You can do so
yourself as long as it is in the format "[a-z0-9]{6}.[a-z0-9]{16}". This
command is provided for convenience to generate tokens in the given format.

You can also use "kubeadm init" without specifying a token and it will
generate and print one for you.
`,
      run: 'run',
      noArgs: true,
    },
    {
      use: 'list',
      short: 'List bootstrap tokens on the server',
      long: `
This command will list all bootstrap tokens for you.
`,
      run: 'run',
      noArgs: true,
      flags: [allowMissingTemplateKeys, output, showManagedFields],
    },
    {
      use: 'delete [token-value] ...',
      disableFlagsInUseLine: true,
      short: 'Delete bootstrap tokens on the server',
      long: `
This command will delete a list of bootstrap tokens for you.

The [token-value] is the full Token of the form "[a-z0-9]{6}.[a-z0-9]{16}" or the
Token ID of the form "[a-z0-9]{6}" to delete.
`,
      run: 'run',
    },
  ],
};

/** renewal.go: one `certs renew` subcommand per certificate, Short and Long from its LongName. */
function renewCommand(name: string, long: string): CobraCommand {
  return {
    use: name,
    short: `Renew the ${long}`,
    long: `Renew the ${long}.

Renewals run unconditionally, regardless of certificate expiration date; extra attributes such as SANs will be based on the existing file/certificates, there is no need to resupply them.

Renewal by default tries to use the certificate authority in the local PKI managed by kubeadm; as alternative it is possible to use K8s certificate API for certificate renewal, or as a last option, to generate a CSR request.

After renewal, in order to make changes effective, is required to restart control-plane components and eventually re-distribute the renewed certificate in case the file is used elsewhere.`,
    run: 'run',
    flags: [config, certDir, kubeconfig],
  };
}

const certs: CobraCommand = {
  use: 'certs',
  aliases: ['certificates'],
  short: 'Commands related to handling kubernetes certificates',
  run: 'subcommands',
  commands: [
    {
      use: 'renew',
      short: 'Renew certificates for a Kubernetes cluster',
      long: 'This command is not meant to be run on its own. See list of available subcommands.',
      run: 'subcommands',
      commands: [
        {
          use: 'all',
          short: 'Renew all available certificates',
          long: 'Renew all known certificates necessary to run the control plane. Renewals are run unconditionally, regardless of expiration date. Renewals can also be run individually for more control.',
          run: 'run',
          flags: [config, certDir, kubeconfig],
        },
        ...ENTRIES.map((e) => renewCommand(e.name, e.long)),
      ],
    },
    unrecorded('check-expiration', 'Check certificates expiration for a Kubernetes cluster'),
    unrecorded('certificate-key', 'Generate certificate keys'),
    unrecorded('generate-csr', 'Generate keys and certificate signing requests'),
  ],
};

const upgrade: CobraCommand = {
  use: 'upgrade',
  short: 'Upgrade your cluster smoothly to a newer version with this command',
  run: 'subcommands',
  commands: [
    {
      use: 'plan [version] [flags]',
      short: 'Check which versions are available to upgrade to and validate whether your current cluster is upgradeable. To skip the internet check, pass in the optional [version] parameter',
      long: 'Check which versions are available to upgrade to and validate whether your current cluster is upgradeable. This command can only run on the control plane nodes where the kubeconfig file "admin.conf" exists. To skip the internet check, pass in the optional [version] parameter.',
      run: 'run',
      flags: [
        { name: 'allow-experimental-upgrades', type: 'bool', usage: 'Show unstable versions of Kubernetes as an upgrade alternative and allow upgrading to an alpha/beta/release candidate versions of Kubernetes.' },
        allowMissingTemplateKeys,
        { name: 'allow-release-candidate-upgrades', type: 'bool', usage: 'Show release candidate versions of Kubernetes as an upgrade alternative and allow upgrading to a release candidate versions of Kubernetes.' },
        config,
        { name: 'etcd-upgrade', type: 'bool', def: 'true', usage: 'Perform the upgrade of etcd.' },
        {
          name: 'ignore-preflight-errors',
          type: 'stringSlice',
          def: '[]',
          usage: "A list of checks whose errors will be shown as warnings. Example: 'IsPrivilegedUser,Swap'. Value 'all' ignores errors from all checks.",
        },
        kubeconfig,
        output,
        { name: 'print-config', type: 'bool', usage: 'Specifies whether the configuration file that will be used in the upgrade should be printed or not.' },
        showManagedFields,
      ],
    },
    unrecorded('apply [version]', 'Upgrade your Kubernetes cluster to the specified version'),
    unrecorded('diff [version]', 'Show what differences would be applied to existing static pod manifests. See also: kubeadm upgrade apply --dry-run'),
    unrecorded('node', 'Upgrade commands for a node in the cluster'),
  ],
};

export const KUBEADM: CobraCommand = {
  use: 'kubeadm',
  short: 'kubeadm: easily bootstrap a secure Kubernetes cluster',
  long: `

    ┌──────────────────────────────────────────────────────────┐
    │ KUBEADM                                                  │
    │ Easily bootstrap a secure Kubernetes cluster             │
    │                                                          │
    │ Please give us feedback at:                              │
    │ https://github.com/kubernetes/kubeadm/issues             │
    └──────────────────────────────────────────────────────────┘

Example usage:

    Create a two-machine cluster with one control-plane node
    (which controls the cluster), and one worker node
    (where your workloads, like Pods and Deployments run).

    ┌──────────────────────────────────────────────────────────┐
    │ On the first machine:                                    │
    ├──────────────────────────────────────────────────────────┤
    │ control-plane# kubeadm init                              │
    └──────────────────────────────────────────────────────────┘

    ┌──────────────────────────────────────────────────────────┐
    │ On the second machine:                                   │
    ├──────────────────────────────────────────────────────────┤
    │ worker# kubeadm join <arguments-returned-from-init>      │
    └──────────────────────────────────────────────────────────┘

    You can then repeat the second step on as many other machines as you like.
`,
  run: 'none',
  persistentFlags: [
    { name: 'rootfs', type: 'string', usage: "The path to the 'real' host root filesystem. This will cause kubeadm to chroot into the provided path." },
    { name: 'v', short: 'v', type: 'Level', def: '0', usage: 'number for the log level verbosity' },
    { name: 'vmodule', type: 'pattern=N,...', usage: 'comma-separated list of pattern=N settings for file-filtered logging' },
  ],
  commands: [
    certs,
    unrecorded('completion SHELL', 'Output shell completion code for the specified shell (bash or zsh)'),
    unrecorded('config', 'Manage configuration for a kubeadm cluster persisted in a ConfigMap in the cluster', [
      unrecorded('images', '', [unrecorded('list', ''), unrecorded('pull', '')]),
      unrecorded('migrate', ''),
      unrecorded('print', '', [unrecorded('init-defaults', ''), unrecorded('join-defaults', ''), unrecorded('reset-defaults', ''), unrecorded('upgrade-defaults', '')]),
      unrecorded('validate', ''),
    ]),
    INIT,
    JOIN,
    unrecorded('kubeconfig', 'Kubeconfig file utilities'),
    RESET,
    token,
    upgrade,
    {
      use: 'version',
      short: 'Print the version of kubeadm',
      run: 'run',
      flags: [{ name: 'output', short: 'o', type: 'string', usage: "Output format; available options are 'yaml', 'json' and 'short'" }],
    },
  ],
};

/** kubeadm's flag-name normalization (component-base cliflag.WordSepNormalizeFunc: `_` reads as `-`). */
export const normalizeFlag = (name: string): string => name.replaceAll('_', '-');
