/** Table tests for the small formatters the node tools share (go-units, systemd). */
import { describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { unitsHumanDuration } from './host.js';
import { humanSize } from './crictl.js';
import { relative } from './systemctl.js';
import { linkLocal } from './netmodel.js';

describe('formatters', () => {
  const durations = [
    { ms: 500, want: 'Less than a second' },
    { ms: 1000, want: '1 second' },
    { ms: 45_000, want: '45 seconds' },
    { ms: 90_000, want: 'About a minute' },
    { ms: 30 * 60_000, want: '30 minutes' },
    { ms: 3_600_000, want: 'About an hour' },
    { ms: 5 * 3_600_000, want: '5 hours' },
    { ms: (5 * 24 + 4) * 3_600_000, want: '5 days' },
    { ms: 20 * 24 * 3_600_000, want: '2 weeks' },
  ];
  for (const t of durations) it(`HumanDuration ${t.ms}`, () => assert.equal(unitsHumanDuration(t.ms), t.want));

  const sizes = [
    { bytes: 320_368, want: '320kB' },
    { bytes: 27_350_000, want: '27.4MB' },
    { bytes: 159_200_000, want: '159MB' },
  ];
  for (const t of sizes) it(`HumanSize ${t.bytes}`, () => assert.equal(humanSize(t.bytes), t.want));

  const rel = [
    { ms: 45_000, want: '45s ago' },
    { ms: 90_000, want: '1min 30s ago' },
    { ms: 10 * 60_000, want: '10min ago' },
    { ms: 2 * 3_600_000 + 5 * 60_000, want: '2h 5min ago' },
    { ms: (5 * 24 + 4) * 3_600_000, want: '5 days ago' },
  ];
  for (const t of rel) it(`systemd relative ${t.ms}`, () => assert.equal(relative(t.ms), t.want));

  it('EUI-64 link-local from a MAC', () => assert.equal(linkLocal('52:54:00:a8:7a:0b'), 'fe80::5054:ff:fea8:7a0b/64'));
});
