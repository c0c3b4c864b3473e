/**
 * `cka-lab --version`: the version from package.json. Kept free of other imports so it starts
 * as fast as node itself (the bench's goal is ≤ 1.5 × `node -e 0`).
 */
import { readFileSync } from 'node:fs';

export function packageVersion(): string {
  // src/cli/version.ts and dist/cli/version.js both sit two levels below package.json
  const pkg = JSON.parse(readFileSync(new URL('../../package.json', import.meta.url), 'utf8')) as { version?: string };
  return pkg.version ?? '0.0.0';
}
