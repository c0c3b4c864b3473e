/**
 * Whole-shell helm transcripts against the simulated cluster (kubeadm-calico, seed 1), in the
 * format of kubectl's (src/shell/kubectl/verbs/transcripts.test.ts): each file in
 * testdata/transcripts/ is a sequence of `$ command` lines, each followed by its exact output as a
 * terminal shows it; `#! file PATH` … `#! end` writes a file on the workstation; a first line
 * `#! fixture NAME` picks another fixture. The charts come from the offline repository
 * (fixtures/helm/stable, served as https://charts.example.com/stable). UPDATE_GOLDEN=1 rewrites
 * the outputs from the current behaviour (review the diff!).
 */
import assert from 'node:assert/strict';
import { readdirSync, readFileSync, writeFileSync } from 'node:fs';
import { test } from 'node:test';
import { loadFixture } from '../../testing/fixtures.js';
import { Session } from '../session.js';

const dir = new URL('./testdata/transcripts/', import.meta.url);

type Step = { kind: 'cmd'; line: string; expected: string } | { kind: 'file'; path: string; content: string };

function parse(text: string): Step[] {
  const steps: Step[] = [];
  let file: { kind: 'file'; path: string; content: string } | undefined;
  for (const raw of text.split('\n')) {
    if (file) {
      if (raw === '#! end') {
        steps.push(file);
        file = undefined;
      } else file.content += `${raw}\n`;
      continue;
    }
    if (raw.startsWith('#! file ')) file = { kind: 'file', path: raw.slice(8), content: '' };
    else if (raw.startsWith('$ ')) steps.push({ kind: 'cmd', line: raw.slice(2), expected: '' });
    else {
      const last = steps[steps.length - 1];
      if (last?.kind === 'cmd') last.expected += `${raw}\n`;
    }
  }
  // the file ends with a newline: the final split element is empty
  const last = steps[steps.length - 1];
  if (last?.kind === 'cmd') last.expected = last.expected.slice(0, -1);
  return steps;
}

for (const file of readdirSync(dir).filter((f) => f.endsWith('.txt')).sort()) {
  test(`helm transcript: ${file}`, async () => {
    const text = readFileSync(new URL(file, dir), 'utf8');
    const fixture = /^#! fixture (\S+)\n/.exec(text)?.[1];
    const s = new Session(loadFixture(fixture ?? 'kubeadm-calico', 1));
    let rewritten = fixture ? `#! fixture ${fixture}\n` : '';
    for (const step of parse(text)) {
      if (step.kind === 'file') {
        s.cluster.host(s.cluster.meta.workstation)!.fs.write(step.path, step.content);
        rewritten += `#! file ${step.path}\n${step.content}#! end\n`;
        continue;
      }
      const r = await s.exec(step.line);
      const got = r.output.map((c) => c.text).join('');
      rewritten += `$ ${step.line}\n${got}`;
      if (!process.env['UPDATE_GOLDEN']) assert.equal(got, step.expected, `output of: ${step.line}`);
    }
    if (process.env['UPDATE_GOLDEN']) writeFileSync(new URL(file, dir), rewritten);
  });
}
