/**
 * `kubeadm` on a node: the binary the kubeadm package installed (sim/node/packages.ts), so
 * `kubeadm version` changes when `apt-get install kubeadm=…` does. Subcommands live in their own
 * files and are dispatched by the table below: version here; upgrade (kubeadm-upgrade.ts), token
 * (kubeadm-token.ts), join and its phases (kubeadm-join.ts), reset and its phases (kubeadm-reset.ts), config print (kubeadm-config.ts), config
 * images list|pull (kubeadm-images.ts),
 * init phase upload-certs (kubeadm-init.ts). Before any of them runs, the command line goes through
 * cobra as kubeadm declares it (kubeadm-spec.ts, src/shell/cobra/command.ts): `-h`/`--help`
 * anywhere, `kubeadm help …`, a group without its subcommand, unknown flags and commands are
 * answered there, so `kubeadm token create --help` prints the help and creates nothing.
 */
import type { CommandContext, CommandFn, CommandResult } from '../../types.js';
import type { ShellResult } from '../types.js';
import type { Cluster } from '../../../sim/cluster.js';
import type { Host } from '../../../sim/node/host.js';
import { nodeEnv, notInstalled } from './host.js';
import { kubeadmError, kubeadmVersion, versionInfo } from './kubeadm-lib.js';
import { upgradeApply, upgradeNode, upgradePlan } from './kubeadm-upgrade.js';
import { token } from './kubeadm-token.js';
import { join } from './kubeadm-join.js';
import { reset } from './kubeadm-reset.js';
import { configPrint } from './kubeadm-config.js';
import { configImages } from './kubeadm-images.js';
import { certs } from './kubeadm-certs.js';
import { init } from './kubeadm-init.js';
import { KUBEADM, normalizeFlag } from './kubeadm-spec.js';
import { commandPathText, helpString, nameOf, resolve } from '../../cobra/command.js';

type Sub = (c: Cluster, host: Host, ctx: CommandContext, args: string[], v: string) => CommandResult | ShellResult;

function version(_c: Cluster, _h: Host, _ctx: CommandContext, args: string[], v: string): CommandResult {
  const o = args.find((a) => a.startsWith('-o=') || a.startsWith('--output='))?.split('=')[1] ?? (args.includes('-o') ? args[args.indexOf('-o') + 1] : undefined);
  if (o === 'short') return { stdout: `${v}\n`, stderr: '', exitCode: 0 };
  return { stdout: versionInfo(v), stderr: '', exitCode: 0 };
}

function upgrade(c: Cluster, host: Host, ctx: CommandContext, args: string[]): CommandResult | ShellResult {
  const [verb, ...rest] = args;
  if (verb === 'plan') return upgradePlan(c, host, ctx);
  if (verb === 'apply') return upgradeApply(c, host, ctx, rest);
  if (verb === 'node') return upgradeNode(c, host, ctx, rest);
  return kubeadmError(`unknown command "${verb ?? ''}" for "kubeadm upgrade"`);
}

/** kubeadm's subcommands; other helpers add theirs here (e.g. certs). */
export const KUBEADM_SUBCOMMANDS: Record<string, Sub> = {
  version,
  upgrade,
  token: (c, h, ctx, args) => token(c, h, ctx, args),
  join: (c, h, ctx, args) => join(c, h, ctx, args),
  reset: (c, h, ctx, args) => reset(c, h, ctx, args),
  config: (c, h, ctx, args, v) => (args[0] === 'images' ? configImages(c, h, ctx, args.slice(1), v) : configPrint(args, v)),
  certs: (c, h, ctx, args) => certs(c, h, ctx, args),
  init: (c, h, ctx, args) => init(c, h, ctx, args),
};

export const kubeadm: CommandFn = (ctx) => {
  const env = nodeEnv(ctx);
  if (!env) return notInstalled(ctx);
  const { cluster: c, host } = env;
  const v = kubeadmVersion(c, host);
  if (!v) return notInstalled(ctx);
  const args = ctx.argv.slice(1);
  const outcome = resolve(KUBEADM, args, normalizeFlag);
  switch (outcome.kind) {
    case 'help':
      return { stdout: outcome.stdout, stderr: '', exitCode: 0 };
    case 'unknown-topic':
      return { stdout: '', stderr: outcome.stderr, exitCode: 0 };
    // the root is SilenceErrors/SilenceUsage: main's CheckErr prints the error and the stack-trace hint
    case 'error':
      return kubeadmError(outcome.message);
    case 'unrecorded-help':
      return { stdout: '', stderr: `cka-lab: the help of "${commandPathText(outcome.path)}" is not recorded in this lab; the command was not run\n`, exitCode: 0 };
    // cmdutil.SubCmdRun: the help and exit status 1, or `invalid subcommand` without the stack-trace hint
    case 'subcommands':
      if (outcome.args.length > 0) return { stdout: '', stderr: `invalid subcommand "${outcome.args.join(' ')}"\nSee '${commandPathText(outcome.path)} -h' for help and examples\n`, exitCode: 1 };
      return { stdout: helpString(outcome.path), stderr: '', exitCode: 1 };
    case 'run': {
      const word = args.find((a) => a === nameOf(outcome.path[1]!) || (outcome.path[1]!.aliases ?? []).includes(a));
      const sub = KUBEADM_SUBCOMMANDS[nameOf(outcome.path[1]!)];
      // init, join and reset get their `phase …` words and say themselves which phases they simulate
      if (!sub || word === undefined) return kubeadmError(`kubeadm ${commandPathText(outcome.path.slice(1))} is not simulated in this lab`);
      return sub(c, host, ctx, args.slice(args.indexOf(word) + 1), v);
    }
  }
};
