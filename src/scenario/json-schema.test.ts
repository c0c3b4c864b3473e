import { test } from 'node:test';
import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import { scenarioJsonSchema } from './json-schema.js';

test('schema/scenario.schema.json is generated from the zod schema (node --import tsx scripts/gen-schema.mjs)', () => {
  const file = readFileSync(new URL('../../schema/scenario.schema.json', import.meta.url), 'utf8');
  assert.equal(file, scenarioJsonSchema());
});

test('the JSON Schema lists every check kind and rejects unknown keys', () => {
  const s = JSON.parse(scenarioJsonSchema()) as { additionalProperties: boolean; properties: Record<string, unknown> };
  assert.equal(s.additionalProperties, false);
  const text = scenarioJsonSchema();
  for (const k of ['resource', 'endpoints', 'http', 'dns', 'file', 'node', 'command', 'answer']) assert.ok(text.includes(`"const": "${k}"`), k);
});
