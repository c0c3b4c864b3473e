/**
 * The JSON Schema of the scenario format, generated from the zod schema (z.toJSONSchema, input
 * side, so defaulted fields are optional) for editors: add
 * `# yaml-language-server: $schema=../../schema/scenario.schema.json` to a scenario file.
 * scripts/gen-schema.mjs writes it; json-schema.test.ts fails when the file is stale.
 */
import { z } from 'zod/v4';
import { ScenarioSchema } from './schema.js';

export function scenarioJsonSchema(): string {
  const schema = z.toJSONSchema(ScenarioSchema, { io: 'input', unrepresentable: 'any' });
  return `${JSON.stringify({ ...schema, $id: 'https://cka-lab.dev/schema/scenario.schema.json', title: 'cka-lab scenario' }, null, 2)}\n`;
}
