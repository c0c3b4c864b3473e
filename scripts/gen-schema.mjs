#!/usr/bin/env node
// Writes schema/scenario.schema.json from the zod schema in src/scenario/schema.ts.
// Usage: node --import tsx scripts/gen-schema.mjs   (src/scenario/json-schema.test.ts checks it is current)
import { mkdirSync, writeFileSync } from 'node:fs';

const { scenarioJsonSchema } = await import('../src/scenario/json-schema.ts');
mkdirSync(new URL('../schema/', import.meta.url), { recursive: true });
writeFileSync(new URL('../schema/scenario.schema.json', import.meta.url), scenarioJsonSchema());
console.log('wrote schema/scenario.schema.json');
