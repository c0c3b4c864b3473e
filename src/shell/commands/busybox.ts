/**
 * Which implementation a text tool is where it runs: GNU coreutils/grep/sed/gawk on the hosts
 * (Ubuntu) and in Debian-based images, busybox applets in containers whose tools are busybox's
 * (docker.io/library/busybox, registry.k8s.io/busybox, and Alpine-based images: sim/images.ts
 * `dns` 'busybox' or 'musl', the same test id.ts and the session's shell choice use).
 *
 * In busybox flavour the commands keep their GNU logic for what both print alike and take
 * busybox's words for errors, exit codes and usage: busybox's getopt32 (libbb/getopt32.c) parses
 * the applet's own option string through glibc getopt_long, so an unknown option is glibc's
 * message followed by the applet's usage (libbb/appletlib.c bb_show_usage: the banner, a blank line,
 * `Usage: …`), all on stderr, exit 1 (xfunc_error_retval; grep and sort set 2). `APPLET --help`
 * prints the same usage on stderr and exits 0 (show_usage_if_dash_dash_help; from 1.36 also with
 * further arguments, in 1.35 only when --help is the sole argument).
 * Recorded from busybox 1.36.1 (make defconfig, as docker-library/busybox builds it) and Debian's 1.35.
 * Alpine's busybox links musl, whose getopt words option errors differently; those are not modelled.
 */
import { podContainers, type Pod } from '../../sim/api/types.js';
import { lookupImage } from '../../sim/images.js';
import type { CommandContext, CommandResult } from '../types.js';
import { BUSYBOX_USAGE } from './busybox-usage.js';
import { getopt, type OptSpec, type ParsedOpts } from './util.js';

/** The banner busybox 1.36.1 (the busybox image) prints before an applet's usage. */
export const BUSYBOX_BANNER = 'BusyBox v1.36.1 (2023-05-18 22:34:17 UTC) multi-call binary.\n';

/**
 * Whether `ctx` runs inside a container whose text tools are busybox applets. `tool`: a tool the
 * image ships as its own package (netshoot's iproute2 `ip`) is not the applet.
 */
export function isBusybox(ctx: CommandContext, tool?: string): boolean {
  const loc = ctx.location;
  if (loc.kind !== 'pod') return false;
  const pod = ctx.cluster?.store.get<Pod>('Pod', loc.namespace, loc.pod);
  const ct = pod ? (podContainers(pod).find((c) => c.name === loc.container) ?? pod.spec.containers[0]) : undefined;
  const image = ct ? lookupImage(ct.image) : undefined;
  if (tool !== undefined && image?.packagedTools?.includes(tool)) return false;
  return image?.dns === 'busybox' || image?.dns === 'musl';
}

/** The banner and usage busybox prints for an applet (`cat --help`, after an option error). */
export function busyboxUsage(applet: string): string {
  const u = BUSYBOX_USAGE()[applet];
  return u === undefined ? BUSYBOX_BANNER : `${BUSYBOX_BANNER}\n${u}`;
}

/** bb_show_usage(): the usage on stderr with the applet's failure code. */
export function busyboxUsageError(applet: string, code = 1, message?: string): CommandResult {
  return { stdout: '', stderr: `${message ? `${message}\n` : ''}${busyboxUsage(applet)}`, exitCode: code };
}

/**
 * Parse argv (without argv[0]) with the applet's busybox option string: `--help` first prints the
 * usage (exit 0), an unknown option or a missing value the glibc message and the usage.
 * `spec.long` lists the applet's long options (getopt32long); without any, a `--word` is still
 * an unrecognized long option (busybox 1.36 always parses with getopt_long); `longOpts` false for
 * an applet that calls plain getopt(3).
 */
export function busyboxOpts(applet: string, args: string[], spec: OptSpec, code = 1, longOpts = true): { ok: true; opts: ParsedOpts } | { ok: false; result: CommandResult } {
  if (args[0] === '--help') return { ok: false, result: busyboxUsageError(applet, 0) };
  // an applet that calls plain getopt(3) (head) sees `--foo` as the options '-', 'f', 'o', 'o'
  const p = getopt(applet, args, longOpts ? { ...spec, long: spec.long ?? {} } : { short: spec.short, ...(spec.stopAtOperand ? { stopAtOperand: true } : {}) });
  if (!p.ok) return { ok: false, result: busyboxUsageError(applet, code, p.error) };
  return p;
}

/** libbb's "can't open 'FILE': ERRNO" (fopen_or_warn: cat, tail, uniq, sort -o). */
export function cantOpen(applet: string, file: string, error: string): string {
  return `${applet}: can't open '${file}': ${error}`;
}

/**
 * An applet that does what the GNU command does but words its errors its own way: run the GNU
 * command, after checking argv against the applet's options and that it has an operand (busybox
 * shows the usage without one), and rewrite each stderr line with the first rule that matches.
 */
export async function asApplet(
  ctx: CommandContext,
  gnu: (ctx: CommandContext) => CommandResult | Promise<CommandResult>,
  applet: { name: string; spec: OptSpec; needsOperand?: boolean; words: Array<[RegExp, string]> },
): Promise<CommandResult> {
  const p = busyboxOpts(applet.name, ctx.argv.slice(1), applet.spec);
  if (!p.ok) return p.result;
  if (applet.needsOperand && p.opts.operands.length === 0) return busyboxUsageError(applet.name);
  const r = await gnu(ctx);
  const reword = (text: string): string =>
    text
      .split(/(?<=\n)/)
      .map((line) => {
        const rule = applet.words.find(([re]) => re.test(line));
        return rule ? line.replace(rule[0], rule[1]) : line;
      })
      .join('');
  const chunks = (r as { chunks?: Array<{ stream: 'stdout' | 'stderr'; text: string }> }).chunks;
  return { ...r, stderr: reword(r.stderr), ...(chunks ? { chunks: chunks.map((c) => (c.stream === 'stderr' ? { ...c, text: reword(c.text) } : c)) } : {}) };
}
