#!/usr/bin/env node
// Bundles the CLI straight from src/ into a few ES module chunks (dist/bundle/): all that running
// needs, so `prepare` (on `npm ci`) is this alone; type-checking belongs to `npm run lint` and CI.
// Loading ~400 small modules costs most of a one-shot `cka-lab kubectl …`; a bundle with code
// splitting keeps the lazy per-command imports and loads in a fraction of that. bin/cka-lab
// prefers the bundle and falls back to dist/cli/main.js (`npm run build` also emits that, for bench).
import { build } from 'esbuild';
import { rmSync, writeFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import { dirname, join } from 'node:path';

const root = join(dirname(fileURLToPath(import.meta.url)), '..');
// chunk names carry content hashes: without a clean folder every build leaves the last one's behind
rmSync(join(root, 'dist/bundle'), { recursive: true, force: true });
const result = await build({
  // validate's worker threads load validate-worker.js from beside the chunk that starts them
  entryPoints: [
    { in: join(root, 'src/cli/main.ts'), out: 'main' },
    { in: join(root, 'src/scenario/validate-worker.ts'), out: 'validate-worker' },
    { in: join(root, 'src/scenario/library-index.ts'), out: 'library-index' },
  ],
  outdir: join(root, 'dist/bundle'),
  bundle: true,
  splitting: true,
  format: 'esm',
  platform: 'node',
  target: 'node20',
  logLevel: 'warning',
  // a third less source for V8 to read and pre-parse on every start (names stay, for stack traces);
  // syntax minification (constant folding, dead branches, shorter forms) takes a further ~5 % off a
  // one-shot command's CPU, while renaming identifiers (with keepNames) made it slower
  minifyWhitespace: true,
  minifySyntax: true,
  // BUNDLE_META=1 keeps esbuild's metafile (which source lands in which chunk) for size work
  metafile: process.env.BUNDLE_META === '1',
  banner: { js: "import { createRequire as __ckaCreateRequire } from 'node:module'; const require = __ckaCreateRequire(import.meta.url);" },
});
if (result.metafile) writeFileSync(join(root, 'dist/bundle-meta.json'), JSON.stringify(result.metafile));

// The scenario index (src/scenario/library-index.ts) beside the chunks: written by the code just
// bundled, so it matches that code's schema.
const { writeIndex, writePrebuilt, PREBUILT_DIR } = await import(join(root, 'dist/bundle/library-index.js'));
writeIndex(join(root, 'scenarios'), join(root, 'dist/bundle/scenario-index.json'));

// Settled fixture clusters (src/scenario/prebuilt.ts), built by the same code: a new session
// restores one instead of building its fixture.
writePrebuilt(join(root, 'fixtures'), join(root, 'dist/bundle', PREBUILT_DIR));
