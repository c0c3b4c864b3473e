/**
 * `cka-lab validate [PATH…]`: schema-check every scenario file (or the whole library) and prove
 * each one (untouched state fails, reference solution and alternatives pass, mutations fail; tasks
 * with params on several draws), on worker threads. Prints one line per scenario and its problems,
 * in order; exit status 1 on any failure.
 */
import { statSync } from 'node:fs';
import { resolve } from 'node:path';
import { formatLoadError, loadLibrary, loadScenarioFile, ScenarioLoadError, startWorkers, validateMany, type LoadedScenario, type LoadError } from '../scenario/index.js';
import type { CliIo } from './io.js';
import { libraryDir, libraryIndex } from './library.js';

export async function validateCommand(paths: string[], io: CliIo): Promise<number> {
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
