/**
 * `kubeadm` on a node: the binary the kubeadm package installed (sim/node/packages.ts), so
 * `kubeadm version` changes when `apt-get install kubeadm=…` does. Subcommands live in their own
 * files and are dispatched by the table below: version here; upgrade (kubeadm-upgrade.ts), token
 * (kubeadm-token.ts), join and reset (kubeadm-join.ts), config print (kubeadm-config.ts),
 * init phase upload-certs (kubeadm-init.ts).
 */
import type { CommandContext, CommandFn, CommandResult } from '../../types.js';
import type { ShellResult } from '../types.js';
import type { Cluster } from '../../../sim/cluster.js';
import type { Host } from '../../../sim/node/host.js';
import { nodeEnv, notInstalled } from './host.js';
import { kubeadmError, kubeadmVersion, versionInfo } from './kubeadm-lib.js';
import { upgradeApply, upgradeNode, upgradePlan } from './kubeadm-upgrade.js';
import { token } from './kubeadm-token.js';
import { join, reset } from './kubeadm-join.js';
import { configPrint } from './kubeadm-config.js';
import { certs } from './kubeadm-certs.js';
import { init } from './kubeadm-init.js';

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
  if (verb === 'node') return upgradeNode(c, host, ctx);
  return kubeadmError(`unknown command "${verb ?? ''}" for "kubeadm upgrade"`);
}

/** kubeadm's subcommands; other helpers add theirs here (e.g. certs). */
export const KUBEADM_SUBCOMMANDS: Record<string, Sub> = {
  version,
  upgrade,
  token: (c, h, ctx, args) => token(c, h, ctx, args),
  join: (c, h, ctx, args) => join(c, h, ctx, args),
  reset: (c, h, ctx, args) => reset(c, h, ctx, args),
  config: (_c, _h, _ctx, args, v) => configPrint(args, v),
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
  const sub = KUBEADM_SUBCOMMANDS[args[0] ?? ''];
  if (!sub) return kubeadmError(`unknown command "${args[0] ?? ''}" for "kubeadm"`);
  return sub(c, host, ctx, args.slice(1), v);
};
