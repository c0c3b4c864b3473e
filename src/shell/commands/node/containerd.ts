/**
 * `containerd` on a node (containerd v2.1.4 cmd/containerd/command/config.go): `config default`
 * prints the default configuration (containerd-default-config.ts), for
 * `containerd config default > /etc/containerd/config.toml`. The daemon itself runs under systemd
 * (`systemctl restart containerd` rereads the file); starting a second one is not simulated.
 */
import type { CommandFn, CommandResult } from '../../types.js';
import { CONTAINERD_DEFAULT_CONFIG, CONTAINERD_VERSION } from './containerd-default-config.js';
import { nodeEnv, notInstalled } from './host.js';

export const containerd: CommandFn = (ctx): CommandResult => {
  const env = nodeEnv(ctx);
  if (!env) return notInstalled(ctx);
  const version = env.host.data.os.runtime.replace(/^containerd:\/\//, '');
  const args = ctx.argv.slice(1);
  if (args[0] === 'config' && args[1] === 'default' && args.length === 2) {
    if (version !== CONTAINERD_VERSION) return { stdout: '', stderr: `containerd: cka-lab has no recorded default configuration of containerd ${version}\n`, exitCode: 1 };
    return { stdout: CONTAINERD_DEFAULT_CONFIG, stderr: '', exitCode: 0 };
  }
  return { stdout: '', stderr: 'containerd: cka-lab simulates only `containerd config default` (the daemon runs under systemd: systemctl restart containerd)\n', exitCode: 1 };
};
