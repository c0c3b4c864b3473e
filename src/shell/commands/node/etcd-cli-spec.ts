/**
 * The cobra command trees of etcdctl and etcdutl v3.6.5 as data, read from etcd-io/etcd at tag
 * v3.6.5: etcdctl/ctlv3/ctl.go (root and its persistent flags), etcdctl/ctlv3/command/*_command.go
 * and check.go (each command's Use, Short, Long, Example, Run and flags), etcdutl/ctl.go and
 * etcdutl/etcdutl/*_command.go. Only facts the help prints: a command without Run (`alarm`,
 * `member`, `snapshot`, …) is `run: 'none'`. Defaults are pflag's DefValue strings
 * (`[127.0.0.1:2379]`, `2s`, `10737418240`). etcdctl renders them with its own usage template
 * (etcdctl-usage.ts); etcdutl keeps cobra's (src/shell/cobra/command.ts).
 */
import type { CobraCommand, FlagDef } from '../../cobra/command.js';

const b = (name: string, usage: string, def = 'false', short?: string): FlagDef => ({ name, type: 'bool', def, usage, ...(short ? { short } : {}) });
const s = (name: string, usage: string, def = '', short?: string): FlagDef => ({ name, type: 'string', def, usage, ...(short ? { short } : {}) });
const i64 = (name: string, usage: string, def = '0'): FlagDef => ({ name, type: 'int64', def, usage });
const run = (use: string, short: string, extra: Partial<CobraCommand> = {}): CobraCommand => ({ use, short, run: 'run', ...extra });
const group = (use: string, short: string, commands: CobraCommand[], extra: Partial<CobraCommand> = {}): CobraCommand => ({ use, short, run: 'none', commands, ...extra });

/** etcdctl/util/normalizer.go Normalize: trimmed, every line trimmed and indented by two spaces. */
function normalize(text: string): string {
  return text
    .trim()
    .split('\n')
    .map((l) => `  ${l.trim()}`)
    .join('\n');
}

const SNAPSHOT_EXAMPLE = normalize(`
	# Save snapshot to a given file
	etcdctl snapshot save /backup/etcd-snapshot.db

	# Get snapshot from given address and save it to file
	etcdctl snapshot save --endpoints=127.0.0.1:3000 /backup/etcd-snapshot.db 
	
	# Get snapshot from given address with certificates
	etcdctl --endpoints=https://127.0.0.1:2379 --cacert=/etc/etcd/ca.crt --cert=/etc/etcd/etcd.crt --key=/etc/etcd/etcd.key snapshot save /backup/etcd-snapshot.db

	# Get snapshot wih certain user and password
	etcdctl --user=root --password=password123 snapshot save /backup/etcd-snapshot.db

	# Get snapshot from given address with timeout
	etcdctl --endpoints=https://127.0.0.1:2379 --dial-timeout=20s snapshot save /backup/etcd-snapshot.db

	# Save snapshot with desirable time format
	etcdctl snapshot save /mnt/backup/etcd/backup_$(date +%Y%m%d_%H%M%S).db`);

const completionLong = (tool: string): string => `To load completions:

Bash:

  $ source <(${tool} completion bash)

  # To load completions for each session, execute once:
  # Linux:
  $ ${tool} completion bash > /etc/bash_completion.d/${tool}
  # macOS:
  $ ${tool} completion bash > /usr/local/etc/bash_completion.d/${tool}

Zsh:

  # If shell completion is not already enabled in your environment,
  # you will need to enable it.  You can execute the following once:

  $ echo "autoload -U compinit; compinit" >> ~/.zshrc

  # To load completions for each session, execute once:
  $ ${tool} completion zsh > "\${fpath[1]}/_${tool}"

  # You will need to start a new shell for this setup to take effect.

fish:

  $ ${tool} completion fish | source

  # To load completions for each session, execute once:
  $ ${tool} completion fish > ~/.config/fish/completions/${tool}.fish

PowerShell:

  PS> ${tool} completion powershell | Out-String | Invoke-Expression

  # To load completions for every new session, run:
  PS> ${tool} completion powershell > ${tool}.ps1
  # and source this file from your PowerShell profile.
`;

