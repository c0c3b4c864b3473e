/**
 * `containerd` on a node (containerd v2.1.4 cmd/containerd/command/config.go): `config default`
 * prints the default configuration (containerd-default-config.ts), for
 * `containerd config default > /etc/containerd/config.toml`; `--version`/`-v` prints the version
 * line (containerdVersionLine). The daemon itself runs under systemd (`systemctl restart
 * containerd` rereads the file); starting a second one is not simulated.
 */
import type { CommandFn, CommandResult } from '../../types.js';
import { CONTAINERD_DEFAULT_CONFIG, CONTAINERD_VERSION } from './containerd-default-config.js';
import { nodeEnv, notInstalled } from './host.js';

/**
 * The git commit each containerd release tag names (github.com/containerd/containerd, `git
 * rev-parse v2.1.4^{commit}`), which the release build links in as version.Revision.
 */
const RELEASE_REVISIONS: Readonly<Record<string, string>> = {
  '2.1.4': '75cb2b7193e4e490e9fbdc236c0e811ccaba3376',
};

/**
 * What `containerd --version` prints for the release tarball's binary of `version` (the node's
 * runtime, `containerd://2.1.4` in the CONTAINER-RUNTIME column of `kubectl get nodes -o wide`,
 * which CRI reports without the tag's `v`): cmd/containerd/command/main.go's VersionPrinter
 * prints the app name, version.Package, version.Version and version.Revision, which the
 * Makefile's GO_LDFLAGS set to `github.com/containerd/containerd/v2`, `git describe` (the tag,
 * `v2.1.4`) and the commit. (containerd.io, Docker's package, was first built for 2.x at 2.1.5.)
 * Undefined for a version whose commit is not recorded here.
 */
export function containerdVersionLine(version: string): string | undefined {
  const rev = RELEASE_REVISIONS[version];
  return rev === undefined ? undefined : `containerd github.com/containerd/containerd/v2 v${version} ${rev}\n`;
}

/** urfave/cli's version flag as containerd declares it (`version`, alias `v`), with one dash or two as Go's flag parsing takes them. */
const VERSION_FLAGS: ReadonlySet<string> = new Set(['--version', '-version', '-v', '--v']);

export const containerd: CommandFn = (ctx): CommandResult => {
  const env = nodeEnv(ctx);
  if (!env) return notInstalled(ctx);
  const version = env.host.data.os.runtime.replace(/^containerd:\/\//, '');
  const args = ctx.argv.slice(1);
  if (args.length === 1 && VERSION_FLAGS.has(args[0]!)) {
    const line = containerdVersionLine(version);
    if (line === undefined) return { stdout: '', stderr: `containerd: cka-lab has no recorded build of containerd ${version}\n`, exitCode: 1 };
    return { stdout: line, stderr: '', exitCode: 0 };
  }
  if (args[0] === 'config' && args[1] === 'default' && args.length === 2) {
    if (version !== CONTAINERD_VERSION) return { stdout: '', stderr: `containerd: cka-lab has no recorded default configuration of containerd ${version}\n`, exitCode: 1 };
    return { stdout: CONTAINERD_DEFAULT_CONFIG, stderr: '', exitCode: 0 };
  }
  return { stdout: '', stderr: 'containerd: cka-lab simulates only `containerd config default` (the daemon runs under systemd: systemctl restart containerd)\n', exitCode: 1 };
};
