/**
 * configMapGenerator and secretGenerator (sigs.k8s.io/kustomize/api/kv/kv.go,
 * generators/configmap.go, secret.go): data from `literals` (KEY=VALUE, surrounding quotes
 * dropped), `files` ([KEY=]PATH, the key defaulting to the file name) and `envs` (KEY=VALUE lines,
 * `#` comments); labels, annotations and the name-hash switch from generatorOptions merged with
 * the generator's own options. Secrets carry base64 data and type Opaque unless told.
 */
import { KustomizeError, type GeneratorArgs, type GeneratorOptions, type Obj } from './types.js';

export interface GenContext {
  /** Read a file relative to the kustomization's directory; undefined when missing. */
  read(path: string): string | undefined;
  /** The absolute path shown in errors. */
  abs(path: string): string;
}

function unquote(v: string): string {
  if (v.length >= 2 && ((v.startsWith('"') && v.endsWith('"')) || (v.startsWith("'") && v.endsWith("'")))) return v.slice(1, -1);
  return v;
}

function literal(src: string): [string, string] {
  const i = src.indexOf('=');
  if (i < 0) throw new KustomizeError(`invalid literal source ${src}, expected key=value`);
  return [src.slice(0, i), unquote(src.slice(i + 1))];
}

function envLines(text: string, file: string): [string, string][] {
  const out: [string, string][] = [];
  text.split('\n').forEach((raw, n) => {
    const line = raw.replace(/^\uFEFF/, '').replace(/\r$/, '');
    if (line.trim() === '' || line.trimStart().startsWith('#')) return;
    const i = line.indexOf('=');
    if (i < 0) {
      const key = line.trim();
      if (/\s/.test(key)) throw new KustomizeError(`key ${JSON.stringify(key)} has whitespace at line ${n + 1} of ${file}`);
      out.push([key, '']);
      return;
    }
    const key = line.slice(0, i).trimStart();
    if (/\s/.test(key)) throw new KustomizeError(`key ${JSON.stringify(key)} has whitespace at line ${n + 1} of ${file}`);
    out.push([key, line.slice(i + 1)]);
  });
  return out;
}

function basename(p: string): string {
  const parts = p.split('/').filter(Boolean);
  return parts[parts.length - 1] ?? p;
}

/** The key/value pairs a generator declares, in declaration order. */
export function generatorData(g: GeneratorArgs, ctx: GenContext): [string, string][] {
  const pairs: [string, string][] = [];
  for (const env of [...(g.envs ?? []), ...(g.env ? [g.env] : [])]) {
    const text = ctx.read(env);
    if (text === undefined) throw new KustomizeError(`env source files: [${env}]: evalsymlink failure on '${ctx.abs(env)}' : lstat ${ctx.abs(env)}: no such file or directory`);
    pairs.push(...envLines(text, env));
  }
  for (const l of g.literals ?? []) pairs.push(literal(l));
  for (const f of g.files ?? []) {
    const i = f.indexOf('=');
    const key = i >= 0 ? f.slice(0, i) : basename(f);
    const path = i >= 0 ? f.slice(i + 1) : f;
    const text = ctx.read(path);
    if (text === undefined) throw new KustomizeError(`evalsymlink failure on '${ctx.abs(path)}' : lstat ${ctx.abs(path)}: no such file or directory`);
    pairs.push([key, text]);
  }
  const seen = new Set<string>();
  for (const [k] of pairs) {
    if (seen.has(k)) throw new KustomizeError(`configmap ${g.name ?? ''} illegally repeats the key \`${k}\``);
    seen.add(k);
  }
  return pairs;
}

export function mergeOptions(global: GeneratorOptions | undefined, own: GeneratorOptions | undefined): GeneratorOptions {
  return {
    labels: { ...(global?.labels ?? {}), ...(own?.labels ?? {}) },
    annotations: { ...(global?.annotations ?? {}), ...(own?.annotations ?? {}) },
    disableNameSuffixHash: own?.disableNameSuffixHash ?? global?.disableNameSuffixHash ?? false,
    immutable: own?.immutable ?? global?.immutable ?? false,
  };
}

/** Build the object a generator makes. */
export function generate(kind: 'ConfigMap' | 'Secret', g: GeneratorArgs, opts: GeneratorOptions, ctx: GenContext): Obj {
  const pairs = generatorData(g, ctx);
  const metadata: Obj = { name: g.name ?? '' };
  if (g.namespace) metadata['namespace'] = g.namespace;
  if (opts.labels && Object.keys(opts.labels).length) metadata['labels'] = { ...opts.labels };
  if (opts.annotations && Object.keys(opts.annotations).length) metadata['annotations'] = { ...opts.annotations };
  const obj: Obj = { apiVersion: 'v1', kind, metadata };
  const data: Obj = {};
  for (const [k, v] of pairs) data[k] = kind === 'Secret' ? Buffer.from(v, 'utf8').toString('base64') : v;
  if (pairs.length > 0) obj['data'] = data;
  if (kind === 'Secret') obj['type'] = g.type ?? 'Opaque';
  if (opts.immutable) obj['immutable'] = true;
  return obj;
}