const completion = (tool: string): CobraCommand => run('completion [bash|zsh|fish|powershell]', 'Generate completion script', { long: completionLong(tool), disableFlagsInUseLine: true });

const PUT_LONG = `
Puts the given key into the store.

When <value> begins with '-', <value> is interpreted as a flag.
Insert '--' for workaround:

$ put <key> -- <value>
$ put -- <key> <value>

If <value> isn't given as a command line argument and '--ignore-value' is not specified,
this command tries to read the value from standard input.

If <lease> isn't given as a command line argument and '--ignore-lease' is not specified,
this command tries to read the value from standard input.

For example,
$ cat file | put <key>
will store the content of the file to <key>.
`;

const TXN_LONG = `Txn reads multiple etcd requests from standard input and applies them as a single atomic transaction.

A transaction consists of three components:
1) a list of conditions,
2) a list of requests to apply if all the conditions are true,
3) a list of requests to apply if any condition is false.

Example interactive stdin usage:

---
etcdctl txn -i
# compares:
mod("key1") > "0"

# success requests (get, put, delete):
put key1 "overwrote-key1"

# failure requests (get, put, delete):
put key1 "created-key1"
put key2 "some extra key"
---

Refer to https://github.com/etcd-io/etcd/blob/main/etcdctl/README.md#txn-options.`;

const cluster = b('cluster', 'use all endpoints from the cluster member list');
const consistency = s('consistency', 'Linearizable(l) or Serializable(s)', 'l');
const checkFlags = (what: string, prefix: string, loads: string): FlagDef[] => [
  s('load', `The ${what} check's workload model. Accepted workloads: s(small), m(medium), l(large), xl(xLarge)${loads}`, 's'),
  s('prefix', `The prefix for writing the ${what} check's keys.`, prefix),
  b('auto-compact', 'Compact storage with last revision after test is finished.'),
  b('auto-defrag', 'Defragment storage after test is finished.'),
];

/** etcdctl/ctlv3/ctl.go init: the root's persistent flags. */
const ETCDCTL_GLOBAL: FlagDef[] = [
  { name: 'endpoints', type: 'stringSlice', def: '[127.0.0.1:2379]', usage: 'gRPC endpoints' },
  b('debug', 'enable client-side debug logging'),
  s('write-out', 'set the output format (fields, json, protobuf, simple, table)', 'simple', 'w'),
  b('hex', 'print byte strings as hex encoded strings'),
  { name: 'dial-timeout', type: 'duration', def: '2s', usage: 'dial timeout for client connections' },
  { name: 'command-timeout', type: 'duration', def: '5s', usage: 'timeout for short running command (excluding dial timeout)' },
  { name: 'keepalive-time', type: 'duration', def: '2s', usage: 'keepalive time for client connections' },
  { name: 'keepalive-timeout', type: 'duration', def: '6s', usage: 'keepalive timeout for client connections' },
  { name: 'max-request-bytes', type: 'int', def: '0', usage: 'client-side request send limit in bytes (if 0, it defaults to 2.0 MiB (2 * 1024 * 1024).)' },
  { name: 'max-recv-bytes', type: 'int', def: '0', usage: 'client-side response receive limit in bytes (if 0, it defaults to "math.MaxInt32")' },
  b('insecure-transport', 'disable transport security for client connections', 'true'),
  b('insecure-discovery', 'accept insecure SRV records describing cluster endpoints', 'true'),
  b('insecure-skip-tls-verify', 'skip server certificate verification (CAUTION: this option should be enabled only for testing purposes)'),
  s('cert', 'identify secure client using this TLS certificate file'),
  s('key', 'identify secure client using this TLS key file'),
  s('cacert', 'verify certificates of TLS-enabled secure servers using this CA bundle'),
  s('user', 'username[:password] for authentication (prompt if password is not supplied)'),
  s('password', "password for authentication (if this option is used, --user option shouldn't include password)"),
  s('discovery-srv', 'domain name to query for SRV records describing cluster endpoints', '', 'd'),
  s('discovery-srv-name', 'service name to query when using DNS discovery'),
];

