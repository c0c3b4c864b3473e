#!/usr/bin/env node
// Rewrites every scenario's `competency:` line to its canonical CKA v1.35 curriculum line, through
// resolveCompetency (src/scenario/curriculum.ts: the curriculum, LEGACY_COMPETENCIES and first-clause
// matching). Re-run after merging new scenarios; it prints what it changed and any text it cannot
// map (add such text to LEGACY_COMPETENCIES, then run again). Exit status 1 when something is unmapped.
// Usage: node --import tsx scripts/canonical-competency.mjs [--check] [scenarios-dir]
import { readFileSync, readdirSync, statSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { parse } from 'yaml';

const { resolveCompetency } = await import('../src/scenario/curriculum.ts');
const args = process.argv.slice(2);
const check = args.includes('--check');
const dir = args.find((a) => !a.startsWith('--')) ?? new URL('../scenarios', import.meta.url).pathname;

const files = (d) => readdirSync(d).sort().flatMap((n) => (statSync(join(d, n)).isDirectory() ? files(join(d, n)) : /\.ya?ml$/.test(n) ? [join(d, n)] : []));
/** A plain scalar when YAML reads it back unchanged, else a double-quoted one. */
const yamlScalar = (s) => (/^[\w(]/.test(s) && !/: | #|[\n"']/.test(s) ? s : JSON.stringify(s));
let changed = 0;
const unmapped = [];
for (const file of files(dir)) {
  const text = readFileSync(file, 'utf8');
  let doc;
  try {
    doc = parse(text);
  } catch {
    continue; // the loader reports broken YAML
  }
  if (!doc || typeof doc.competency !== 'string') continue;
  const c = resolveCompetency(doc.competency, doc.domain);
  if (!c) {
    unmapped.push(`${file}: "${doc.competency}"`);
    continue;
  }
  if (c.line === doc.competency) continue;
  const re = /^competency:.*$/m;
  if (!re.test(text)) {
    unmapped.push(`${file}: competency is not a one-line key; edit it by hand to "${c.line}"`);
    continue;
  }
  changed++;
  console.log(`${file}: "${doc.competency}" → "${c.line}"`);
  if (!check) writeFileSync(file, text.replace(re, `competency: ${yamlScalar(c.line)}`));
}
for (const u of unmapped) console.error(`unmapped: ${u}`);
console.log(`${changed} ${check ? 'would change' : 'changed'}, ${unmapped.length} unmapped`);
process.exit(unmapped.length ? 1 : check && changed ? 1 : 0);
