/**
 * Kustomize as built into kubectl v1.35 (kustomize v5.7.1) on the simulated filesystem:
 * `build(fs, dir)` returns the objects in output order; `renderYaml` prints them the way
 * `kubectl kustomize` does (key-sorted YAML documents separated by `---`).
 */
import { toYaml } from '../printers/yaml.js';
import { sortKeys } from '../printers/serialize.js';
import type { Obj } from './types.js';

export { build, type BuildResult } from './build.js';
export { KustomizeError } from './types.js';

export function renderYaml(objects: readonly Obj[]): string {
  return objects.map((o) => toYaml(sortKeys(o))).join('---\n');
}