export const ETCDCTL: CobraCommand = {
  use: 'etcdctl',
  short: 'A simple command line client for etcd3.',
  run: 'none',
  persistentFlags: ETCDCTL_GLOBAL,
  commands: [
    run('get [options] <key> [range_end]', 'Gets the key or a range of keys', {
      flags: [
        consistency,
        s('order', 'Order of results; ASCEND or DESCEND (ASCEND by default)'),
        s('sort-by', 'Sort target; CREATE, KEY, MODIFY, VALUE, or VERSION'),
        i64('limit', 'Maximum number of results'),
        b('prefix', 'Get keys with matching prefix'),
        b('from-key', 'Get keys that are greater than or equal to the given key using byte compare'),
        i64('rev', 'Specify the kv revision'),
        b('keys-only', 'Get only the keys'),
        b('count-only', 'Get only the count'),
        b('print-value-only', 'Only write values when using the "simple" output format'),
        i64('min-create-rev', 'Minimum create revision'),
        i64('max-create-rev', 'Maximum create revision'),
        i64('min-mod-rev', 'Minimum modification revision'),
        i64('max-mod-rev', 'Maximum modification revision'),
      ],
    }),
    run('put [options] <key> <value> (<value> can also be given from stdin)', 'Puts the given key into the store', {
      long: PUT_LONG,
      flags: [
        s('lease', 'lease ID (in hexadecimal) to attach to the key', '0'),
        b('prev-kv', 'return the previous key-value pair before modification'),
        b('ignore-value', 'updates the key using its current value'),
        b('ignore-lease', 'updates the key using its current lease'),
      ],
    }),
    run('del [options] <key> [range_end]', 'Removes the specified key or range of keys [key, range_end)', {
      flags: [
        b('prefix', 'delete keys with matching prefix'),
        b('prev-kv', 'return deleted key-value pairs'),
        b('from-key', 'delete keys that are greater than or equal to the given key using byte compare'),
        b('range', 'delete range of keys'),
      ],
    }),
    run('txn [options]', 'Txn processes all the requests in one transaction', { long: TXN_LONG, flags: [b('interactive', 'Input transaction in interactive mode', 'false', 'i')] }),
    run('compaction [options] <revision>', 'Compacts the event history in etcd', { flags: [b('physical', "'true' to wait for compaction to physically remove all old revisions")] }),
    group('alarm <subcommand>', 'Alarm related commands', [run('disarm', 'Disarms all alarms'), run('list', 'Lists all alarms')]),
    run('defrag', 'Defragments the storage of the etcd members with given endpoints', { persistentFlags: [cluster] }),
    group(
      'endpoint <subcommand>',
      'Endpoint related commands',
      [
        run('health', 'Checks the healthiness of endpoints specified in `--endpoints` flag'),
        run('status', 'Prints out the status of endpoints specified in `--endpoints` flag', {
          long: 'When --write-out is set to simple, this command prints out comma-separated status lists for each endpoint.\nThe items in the lists are endpoint, ID, version, db size, is leader, is learner, raft term, raft index, raft applied index, errors.\n',
        }),
        run('hashkv', 'Prints the KV history hash for each endpoint in --endpoints', { persistentFlags: [i64('rev', 'maximum revision to hash (default: latest revision)')] }),
      ],
      { persistentFlags: [cluster] },
    ),
    run('move-leader <transferee-member-id>', 'Transfers leadership to another etcd cluster member.'),
    run('watch [options] [key or prefix] [range_end] [--] [exec-command arg1 arg2 ...]', 'Watches events stream on keys or prefixes', {
      flags: [
        b('interactive', 'Interactive mode', 'false', 'i'),
        b('prefix', 'Watch on a prefix if prefix is set'),
        i64('rev', 'Revision to start watching'),
        b('prev-kv', 'get the previous key-value pair before the event happens'),
        b('progress-notify', 'get periodic watch progress notification from server'),
      ],
    }),
    run('version', 'Prints the version of etcdctl'),
    group('lease <subcommand>', 'Lease related commands', [
      run('grant <ttl>', 'Creates leases'),
      run('revoke <leaseID>', 'Revokes leases'),
      run('timetolive <leaseID> [options]', 'Get lease information', { flags: [b('keys', 'Get keys attached to this lease')] }),
      run('list', 'List all active leases'),
      run('keep-alive [options] <leaseID>', 'Keeps leases alive (renew)', { flags: [b('once', 'Resets the keep-alive time to its original value and cobrautl.Exits immediately')] }),
    ]),
    group('member <subcommand>', 'Membership related commands', [
      run('add <memberName> [options]', 'Adds a member into the cluster', {
        flags: [s('peer-urls', 'comma separated peer URLs for the new member.'), b('learner', 'indicates if the new member is raft learner')],
      }),
      run('remove <memberID>', 'Removes a member from the cluster'),
      run('update <memberID> [options]', 'Updates a member in the cluster', { flags: [s('peer-urls', 'comma separated peer URLs for the updated member.')] }),
      run('list', 'Lists all members in the cluster', {
        long: 'When --write-out is set to simple, this command prints out comma-separated member lists for each endpoint.\nThe items in the lists are ID, Status, Name, Peer Addrs, Client Addrs, Is Learner.\n',
        flags: [consistency],
      }),
      run('promote <memberID>', 'Promotes a non-voting member in the cluster', { long: 'Promotes a non-voting learner member to a voting one in the cluster.\n' }),
    ]),
    group('snapshot <subcommand>', 'Manages etcd node snapshots', [run('save <filename>', 'Stores an etcd node backend snapshot to a given file', { example: SNAPSHOT_EXAMPLE })], { example: SNAPSHOT_EXAMPLE }),
    run('make-mirror [options] <destination>', 'Makes a mirror at the destination etcd cluster', {
      flags: [
        s('prefix', 'Key-value prefix to mirror'),
        i64('rev', 'Specify the kv revision to start to mirror'),
        { name: 'max-txn-ops', type: 'uint', def: '128', usage: 'Maximum number of operations permitted in a transaction during syncing updates.' },
        s('dest-prefix', 'destination prefix to mirror a prefix to a different prefix in the destination cluster'),
        b('no-dest-prefix', 'mirror key-values to the root of the destination cluster'),
        s('dest-cert', 'Identify secure client using this TLS certificate file for the destination cluster'),
        s('dest-key', 'Identify secure client using this TLS key file'),
        s('dest-cacert', 'Verify certificates of TLS enabled secure servers using this CA bundle'),
        b('dest-insecure-transport', 'Disable transport security for client connections', 'true'),
        s('dest-user', 'Destination username[:password] for authentication (prompt if password is not supplied)'),
        s('dest-password', "Destination password for authentication (if this option is used, --user option shouldn't include password)"),
      ],
    }),
    run('lock <lockname> [exec-command arg1 arg2 ...]', 'Acquires a named lock', { flags: [{ name: 'ttl', type: 'int', def: '10', usage: 'timeout for session' }] }),
    run('elect <election-name> [proposal]', 'Observes and participates in leader election', { flags: [b('listen', 'observation mode', 'false', 'l')] }),
    group('auth <enable or disable>', 'Enable or disable authentication', [run('enable', 'Enables authentication'), run('disable', 'Disables authentication'), run('status', 'Returns authentication status')]),
    group('user <subcommand>', 'User related commands', [
      run('add <user name or user:password> [options]', 'Adds a new user', {
        flags: [
          b('interactive', 'Read password from stdin instead of interactive terminal', 'true'),
          s('new-user-password', 'Supply password from the command line flag'),
          b('no-password', 'Create a user without password (CN based auth only)'),
        ],
      }),
      run('delete <user name>', 'Deletes a user'),
      run('get <user name> [options]', 'Gets detailed information of a user', { flags: [b('detail', 'Show permissions of roles granted to the user')] }),
      run('list', 'Lists all users'),
      run('passwd <user name> [options]', 'Changes password of user', { flags: [b('interactive', 'If true, read password from stdin instead of interactive terminal', 'true')] }),
      run('grant-role <user name> <role name>', 'Grants a role to a user'),
      run('revoke-role <user name> <role name>', 'Revokes a role from a user'),
    ]),
    group('role <subcommand>', 'Role related commands', [
      run('add <role name>', 'Adds a new role'),
      run('delete <role name>', 'Deletes a role'),
      run('get <role name>', 'Gets detailed information of a role'),
      run('list', 'Lists all roles'),
      run('grant-permission [options] <role name> <permission type> <key> [endkey]', 'Grants a key to a role', {
        flags: [b('prefix', 'grant a prefix permission'), b('from-key', 'grant a permission of keys that are greater than or equal to the given key using byte compare')],
      }),
      run('revoke-permission <role name> <key> [endkey]', 'Revokes a key from a role', {
        flags: [b('prefix', 'revoke a prefix permission'), b('from-key', 'revoke a permission of keys that are greater than or equal to the given key using byte compare')],
      }),
    ]),
    group('check <subcommand>', 'commands for checking properties of the etcd cluster', [
      run('perf [options]', 'Check the performance of the etcd cluster', {
        flags: checkFlags('performance', '/etcdctl-check-perf/', '. Different workload models use different configurations in terms of number of clients and expected throughput.'),
      }),
      run('datascale [options]', 'Check the memory usage of holding data for different workloads on a given server endpoint.', {
        long: 'If no endpoint is provided, localhost will be used. If multiple endpoints are provided, first endpoint will be used.',
        flags: checkFlags('datascale', '/etcdctl-check-datascale/', ''),
      }),
    ]),
    completion('etcdctl'),
    group('downgrade <TARGET_VERSION>', 'Downgrade related commands', [
      run('validate <TARGET_VERSION>', 'Validate downgrade capability before starting downgrade'),
      run('enable <TARGET_VERSION>', 'Start a downgrade action to cluster'),
      run('cancel', 'Cancel the ongoing downgrade action to cluster'),
    ]),
  ],
};

