/**
 * The cka-lab program: commander parses the command line, each top-level command lives in its
 * own file and is imported only when it runs, so `cka-lab --version` loads nothing but this file
 * and package.json. main() takes argv like process.argv (node, script, args…) and an optional
 * CliIo (tests inject streams); it resolves to the exit status.
 */
import type { CliIo } from './io.js';

const DESCRIPTION = 'CKA exam practice against a simulated Kubernetes v1.35 cluster';

export async function main(argv: readonly string[], injected?: CliIo): Promise<number> {
  const args = argv.slice(2);
  if (args.length === 1 && (args[0] === '--version' || args[0] === '-V')) {
    const { packageVersion } = await import('./version.js');
    (injected?.stdout ?? process.stdout).write(`${packageVersion()}\n`);
    return 0;
  }
  const { processIo, CliError } = await import('./io.js');
  const io = injected ?? processIo();
  let code: number;
  try {
    code = await runProgram(args, io);
  } catch (e) {
    if (e instanceof CliError) {
      io.stderr.write(`cka-lab: ${e.message}\n`);
      code = e.exitCode;
    } else {
      io.stderr.write(`cka-lab: internal error: ${e instanceof Error ? (e.stack ?? e.message) : String(e)}\n`);
      code = 70;
    }
  }
  if (!injected) process.exitCode = code;
  return code;
}

async function runProgram(args: string[], io: CliIo): Promise<number> {
  // `cka-lab kubectl ARGS…` hands its arguments to kubectl untouched (commander would drop the
  // first `--`, as in `exec pod -- ls`, and answer `--version` itself), and skips loading
  // commander, which is a tenth of a one-shot command's time
  if (args[0] === 'kubectl') return (await import('./kubectl.js')).kubectlCommand(args.slice(1), io);
  // a bare `cka-lab shell` (resume the default session) is the other command run many times a
  // day: what commander would make of it is known, so it skips loading commander too
  if (args.length === 1 && args[0] === 'shell') return (await import('./shell.js')).shellCommand({ session: 'default' }, io);
  const { Command, CommanderError, InvalidArgumentError, Option } = await import('commander');
  const { packageVersion } = await import('./version.js');
  let result = 0;
  const program = new Command('cka-lab')
    .description(DESCRIPTION)
    .version(packageVersion(), '-V, --version')
    .exitOverride()
    .configureOutput({ writeOut: (s) => io.stdout.write(s), writeErr: (s) => io.stderr.write(s) })
    .showHelpAfterError('(run with --help for usage)');
  const int = (v: string): number => {
    if (!/^\d+$/.test(v)) throw new InvalidArgumentError('Not a whole number.');
    return Number(v);
  };

  program
    .command('shell')
    .description('open (or resume) a sandbox session on a baseline cluster')
    .option('--fixture <name|path>', 'baseline cluster (a name in fixtures/ or a file)')
    .option('--seed <n>', 'random seed of the cluster', int)
    .option('--session <name>', 'session name', 'default')
    .action(async (o: { fixture?: string; seed?: number; session: string }) => {
      result = await (await import('./shell.js')).shellCommand(o, io);
    });

  program
    .command('kubectl')
    .description('run one kubectl command against the current session (alias k=\'cka-lab kubectl\')')
    .allowUnknownOption()
    .helpOption(false)
    .argument('[args...]')
    .action(async (a: string[]) => {
      result = await (await import('./kubectl.js')).kubectlCommand(a, io);
    });

  program
    .command('practice')
    .description('pick a task, solve it in the shell, grade it with `check`')
    .option('--domain <domain>', 'only tasks of this domain')
    .option('--topic <topic>', 'only tasks with this topic')
    .option('--lang <lang>', 'language of task texts and of the interface (en, ja, zh-CN; default: LC_ALL, LC_MESSAGES or LANG)')
    .option('--seed <n>', 'seed for the task parameters', int)
    .argument('[id]', 'scenario id')
    .action(async (id: string | undefined, o: { domain?: string; topic?: string; lang?: string; seed?: number }) => {
      result = await (await import('./practice.js')).practiceCommand(id, o, io);
    });

  program
    .command('exam')
    .description('timed mock exam, graded when time runs out or on `submit`')
    .option('--tasks <n>', 'number of tasks', int, 17)
    .option('--minutes <n>', 'time limit (default: the real exam\'s pace, 120 minutes for 17 tasks)', int)
    .option('--seed <n>', 'seed for the draw and the tasks', int)
    .option('--lang <lang>', 'language of task texts and of the interface (en, ja, zh-CN; default: LC_ALL, LC_MESSAGES or LANG)')
    .action(async (o: { tasks: number; minutes?: number; seed?: number; lang?: string }) => {
      result = await (await import('./exam.js')).examCommand(o, io);
    });

  program
    .command('check')
    .description('scored self-check of one domain or topic')
    .argument('<domain|topic>')
    .option('--lang <lang>', 'language of task texts and of the interface (en, ja, zh-CN; default: LC_ALL, LC_MESSAGES or LANG)')
    .option('--seed <n>', 'seed for the task parameters', int)
    .action(async (what: string, o: { lang?: string; seed?: number }) => {
      result = await (await import('./check.js')).checkCommand(what, o, io);
    });

  program
    .command('history')
    .description('past attempts and exams, weakest topics first')
    .option('--json', 'machine-readable output')
    .option('--lang <lang>', 'language of the interface (en, ja, zh-CN; default: LC_ALL, LC_MESSAGES or LANG)')
    .action(async (o: { json?: boolean; lang?: string }) => {
      result = await (await import('./history.js')).historyCommand(o, io);
    });

  program
    .command('list')
    .description('list the scenario library')
    .addOption(new Option('--domain <domain>', 'only this domain'))
    .option('--json', 'machine-readable output')
    .action(async (o: { domain?: string; json?: boolean }) => {
      result = await (await import('./list.js')).listCommand(o, io);
    });

  program
    .command('show')
    .description('show one scenario')
    .argument('<id>')
    .option('--lang <lang>', 'language of task texts and of the interface (en, ja, zh-CN; default: LC_ALL, LC_MESSAGES or LANG)')
    .action(async (id: string, o: { lang?: string }) => {
      result = await (await import('./show.js')).showCommand(id, o, io);
    });

  program
    .command('validate')
    .description('lint scenario files and prove each one (setup fails its checks, the solution passes)')
    .argument('[paths...]')
    .action(async (paths: string[]) => {
      result = await (await import('./validate.js')).validateCommand(paths, io);
    });

  try {
    await program.parseAsync(['node', 'cka-lab', ...args]);
  } catch (e) {
    if (e instanceof CommanderError) return e.code === 'commander.helpDisplayed' || e.code === 'commander.version' || e.exitCode === 0 ? 0 : e.exitCode === 1 ? 2 : e.exitCode;
    throw e;
  }
  return result;
}
