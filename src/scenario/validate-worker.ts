/** A validate-pool worker: proves the scenarios it is sent, one at a time, and replies with each result. */
import { parentPort } from 'node:worker_threads';
import type { Scenario } from './schema.js';
import { validateScenario, type ValidationResult } from './validate.js';

export interface WorkerRequest {
  index: number;
  scenario: Scenario;
  seeds?: number[];
}

export interface WorkerReply {
  index: number;
  result: ValidationResult;
}

parentPort?.on('message', (m: WorkerRequest) => {
  void (async () => {
    let result: ValidationResult;
    try {
      result = await validateScenario(m.scenario, m.seeds ? { seeds: m.seeds } : {});
    } catch (e) {
      result = { id: m.scenario.id, ok: false, problems: [`internal error: ${(e as Error).stack ?? String(e)}`], warnings: [], mutations: [], alternatives: [] };
    }
    parentPort!.postMessage({ index: m.index, result } satisfies WorkerReply);
  })();
});
