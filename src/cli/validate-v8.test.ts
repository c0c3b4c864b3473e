import { test } from 'node:test';
import assert from 'node:assert/strict';
import { spawnSync } from 'node:child_process';
import { VALIDATE_V8_FLAGS, setsInterruptBudget } from './validate.js';

test('validate V8 flags: node itself accepts them (an unknown flag would end node with "bad option")', () => {
  const r = spawnSync(process.execPath, [...VALIDATE_V8_FLAGS.split(' '), '-e', '0'], { encoding: 'utf8' });
  assert.equal(r.status, 0, r.stderr);
  assert.equal(r.stderr, '');
});

test('validate V8 flags: a budget the user gave node is kept', () => {
  const cases: { name: string; execArgv: string[]; nodeOptions: string; sets: boolean }[] = [
    { name: 'none', execArgv: [], nodeOptions: '', sets: false },
    { name: 'other flags', execArgv: ['--enable-source-maps', '--max-old-space-size=4096'], nodeOptions: '--trace-warnings', sets: false },
    { name: 'in execArgv', execArgv: ['--interrupt-budget=1000'], nodeOptions: '', sets: true },
    { name: 'underscore spelling', execArgv: ['--interrupt_budget=1000'], nodeOptions: '', sets: true },
    { name: 'in NODE_OPTIONS', execArgv: [], nodeOptions: '--enable-source-maps --interrupt-budget=5000', sets: true },
    { name: 'a different flag that starts alike', execArgv: ['--interrupt-budget-for-feedback-allocation=940'], nodeOptions: '--interrupt-budget-factor-for-feedback-allocation=8', sets: false },
  ];
  for (const c of cases) assert.equal(setsInterruptBudget(c.execArgv, c.nodeOptions), c.sets, c.name);
});
