#!/usr/bin/env node
// Bundles the CLI into a few ES module chunks (dist/bundle/) after `tsc` has type-checked and
// emitted dist/. Loading ~400 small modules costs most of a one-shot `cka-lab kubectl …`; a
// bundle with code splitting keeps the lazy per-command imports and loads in a fraction of that.
// bin/cka-lab prefers the bundle and falls back to dist/cli/main.js.
import { build } from 'esbuild';
import { fileURLToPath } from 'node:url';
import { dirname, join } from 'node:path';

const root = join(dirname(fileURLToPath(import.meta.url)), '..');
await build({
  entryPoints: [join(root, 'src/cli/main.ts')],
  outdir: join(root, 'dist/bundle'),
  bundle: true,
  splitting: true,
  format: 'esm',
  platform: 'node',
  target: 'node20',
  logLevel: 'warning',
  banner: { js: "import { createRequire as __ckaCreateRequire } from 'node:module'; const require = __ckaCreateRequire(import.meta.url);" },
});
