import { test } from 'node:test';
import assert from 'node:assert/strict';
import { spawnSync } from 'node:child_process';
import { VALIDATE_V8_FLAGS, validateFlagsToSet } from './validate.js';

test('validate V8 flags: node itself accepts them (an unknown flag would end node with "bad option")', () => {
  const r = spawnSync(process.execPath, [...VALIDATE_V8_FLAGS, '-e', '0'], { encoding: 'utf8' });
  assert.equal(r.status, 0, r.stderr);
  assert.equal(r.stderr, '');
});

test('validate V8 flags: a flag the user gave node is kept, the others are set', () => {
  const [budget, inline] = VALIDATE_V8_FLAGS as [string, string];
  const cases: { name: string; execArgv: string[]; nodeOptions: string; set: string[] }[] = [
    { name: 'none', execArgv: [], nodeOptions: '', set: [budget, inline] },
    { name: 'other flags', execArgv: ['--enable-source-maps', '--max-old-space-size=4096'], nodeOptions: '--trace-warnings', set: [budget, inline] },
    { name: 'budget in execArgv', execArgv: ['--interrupt-budget=1000'], nodeOptions: '', set: [inline] },
    { name: 'underscore spelling', execArgv: ['--interrupt_budget=1000'], nodeOptions: '', set: [inline] },
    { name: 'both in NODE_OPTIONS', execArgv: [], nodeOptions: '--enable-source-maps --interrupt-budget=5000  --max-inlined-bytecode-size-cumulative=100', set: [] },
    { name: 'a negated flag counts as set', execArgv: ['--no-max-inlined-bytecode-size-cumulative'], nodeOptions: '', set: [budget] },
    { name: 'flags that start alike are others', execArgv: ['--interrupt-budget-for-feedback-allocation=940', '--max-inlined-bytecode-size=100'], nodeOptions: '--interrupt-budget-factor-for-feedback-allocation=8', set: [budget, inline] },
  ];
  for (const c of cases) assert.deepEqual(validateFlagsToSet(c.execArgv, c.nodeOptions), c.set, c.name);
});
