/**
 * Records src/shell/kubectl/verbs/testdata/explain/*.txt from the REAL kubectl v1.35 binary served
 * the simulator's OpenAPI data (tools/openapi-docs.ts), so the goldens come from kubectl's own
 * plaintext template, not from ../render.ts.
 *
 *   node scripts/real-kubectl.mjs                       # extract the binary once
 *   node --import tsx src/shell/kubectl/explain/tools/record-real.ts
 */
import { writeFileSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { discoveryLists, openapiDocs } from './openapi-docs.js';
import { commandLine, EXPLAIN_CASES } from '../../verbs/testdata/explain/cases.js';
// @ts-expect-error plain JS helper without types
import { runReal } from './real-server.mjs';

interface RealResult {
  status: number;
  stdout: string;
  stderr: string;
}

const dir = join(dirname(fileURLToPath(import.meta.url)), '../../verbs/testdata/explain');
const argvs = EXPLAIN_CASES.map((c) => c.argv);
const results = (await runReal(openapiDocs(), discoveryLists(), argvs)) as RealResult[];
for (const [i, c] of EXPLAIN_CASES.entries()) {
  const r = results[i]!;
  const text = `$ ${commandLine(c.argv)}\n${r.stdout}${r.stderr === '' ? '' : `[stderr]\n${r.stderr}`}[exit ${r.status}]\n`;
  writeFileSync(join(dir, `${c.name}.txt`), text);
  console.log(`${c.name}: exit ${r.status}`);
}
