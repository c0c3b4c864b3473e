/**
 * The `helm` workstation command: helm v4.1.4's client (wording from the real v4 binary, not
 * v3's), one file per subcommand. Errors print as `Error: MESSAGE` with exit status 1, and no
 * input can throw past this function. Releases live in the simulated cluster (release.ts);
 * repositories and charts in the workstation's filesystem.
 */
import { ApiServer } from '../../sim/apiserver.js';
import { ApiError } from '../../sim/api/errors.js';
import type { CommandContext, CommandFn, CommandResult } from '../types.js';
import { BudgetExceeded } from '../budget.js';
import { shellExtras } from '../commands/types.js';
import { HelmUsageError, parseArgs } from './args.js';
import { ChartLoadError } from './chart.js';
import { create } from './create.js';
import { dependency } from './dependency.js';
import { envCmd } from './env-cmd.js';
import { RenderError } from './engine.js';
import type { HelmEnv } from './env.js';
import { get } from './get.js';
import { history } from './history.js';
import { install, upgrade } from './install.js';
import { lint } from './lint.js';
import { packageChart } from './package.js';
import { GoPanic, list } from './list.js';
import { ManifestError } from './manifests.js';
import { pull } from './pull.js';
import { HelmError } from './repo.js';
import { repo } from './repo-cmd.js';
import { rollback } from './rollback.js';
import { search } from './search.js';
import { show } from './show.js';
import { status } from './status.js';
import { template } from './template.js';
import { test } from './test.js';
import { uninstall } from './uninstall.js';
import { ValuesError } from './values.js';
import { commandPath, helpAsked } from './help.js';
import { flagTable } from './flag-table.js';

type Sub = (env: HelmEnv, a: ReturnType<typeof parseArgs>) => string | Promise<string>;

const SUBCOMMANDS: Record<string, Sub> = {
  create,
  dependency,
  dep: dependency,
  env: (env, a) => envCmd(env.home, env.vars, a),
  get,
  history,
  hist: history,
  install,
  list,
  ls: list,
  package: packageChart,
  pull,
  fetch: pull,
  repo,
  rollback,
  search,
  show,
  inspect: show,
  status,
  template,
  test,
  uninstall,
  un: uninstall,
  delete: uninstall,
  del: uninstall,
  upgrade,
  version: () => 'version.BuildInfo{Version:"v4.1.4", GitCommit:"05fa37973dc9e42b76e1d2883494c87174b6074f", GitTreeState:"clean", GoVersion:"go1.25.9", KubeClientVersion:"v1.35"}\n',
};


/** A stable per-cluster seed for randAlphaNum: the clock, so the same commands give the same bytes. */
function seeded(seed: number): () => number {
  let s = seed >>> 0 || 1;
  return () => {
    s = (Math.imul(s, 1664525) + 1013904223) >>> 0;
    return s / 2 ** 32;
  };
}

export function helmEnv(ctx: CommandContext): HelmEnv {
  const emit = shellExtras(ctx).emit;
  const env: HelmEnv = {
    fs: ctx.fs,
    cwd: ctx.cwd,
    vars: ctx.env,
    home: ctx.env['HOME'] ?? (ctx.user === 'root' ? '/root' : `/home/${ctx.user}`),
    ...(ctx.cluster ? { api: new ApiServer(ctx.cluster), cluster: ctx.cluster } : {}),
    ...(shellExtras(ctx).budget ? { budget: shellExtras(ctx).budget } : {}),
    ...(shellExtras(ctx).jobs ? { jobs: shellExtras(ctx).jobs } : {}),
    now: ctx.now,
    random: seeded(ctx.now()),
    kubeVersion: 'v1.35.0',
    log: [],
  };
  if (emit) {
    env.flushLog = () => {
      const text = env.log.splice(0).join('');
      if (text) emit('stderr', text);
    };
  }
  return env;
}

export const helm: CommandFn = async (ctx): Promise<CommandResult> => {
  const [sub, ...rest] = ctx.argv.slice(1);
  const env = helmEnv(ctx);
  const asked = helpAsked(ctx.argv.slice(1), env.home);
  if (asked) return asked;
  // what parsing and the run wrote to stderr before the outcome
  const logged = (): string => env.log.join('');
  try {
    // the command's own flags (its recorded help); a later word may name a subcommand (`repo add`)
    const path = sub === undefined ? undefined : commandPath([sub, ...rest]);
    const a = parseArgs(rest, path !== undefined ? flagTable(path) : undefined);
    env.log.push(...a.notices);
    if (sub === 'lint') return { stdout: lint(env, a).stdout, stderr: logged(), exitCode: 0 };
    const fn = SUBCOMMANDS[sub ?? ''];
    if (!fn) throw new HelmError(`unknown command "${sub}" for "helm"\nRun 'helm --help' for usage.`);
    const stdout = await fn(env, a);
    ctx.cluster?.settle();
    return { stdout, stderr: logged(), exitCode: 0 };
  } catch (e) {
    if (e instanceof BudgetExceeded) throw e;
    ctx.cluster?.settle();
    const stdout = (e as { stdout?: string }).stdout ?? '';
    // a Go runtime panic: its own text on stderr and exit status 2, no `Error:` line
    if (e instanceof GoPanic) return { stdout, stderr: `${logged()}${e.message}`, exitCode: 2 };
    if (e instanceof HelmError || e instanceof HelmUsageError || e instanceof ChartLoadError || e instanceof RenderError || e instanceof ValuesError || e instanceof ManifestError || e instanceof ApiError) {
      return { stdout, stderr: `${logged()}Error: ${e.message}\n`, exitCode: 1 };
    }
    return { stdout, stderr: `${logged()}Error: ${(e as Error).message ?? String(e)}\n`, exitCode: 1 };
  }
};
