/**
 * `helm template [NAME] CHART` (helm v4.1.4 pkg/cmd/template.go): an install in client dry-run
 * mode whose name is NameAndChart's (`release-name` without one; `--generate-name` with a name
 * is refused), `--labels` read and checked as install does; the manifest trimmed plus a newline,
 * CRDs first with --include-crds, then the hooks (tests included unless --skip-tests), each
 * `---\n# Source: PATH\nDOC\n`. With `-s/--show-only PATTERN` (repeatable) that text is split
 * into documents again (releaseutil.SplitManifests, in order) and, pattern by pattern, the
 * documents whose `# Source:` path without the chart's name matches it as a filepath.Match glob
 * are printed as `---\nDOC\n`; a pattern that matches none fails with `could not find template
 * PATTERN in chart` before anything is printed.
 */
import { LinearRegExp } from '../../util/regex/index.js';
import { type HelmArgs, bool, flag, flags, slogLine } from './args.js';
import { invalidReleaseName, validReleaseName } from './release.js';
import { type HelmEnv, namespaceOf, renderChart, userValues } from './env.js';
import { RenderError } from './engine.js';
import { ManifestError, sourceBlock } from './manifests.js';
import { nameAndChart, parseLabelsFlag, refuseSystemLabels } from './release-meta.js';
import { HelmError } from './repo.js';
import { locateChart } from './source.js';

const escapeRegex = (c: string): string => c.replace(/[.*+?^${}()|[\]\\/]/g, '\\$&');

/** Go's path/filepath.Match on `/`-separated paths: `*` and `?` stop at `/`, classes, `\` escapes. A bad pattern matches nothing. */
export function goPathMatch(pattern: string, name: string): boolean {
  let re = '^';
  for (let i = 0; i < pattern.length; i++) {
    const c = pattern[i]!;
    if (c === '*') re += '[^/]*';
    else if (c === '?') re += '[^/]';
    else if (c === '\\') {
      if (i + 1 >= pattern.length) return false;
      re += escapeRegex(pattern[++i]!);
    } else if (c === '[') {
      const end = pattern.indexOf(']', i + 2);
      if (end < 0) return false;
      let body = pattern.slice(i + 1, end);
      const neg = body.startsWith('^');
      if (neg) body = body.slice(1);
      if (body === '') return false;
      re += `[${neg ? '^' : ''}${body.replace(/[\]\\^]/g, (m) => `\\${m}`)}]`;
      i = end;
    } else re += escapeRegex(c);
  }
  try {
    return new LinearRegExp(`${re}$`).test(name);
  } catch {
    return false;
  }
}

/** releaseutil.SplitManifests in its key order: the documents of the text, trimmed, none empty before trimming. */
function splitDocuments(text: string): string[] {
  return text
    .trim()
    .split(/(?:^|\s*\n)---\s*/)
    .filter((d) => d !== '')
    .map((d) => d.trim());
}

/** --show-only: the documents each pattern selects, in pattern then document order. */
export function showOnly(text: string, patterns: readonly string[]): string {
  const docs = splitDocuments(text);
  const chosen: string[] = [];
  for (const f of patterns) {
    let missing = true;
    for (const doc of docs) {
      const m = /# Source: [^/]+\/(.+)/.exec(doc);
      if (!m || !goPathMatch(f, m[1]!)) continue;
      chosen.push(doc);
      missing = false;
    }
    if (missing) throw new HelmError(`could not find template ${f} in chart`);
  }
  return chosen.map((d) => `---\n${d}\n`).join('');
}

export function template(env: HelmEnv, a: HelmArgs): string {
  if (a.args.length === 0) throw new HelmError(`"helm template" requires at least 1 argument\n\nUsage:  helm template [NAME] [CHART] [flags]`);
  const labels = parseLabelsFlag(flags(a, 'labels'));
  const nameTemplate = flag(a, 'name-template');
  const { name, chart: ref } = nameAndChart(a.args, { generateName: bool(a, 'generate-name'), ...(nameTemplate ? { nameTemplate } : {}), releaseName: 'release-name', now: env.now(), random: () => env.random() });
  const user = userValues(env, a);
  const { chart } = locateChart(env.fs, env.cwd, env.home, ref, flag(a, 'version'));
  // availableName: template skips the reuse check (Replace) but not the name's form
  if (!validReleaseName(name)) {
    env.log.push(slogLine('ERROR', 'release name check failed', [['error', invalidReleaseName(name)]]));
    throw new HelmError(`release name check failed: ${invalidReleaseName(name)}`);
  }
  refuseSystemLabels(labels);
  let r: ReturnType<typeof renderChart>;
  try {
    r = renderChart(env, chart, user, { name, namespace: namespaceOf(a), revision: 1, isInstall: true, isUpgrade: false });
  } catch (e) {
    // cmd/template.go: a render failure (not a values or chart error) adds the --debug hint
    if (e instanceof RenderError || e instanceof ManifestError) throw new HelmError(`${e.message}\n\nUse --debug flag to render out invalid YAML`);
    throw e;
  }
  let manifest = '';
  if (bool(a, 'include-crds')) for (const c of chart.crds) manifest += sourceBlock({ path: `${chart.metadata.name}/${c.name}`, content: c.data.toString('utf8') });
  manifest += r.manifest;
  let out = `${manifest.trim()}\n`;
  for (const h of r.hooks) if (!(bool(a, 'skip-tests') && /\btest\b/.test(h.hook ?? ''))) out += sourceBlock(h);
  const patterns = flags(a, 'show-only');
  return patterns.length > 0 ? showOnly(out, patterns) : out;
}
