/**
 * `cka-lab validate [PATH…]`: schema-check every scenario file (or the whole library) and prove
 * each one (untouched state fails, reference solution and alternatives pass, mutations fail; tasks
 * with params on several draws), on worker threads. Prints one line per scenario and its problems,
 * in order; exit status 1 on any failure.
 */
import { statSync } from 'node:fs';
import { resolve } from 'node:path';
import { setFlagsFromString } from 'node:v8';
import { formatLoadError, loadLibrary, loadScenarioFile, ScenarioLoadError, startWorkers, validateMany, type LoadedScenario, type LoadError } from '../scenario/index.js';
import type { CliIo } from './io.js';
import { libraryDir, libraryIndex } from './library.js';

/**
 * V8 flags for validate's threads. validate is a batch of ~3,000 short runs through most of the
 * simulator, whose objects come in many shapes: at V8's defaults TurboFan optimised 3,394
 * functions in one library run and threw 1,114 of them away again (`--trace-opt --trace-deopt`:
 * nearly all "wrong map"), and V8's compiler threads spent ~22 s of CPU beside the ~42 s of the
 * program itself, CPU the other worker needs on a 2-core machine.
 * - `--interrupt-budget`: eight times the default (67,584 bytes of bytecode run per feedback check
 *   on Node 20's V8 11.3), so only code that stays hot is optimised: whole-library wall time −25 %
 *   (2 workers, two interleaved rounds: 43.9 / 41.5 s → 33.9 / 29.1 s; 4× and 16× gave less).
 * - `--max-inlined-bytecode-size-cumulative`: half the default (920), smaller optimised units:
 *   lower in 7 of 8 interleaved pairs on top of the budget, median −3 % (a quarter of the default
 *   was no better).
 * Set before the workers start (V8's flags are the process's, every isolate reads them); a flag the
 * user set in node's own options is kept.
 */
export const VALIDATE_V8_FLAGS: readonly string[] = ['--interrupt-budget=540672', '--max-inlined-bytecode-size-cumulative=460'];

/** The flags of VALIDATE_V8_FLAGS that node's own options (`execArgv`, NODE_OPTIONS) do not set already. */
export function validateFlagsToSet(execArgv: readonly string[], nodeOptions: string): string[] {
  const given = [...execArgv, ...nodeOptions.split(/\s+/)].filter((a) => a.startsWith('--')).map(flagName);
  return VALIDATE_V8_FLAGS.filter((f) => !given.includes(flagName(f)));
}

/** A flag's name as V8 reads it: without `--no-`, the value, and with `_` for `-`. */
function flagName(arg: string): string {
  return arg.replace(/^--(no-)?/, '').replace(/=.*$/s, '').replaceAll('_', '-');
}

function tuneV8ForValidate(io: CliIo): void {
  const flags = validateFlagsToSet(process.execArgv, io.env['NODE_OPTIONS'] ?? '');
  if (flags.length > 0) setFlagsFromString(flags.join(' '));
}

export async function validateCommand(paths: string[], io: CliIo): Promise<number> {
  tuneV8ForValidate(io);
  const scenarios: LoadedScenario[] = [];
  const errors: LoadError[] = [];
  // parsing and schema-checking 164 files took ~3.5 s of CPU before any worker started; each
  // scenario's schema is checked again where it is proven (validateScenario)
  const known = libraryIndex();
  // the workers compile the simulation while the library loads
  const started = startWorkers();
  for (const p of paths.length ? paths.map((x) => resolve(io.cwd, x)) : [libraryDir(io)]) {
    let dir = false;
    try {
      dir = statSync(p).isDirectory();
    } catch {
      errors.push({ file: p, line: 1, column: 1, message: 'no such file or directory' });
      continue;
    }
    if (dir) {
      const lib = loadLibrary(p, known);
      scenarios.push(...lib.scenarios);
      errors.push(...lib.errors);
    } else {
      try {
        scenarios.push(loadScenarioFile(p, known));
      } catch (e) {
        if (e instanceof ScenarioLoadError) errors.push(...e.errors);
        else throw e;
      }
    }
  }
  for (const e of errors) io.stdout.write(`FAIL ${formatLoadError(e)}\n`);
  let failed = errors.length;
  await validateMany(scenarios, {
    started,
    onResult: (r) => {
      io.stdout.write(`${r.ok ? 'ok  ' : 'FAIL'} ${r.id}\n`);
      for (const p of r.problems) io.stdout.write(`     ${p}\n`);
      for (const w of r.warnings) io.stdout.write(`     warning: ${w}\n`);
      if (!r.ok) failed++;
    },
  });
  io.stdout.write(`${scenarios.length + errors.length - failed} passed, ${failed} failed\n`);
  return failed ? 1 : 0;
}
