/**
 * The whole-shell transcript runner shared by the transcript suites (kubectl verbs, helm). Each
 * `.txt` file in a suite's directory is a sequence of `$ command` lines, each followed by its
 * exact output as a terminal shows it (stdout and stderr in the order they were written);
 * `#! edit s|from|to|` queues an edit for the next time kubectl opens the editor (`#! edit keep`
 * returns the text unchanged); `#! file PATH` … `#! end` writes a file on the workstation; a first
 * line `#! fixture NAME` runs the transcript on that fixture instead of kubeadm-calico (seed 1).
 * Comment lines (`# …`) heading the file are ignored and kept. UPDATE_GOLDEN=1 rewrites the
 * outputs from the current behaviour (review the diff!).
 */
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { readdirSync, readFileSync, writeFileSync } from 'node:fs';
import { loadFixture } from './fixtures.js';
import { Session } from '../shell/session.js';

type Step = { kind: 'cmd'; line: string; expected: string } | { kind: 'edit'; spec: string } | { kind: 'file'; path: string; content: string };

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
    else if (raw.startsWith('#! edit ')) steps.push({ kind: 'edit', spec: raw.slice(8) });
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

/** `s|from|to|` with an optional `g`; `keep` leaves the text unchanged. */
function editFn(spec: string): (text: string) => string {
  if (spec === 'keep') return (t) => t;
  const sep = spec[1]!;
  const [, from, to, flags] = spec.split(sep) as [string, string, string, string];
  return (t) => (flags.includes('g') ? t.split(from).join(to) : t.replace(from, to));
}

/** One test per transcript file in `dir`, named `<label>: <file>`. */
export function transcriptTests(dir: URL, label: string): void {
  for (const file of readdirSync(dir).filter((f) => f.endsWith('.txt')).sort()) {
    test(`${label}: ${file}`, async () => {
      const edits: ((t: string) => string)[] = [];
      const text = readFileSync(new URL(file, dir), 'utf8');
      const fixture = /^#! fixture (\S+)\n/.exec(text)?.[1];
      const s = new Session(loadFixture(fixture ?? 'kubeadm-calico', 1), {
        editor: async (text) => {
          const fn = edits.shift();
          return fn ? fn(text) : text;
        },
      });
      // the comment lines heading the file (after `#! fixture`) say what it proves: kept on rewrite
      const head = /^(?:#! fixture \S+\n)?((?:#(?!!)[^\n]*\n)*)/.exec(text)?.[1] ?? '';
      let rewritten = (fixture ? `#! fixture ${fixture}\n` : '') + head;
      for (const step of parse(text)) {
        if (step.kind === 'file') {
          s.cluster.host(s.cluster.meta.workstation)!.fs.write(step.path, step.content);
          rewritten += `#! file ${step.path}\n${step.content}#! end\n`;
          continue;
        }
        if (step.kind === 'edit') {
          edits.push(editFn(step.spec));
          rewritten += `#! edit ${step.spec}\n`;
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
}

/**
 * The lines run one by one in `s`, as the node-command goldens record them: `$ LINE`, its stdout,
 * its stderr, and `[exit N]` when it failed.
 */
export async function goldenTranscript(s: Session, lines: readonly string[]): Promise<string> {
  let out = '';
  for (const l of lines) {
    const r = await s.exec(l);
    out += `$ ${l}\n${r.stdout}${r.stderr}${r.exitCode ? `[exit ${r.exitCode}]\n` : ''}`;
  }
  return out;
}
