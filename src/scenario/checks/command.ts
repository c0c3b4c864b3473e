/**
 * `command`: the output (and exit status) of a shell line, run read-only on a private copy of the
 * learner's cluster from the workstation, a node or a container, e.g. `kubectl get pods -o name`.
 * The line goes through the same shell and tools the learner uses, so it sees what they would see.
 */
import { z } from 'zod/v4';
import { BASE_FIELDS, PlaceSchema, clip, defineCheck, placeLabel } from './types.js';
import { MatcherSchema, match } from './matchers.js';

export const commandCheck = defineCheck({
  kind: 'command',
  runsLines: true,
  schema: z
    .strictObject({
      ...BASE_FIELDS,
      kind: z.literal('command'),
      run: z.string().min(1),
      on: PlaceSchema.optional(),
      /** Which stream to match: stdout (default) or both (stdout then stderr). */
      stream: z.enum(['stdout', 'both']).default('stdout'),
      expect: MatcherSchema.optional(),
      exitCode: z.number().int().optional(),
      /** Reboot the `on` host first (on the check's copy): grades what persists across a reboot. */
      reboot: z.boolean().optional(),
    })
    .refine((c) => c.expect !== undefined || c.exitCode !== undefined, { message: 'give expect, exitCode or both' })
    .refine((c) => !c.reboot || (c.on !== undefined && 'host' in c.on), { message: 'reboot needs on: {host: NODE}' }),
  async evaluate(spec, ctx) {
    const r = await ctx.run(spec.run, spec.on, { reboot: spec.reboot === true });
    const text = spec.stream === 'both' ? r.stdout + r.stderr : r.stdout;
    const evidence = [`${r.transcript.join('\n')}\n${clip(r.stdout + r.stderr)}\n(exit ${r.exitCode})`];
    const where = `\`${spec.run}\` on ${placeLabel(spec.on)}${spec.reboot ? ' after a reboot' : ''}`;
    const at = { ...(spec.on ? { on: spec.on } : {}), ...(spec.reboot ? { reboot: true } : {}) };
    const exited = { code: 'exit', ...at, exitCode: r.exitCode, output: clip(r.stderr || r.stdout, 3) } as const;
    if (spec.exitCode !== undefined && r.exitCode !== spec.exitCode)
      return { ok: false, expected: `${where} exits ${spec.exitCode}`, actual: `exit ${r.exitCode}: ${clip(r.stderr || r.stdout, 3)}`, problem: exited, evidence };
    if (!spec.expect) return { ok: true, expected: `${where} exits ${spec.exitCode}`, actual: `exit ${r.exitCode}`, problem: exited, evidence };
    const m = match(text, spec.expect);
    const actual = m.actual === '' && r.stderr ? clip(r.stderr, 3) : m.actual;
    return { ok: m.ok, expected: `${where} output ${m.expected}`, actual, problem: { code: 'output', ...at, actual }, evidence };
  },
});
