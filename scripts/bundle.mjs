#!/usr/bin/env node
// Bundles the CLI straight from src/ into a few ES module chunks (dist/bundle/): all that running
// needs, so `prepare` (on `npm ci`) is this alone; type-checking belongs to `npm run lint` and CI.
// Loading ~400 small modules costs most of a one-shot `cka-lab kubectl …`; a bundle with code
// splitting keeps the lazy per-command imports and loads in a fraction of that. bin/cka-lab
// prefers the bundle and falls back to dist/cli/main.js (`npm run build` also emits that, for bench).
//
// Beside the chunks, the same program as one classic script (dist/bundle/main.vm.cjs): Node 20 has
// no code cache for ES modules, so bin/cka-lab runs this file through vm.Script with V8's code
// cache (see the launcher); the chunks stay for the plain path, the worker threads and this script.
import { build } from 'esbuild';
import { createHash } from 'node:crypto';
import { isBuiltin } from 'node:module';
import { readFileSync, rmSync, writeFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import { dirname, join } from 'node:path';

const root = join(dirname(fileURLToPath(import.meta.url)), '..');
// chunk names carry content hashes: without a clean folder every build leaves the last one's behind
rmSync(join(root, 'dist/bundle'), { recursive: true, force: true });
/**
 * A package's own `"sideEffects": false` (its root package.json) for every file of it. esbuild reads
 * the field from the nearest package.json, and packages built for both module systems put one in
 * dist/esm/ that says only `"type": "module"`: @inquirer/prompts' index then kept every prompt it
 * re-exports, and with @inquirer/editor its external-editor, iconv-lite and chardet, ~590 KB that
 * every command reading the script bundle paid to read (the practice menu uses `select` alone).
 */
const packageSideEffects = {
  name: 'package-side-effects',
  setup(b) {
    const declared = new Map();
    const sideEffectsOf = (path) => {
      const i = path.lastIndexOf('/node_modules/');
      if (i < 0) return undefined;
      const [scope, name] = path.slice(i + 14).split('/');
      const root = path.slice(0, i + 14) + (scope.startsWith('@') ? `${scope}/${name}` : scope);
      if (!declared.has(root)) {
        let v;
        try {
          v = JSON.parse(readFileSync(join(root, 'package.json'), 'utf8')).sideEffects;
        } catch {
          // no package.json there: esbuild's own reading stands
        }
        declared.set(root, v);
      }
      return declared.get(root);
    };
    b.onResolve({ filter: /^[^./]/ }, async (args) => {
      if (args.pluginData === 'package-side-effects' || isBuiltin(args.path)) return undefined;
      const r = await b.resolve(args.path, { kind: args.kind, importer: args.importer, resolveDir: args.resolveDir, pluginData: 'package-side-effects' });
      if (r.errors.length || r.external || !r.path || sideEffectsOf(r.path) !== false) return undefined;
      return { path: r.path, sideEffects: false };
    });
  },
};
const common = {
  bundle: true,
  plugins: [packageSideEffects],
  platform: 'node',
  target: 'node20',
  logLevel: 'warning',
  // a third less source for V8 to read and pre-parse on every start (names stay, for stack traces);
  // syntax minification (constant folding, dead branches, shorter forms) takes a further ~5 % off a
  // one-shot command's CPU, while renaming identifiers (with keepNames) made it slower
  minifyWhitespace: true,
  minifySyntax: true,
};
const [result, script] = await Promise.all([
  build({
    ...common,
    // validate's worker threads load validate-worker.js from beside the chunk that starts them
    entryPoints: [
      { in: join(root, 'src/cli/main.ts'), out: 'main' },
      { in: join(root, 'src/scenario/validate-worker.ts'), out: 'validate-worker' },
      { in: join(root, 'src/scenario/library-index.ts'), out: 'library-index' },
    ],
    outdir: join(root, 'dist/bundle'),
    splitting: true,
    format: 'esm',
    // BUNDLE_META=1 keeps esbuild's metafile (which source lands in which chunk) for size work
    metafile: process.env.BUNDLE_META === '1',
    banner: { js: "import { createRequire as __ckaCreateRequire } from 'node:module'; const require = __ckaCreateRequire(import.meta.url);" },
  }),
  // The classic script: CommonJS without splitting (each lazily imported module becomes a function
  // that runs on its first import, so a command still runs only its own modules' top levels).
  // import.meta becomes the launcher's argument, whose url is dist/bundle/main.js: the files found
  // relative to it (validate-worker.js, scenario-index.json, fixture snapshots, package.json) are
  // the same as for the chunks.
  build({
    ...common,
    entryPoints: [join(root, 'src/cli/main.ts')],
    outfile: join(root, 'dist/bundle/main.vm.cjs'),
    format: 'cjs',
    define: { 'import.meta': '__ckaImportMeta' },
    write: false,
    metafile: true,
  }),
]);
if (result.metafile) writeFileSync(join(root, 'dist/bundle-meta.json'), JSON.stringify(result.metafile));

// The script as bin/cka-lab compiles it: a function expression taking CommonJS's arguments and
// import.meta ("use strict" stays the body's first statement, so the code keeps ES modules'
// strictness), after a first line naming the SHA-256 of what follows, the cache key's bundle part.
// The launcher reads it as latin1 (~1.5 ms; decoding UTF-8 took 20-40 ms once the file held one
// non-ASCII character, which also makes V8's string two bytes a character), exact only for ASCII:
// esbuild escapes strings and templates, but not regular expression literals, which must write \uXXXX.
const code = script.outputFiles[0].text;
// The script runs without an ES module loader: all it may leave to run time is require() of Node's
// builtins (a dynamic import() left in it would throw ERR_VM_DYNAMIC_IMPORT_CALLBACK_MISSING)
for (const out of Object.values(script.metafile.outputs))
  for (const i of out.imports) if (i.external && !(i.kind === 'require-call' && isBuiltin(i.path))) throw new Error(`bundle: main.vm.cjs would load ${i.path} (${i.kind}) at run time`);
const nonAscii = /[\u0080-\uffff]/.exec(code);
if (nonAscii) throw new Error(`bundle: a non-ASCII character in the bundled code (write it as \\u${nonAscii[0].charCodeAt(0).toString(16).padStart(4, '0')} in the source): …${code.slice(Math.max(0, nonAscii.index - 60), nonAscii.index + 20)}…`);
const body = `(function (exports, require, module, __filename, __dirname, __ckaImportMeta) {${code}\n})`;
const digest = createHash('sha256').update(body).digest('hex');
writeFileSync(join(root, 'dist/bundle/main.vm.cjs'), `// cka-lab script bundle sha256=${digest}\n${body}`);

// The scenario index (src/scenario/library-index.ts) beside the chunks: written by the code just
// bundled, so it matches that code's schema.
const { writeIndex, writePrebuilt, PREBUILT_DIR } = await import(join(root, 'dist/bundle/library-index.js'));
writeIndex(join(root, 'scenarios'), join(root, 'dist/bundle/scenario-index.json'));

// Settled fixture clusters (src/scenario/prebuilt.ts), built by the same code: a new session
// restores one instead of building its fixture.
writePrebuilt(join(root, 'fixtures'), join(root, 'dist/bundle', PREBUILT_DIR));
