/**
 * Validate many scenarios on worker threads: each worker proves one scenario at a time and asks
 * for the next, so a few slow tasks do not hold the rest back. Results come back in input order.
 * With one worker (or one scenario) everything runs in-process. Each worker keeps its own fixture
 * snapshot cache, so a fixture is built at most once per worker and seed.
 */
import { Worker } from 'node:worker_threads';
import { availableParallelism } from 'node:os';
import { fileURLToPath } from 'node:url';
import { extname } from 'node:path';
import type { Scenario } from './schema.js';
import { validateScenario, seedsFor, type ValidationResult } from './validate.js';
import type { WorkerReply, WorkerRequest } from './validate-worker.js';

export interface PoolOptions {
  /** Worker threads; CKA_LAB_VALIDATE_WORKERS, else the machine's parallelism (at most 4), by default. */
  workers?: number;
  /** Seeds for every scenario; seedsFor(scenario) by default. */
  seeds?: number[];
  /** Called with each result in input order, as soon as it and every earlier one are done. */
  onResult?: (r: ValidationResult, index: number) => void;
  /** Workers started earlier (startWorkers), used first; those not needed are ended. */
  started?: readonly Worker[];
}

/**
 * Start `n` workers now, for a validateMany called later in the same turn of the event loop (no
 * await in between, so no worker event is missed): each spends about half a second of CPU
 * compiling the simulation before it can take a task, which then overlaps with the caller's own
 * work (loading the library). They do not keep the process alive until validateMany uses them.
 */
export function startWorkers(n = defaultWorkers()): Worker[] {
  if (n <= 1) return [];
  return Array.from({ length: n }, () => {
    const w = startWorker();
    w.unref();
    return w;
  });
}

export function defaultWorkers(): number {
  // CKA_LAB_VALIDATE_WORKERS: a fixed count (benchmarks compare one worker with several)
  const fixed = Number(process.env['CKA_LAB_VALIDATE_WORKERS']);
  if (Number.isInteger(fixed) && fixed >= 1) return Math.min(fixed, 16);
  return Math.max(1, Math.min(4, availableParallelism()));
}

/**
 * A worker running validate-worker beside this module: the .js file when built or bundled; from
 * source (.ts, under tsx) a bootstrap that registers tsx's loader in the worker first, since a
 * worker thread does not inherit the parent's `--import tsx` hooks.
 */
function startWorker(): Worker {
  const ext = extname(fileURLToPath(import.meta.url)) || '.js';
  const url = new URL(`./validate-worker${ext}`, import.meta.url);
  if (ext !== '.ts') return new Worker(url, { resourceLimits: YOUNG });
  const tsx = import.meta.resolve('tsx/esm/api');
  return new Worker(`import(${JSON.stringify(tsx)}).then((t) => { t.register(); return import(${JSON.stringify(url.href)}); })`, { eval: true, resourceLimits: YOUNG });
}

/**
 * A larger young generation than V8's default (16 MB semi-spaces on 64-bit): validate makes a
 * copy of a cluster per run and per graded shell line, nearly all of it short-lived, and with
 * ~64 MB semi-spaces the scavenger's share of a worker's time fell from a quarter to a sixth.
 */
const YOUNG = { maxYoungGenerationSizeMb: 192 };

/** A rough cost, to hand out the heaviest first: runs per seed times seeds. */
function cost(s: Scenario): number {
  return (2 + s.mutations.length + s.alternatives.length) * seedsFor(s).length;
}

export async function validateMany(scenarios: readonly Scenario[], opts: PoolOptions = {}): Promise<ValidationResult[]> {
  const results: (ValidationResult | undefined)[] = new Array(scenarios.length);
  let flushed = 0;
  const done = (i: number, r: ValidationResult): void => {
    results[i] = r;
    while (flushed < scenarios.length && results[flushed]) {
      opts.onResult?.(results[flushed]!, flushed);
      flushed++;
    }
  };
  const seedOpt = opts.seeds ? { seeds: opts.seeds } : {};
  const n = Math.min(opts.workers ?? defaultWorkers(), scenarios.length);
  const started = [...(opts.started ?? [])];
  // started workers beyond what these scenarios need are ended (their exit is not waited for)
  for (const w of started.splice(n <= 1 ? 0 : n)) void w.terminate();
  if (n <= 1) {
    for (let i = 0; i < scenarios.length; i++) done(i, await validateScenario(scenarios[i]!, seedOpt));
    return results as ValidationResult[];
  }
  const queue = scenarios.map((s, i) => ({ s, i, c: cost(s) })).sort((a, b) => b.c - a.c || a.i - b.i);
  const run = (): Promise<void> =>
    new Promise((resolve, reject) => {
      const w = started.shift() ?? startWorker();
      w.ref();
      const feed = (): void => {
        const job = queue.shift();
        if (!job) {
          void w.terminate().then(() => resolve(), reject);
          return;
        }
        const { source: _source, ...plain } = job.s as Scenario & { source?: string };
        w.postMessage({ index: job.i, scenario: plain as Scenario, ...seedOpt } satisfies WorkerRequest);
      };
      w.on('message', (m: WorkerReply) => {
        done(m.index, m.result);
        feed();
      });
      w.on('error', reject);
      feed();
    });
  await Promise.all(Array.from({ length: n }, run));
  return results as ValidationResult[];
}
