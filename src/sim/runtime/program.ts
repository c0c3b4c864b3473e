/**
 * What a container's process is, decided from its image and command the way the runtime would
 * start it: the image's default command (a server keeps running, busybox's `sh` with no terminal
 * exits at once), a shell script (`sh -c '…'`, interpreted by script.ts), or an executable run
 * directly (`sleep 3600`); an executable the image does not have fails to start (StartError).
 */
import type { Container } from '../api/types.js';
import type { ImageInfo } from '../images.js';

/** Commands the interpreter runs whether or not the catalogue lists them as tools. */
const BUILTINS = ['sleep', 'echo', 'true', 'false', 'date', 'cat', 'tail', 'printf', 'env', 'printenv', 'hostname', 'test', '['];

export type ContainerScript =
  | { kind: 'default'; runs: true }
  | { kind: 'default'; runs: false; exitCode: number }
  | { kind: 'script'; script: { sh: string } | { argv: string[] } }
  | { kind: 'not-found'; exe: string };

/** Whether the image has this executable (or the interpreter runs it as a builtin). */
export function imageHas(image: ImageInfo, name: string): boolean {
  return image.tools.includes(name) || (image.daemons ?? []).includes(name) || (BUILTINS.includes(name) && image.tools.includes('sh'));
}

/**
 * Images whose entrypoint hands arguments that are neither a flag nor its daemon to exec
 * (docker-library's nginx, redis, mysql and postgres docker-entrypoint.sh end in `exec "$@"`;
 * httpd's CMD is replaced by them).
 */
const EXECS_ARGS: ReadonlySet<string> = new Set(['docker.io/library/nginx', 'docker.io/library/httpd', 'docker.io/library/redis', 'docker.io/library/mysql', 'docker.io/library/postgres']);

export function containerScript(c: Container, image: ImageInfo): ContainerScript {
  const argv = [...(c.command ?? []), ...(c.args ?? [])];
  // a shell whose stdin is kept open (`stdin: true`: kubectl run -i, kubectl debug -i) waits on
  // it and runs until someone ends it; a base image's default command is its shell
  const shell = argv.length === 0 ? !image.defaultCommand.runs && image.tools.includes('sh') : argv.length === 1 && ['sh', 'bash', 'ash'].includes(argv[0]!.split('/').pop()!);
  if (c.stdin === true && shell) return { kind: 'default', runs: true };
  if (argv.length === 0) return image.defaultCommand.runs ? { kind: 'default', runs: true } : { kind: 'default', runs: false, exitCode: image.defaultCommand.exitCode };
  // args without command go to the image's entrypoint: most run their daemon whatever the args,
  // but the official images' docker-entrypoint.sh runs the daemon only for its own name or a flag
  // and otherwise execs the args (`exec "$@"`), and httpd has no entrypoint (args replace its CMD)
  if (!c.command && image.defaultCommand.runs && !(EXECS_ARGS.has(image.repository) && !argv[0]!.startsWith('-') && !(image.daemons ?? []).includes(argv[0]!.split('/').pop()!)))
    return { kind: 'default', runs: true };
  const exe = argv[0]!;
  const base = exe.split('/').pop()!;
  if ((base === 'sh' || base === 'bash' || base === 'ash') && /^-[a-z]*c[a-z]*$/.test(argv[1] ?? '')) {
    if (!image.tools.includes(base)) return { kind: 'not-found', exe };
    return { kind: 'script', script: { sh: argv[2] ?? '' } };
  }
  if (!image.tools.includes(base) && !(image.daemons ?? []).includes(base) && !['sleep', 'echo', 'true', 'false'].includes(base)) return { kind: 'not-found', exe };
  return { kind: 'script', script: { argv: [base, ...argv.slice(1)] } };
}