/** etcdutl/ctl.go and etcdutl/etcdutl/*_command.go. */
export const ETCDUTL: CobraCommand = {
  use: 'etcdutl',
  short: 'An administrative command line tool for etcd3.',
  run: 'none',
  persistentFlags: [s('write-out', 'set the output format (fields, json, protobuf, simple, table)', 'simple', 'w')],
  commands: [
    run('defrag', 'Defragments the storage of the etcd', { flags: [s('data-dir', 'Required. Defragments a data directory not in use by etcd.')] }),
    group('snapshot <subcommand>', 'Manages etcd node snapshots', [
      run('restore <filename> --data-dir {output dir} [options]', 'Restores an etcd member snapshot to an etcd directory', {
        flags: [
          s('data-dir', 'Path to the output data directory'),
          s('wal-dir', 'Path to the WAL directory (use --data-dir if none given)'),
          s('initial-cluster', 'Initial cluster configuration for restore bootstrap', 'default=http://localhost:2380'),
          s('initial-cluster-token', 'Initial cluster token for the etcd cluster during restore bootstrap', 'etcd-cluster'),
          s('initial-advertise-peer-urls', "List of this member's peer URLs to advertise to the rest of the cluster", 'http://localhost:2380'),
          s('name', 'Human-readable name for this member', 'default'),
          b('skip-hash-check', 'Ignore snapshot integrity hash value (required if copied from data directory)'),
          { name: 'initial-memory-map-size', type: 'uint64', def: '10737418240', usage: 'Initial memory map size of the database in bytes. It uses the default value if not defined or defined to 0' },
          { name: 'bump-revision', type: 'uint64', def: '0', usage: 'How much to increase the latest revision after restore' },
          b('mark-compacted', 'Mark the latest revision after restore as the point of scheduled compaction (required if --bump-revision > 0, disallowed otherwise)'),
        ],
      }),
      run('status <filename>', 'Gets backend snapshot status of a given file', {
        long: 'When --write-out is set to simple, this command prints out comma-separated status lists for each endpoint.\nThe items in the lists are hash, revision, total keys, total size.\n',
      }),
    ]),
    run('hashkv <filename>', 'Prints the KV history hash of a given file', { flags: [i64('rev', 'maximum revision to hash (default: latest revision)')] }),
    run('version', 'Prints the version of etcdutl'),
    completion('etcdutl'),
    run('migrate', 'Migrates schema of etcd data dir files to make them compatible with different etcd version', {
      flags: [
        s('data-dir', 'Path to the etcd data dir'),
        s('target-version', 'Target etcd version to migrate contents of data dir. Minimal value 3.5. Format "X.Y" for example 3.6.'),
        b('force', 'Ignore migration failure and forcefully override storage version. Not recommended.'),
      ],
    }),
  ],
};
