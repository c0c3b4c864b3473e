/**
 * The scenario format (scenarios/<domain>/<id>.yaml): data only. One zod schema is the single
 * source of truth: the loader validates with it, `scripts/gen-schema.mjs` turns it into
 * schema/scenario.schema.json for editors, and docs/scenarios.md describes it field by field.
 */
import { z } from 'zod/v4';
import { TextSchema } from './text.js';
import { CHECK_KINDS } from './checks/registry.js';
import { templated } from './checks/types.js';
import { DOMAINS, resolveCompetency, type Domain } from './curriculum.js';
import { nearestMsg } from './nearest.js';

export { nearest, nearestMsg } from './nearest.js';

export { DOMAINS, type Domain } from './curriculum.js';
const DOMAIN_NAMES = Object.keys(DOMAINS) as [Domain, ...Domain[]];

/** `30s`, `2m`, `1h30m` (the fixture format's durations). */
export const DurationSchema = z.string().regex(/^(?:\d+d)?(?:\d+h)?(?:\d+m)?(?:\d+s)?$/, 'a duration such as 30s, 2m, 1h30m').refine((s) => s !== '', 'a duration such as 30s, 2m, 1h30m');

const IDENT = /^[a-z][a-zA-Z0-9_]*$/;

export const ParamSchema = z.union([
  z.string(),
  z.number(),
  z.strictObject({ pick: z.array(z.union([z.string(), z.number()])).min(1) }),
  z.strictObject({ range: z.tuple([z.number().int(), z.number().int()]) }).refine((p) => p.range[0] <= p.range[1], 'range: the low end must not exceed the high end'),
  /** `{word}` a short word, `{n}` a digit, `{rand5}` five characters of apimachinery's alphabet; `{{other}}` an earlier param. */
  z.strictObject({ pattern: z.string().min(1) }),
]);
export type Param = z.infer<typeof ParamSchema>;

const ObjectRef = { kind: z.string(), name: z.string(), namespace: z.string().optional() };
const NodeName = { node: z.string() };

export const BreakSchema = z.discriminatedUnion('name', [
  z.strictObject({ name: z.literal('corrupt-corefile'), plugin: z.string().default('forward') }),
  z.strictObject({ name: z.literal('apiserver-flag'), flag: templated(/^[a-z0-9-]+$/, 'the flag name without leading dashes'), value: z.string() }),
  z.strictObject({ name: z.literal('stop-kubelet'), ...NodeName }),
  z.strictObject({ name: z.literal('iptables-rule'), ...NodeName, rule: z.string().min(1) }),
  z.strictObject({ name: z.literal('remove-cni-config'), ...NodeName }),
  z.strictObject({ name: z.literal('ip-forward-off'), ...NodeName }),
  z.strictObject({ name: z.literal('scale'), target: templated(/^[a-z]+\/[a-z0-9.-]+$/, 'kind/name, e.g. deployment/coredns'), namespace: z.string().default('default'), replicas: z.number().int().min(0) }),
]);
export type Break = z.infer<typeof BreakSchema>;

export const SetupStepSchema = z.union([
  /** Create (or replace) the objects of a YAML manifest, one or more documents. */
  z.strictObject({ apply: z.string().min(1) }),
  z.strictObject({ delete: z.strictObject({ ...ObjectRef }) }),
  /** A JSON merge patch (RFC 7386), as `kubectl patch --type=merge`. */
  z.strictObject({ patch: z.strictObject({ ...ObjectRef, merge: z.record(z.string(), z.unknown()) }) }),
  /** A shell line, on the workstation or (after `ssh`) on a host. */
  z.strictObject({ exec: z.union([z.string().min(1), z.strictObject({ host: z.string().optional(), run: z.string().min(1) })]) }),
  z.strictObject({
    file: z
      .strictObject({
        host: z.string(),
        path: z.string().startsWith('/'),
        content: z.string().optional(),
        replace: z.array(z.strictObject({ from: z.string().min(1), to: z.string(), all: z.boolean().default(false) })).optional(),
        remove: z.boolean().optional(),
      })
      .refine((f) => [f.content, f.replace, f.remove].filter((x) => x !== undefined).length === 1, 'give exactly one of content, replace, remove'),
  }),
  z.strictObject({ break: BreakSchema }),
  z.strictObject({ advance: DurationSchema }),
]);
export type SetupStep = z.infer<typeof SetupStepSchema>;

export const MutationSchema = z.strictObject({
  id: z.string().regex(/^[a-z0-9][a-z0-9-]*$/),
  description: TextSchema.optional(),
  /** Start from the state after setup (default) or after the reference solution. */
  after: z.enum(['setup', 'solution']).default('setup'),
  run: z.array(z.string().min(1)).min(1),
  /** Checks that must fail after these lines. */
  fails: z.array(z.string()).min(1),
});
export type Mutation = z.infer<typeof MutationSchema>;

/**
 * Another correct solution: validate replays it on a fresh setup and requires every check to pass,
 * so the checks grade the outcome, not the reference solution's exact steps.
 */
export const AlternativeSchema = z.strictObject({
  name: z.string().regex(/^[a-z0-9][a-z0-9-]*$/, 'lower-case letters, digits and dashes'),
  description: TextSchema.optional(),
  /** Shell lines, run in the learner's session as typed (starting on `host`), like `solution`. */
  run: z.array(z.string().min(1)).min(1),
});
export type Alternative = z.infer<typeof AlternativeSchema>;

const checkSchemas = CHECK_KINDS.map((k) => k.schema);
export const CheckSchema = z.discriminatedUnion('kind', checkSchemas as unknown as [typeof checkSchemas[number], ...typeof checkSchemas]);
export type CheckSpec = z.infer<typeof CheckSchema>;

export const ScenarioSchema = z
  .strictObject({
    id: z.string().regex(/^[a-z0-9][a-z0-9-]*$/, 'lower-case letters, digits and dashes'),
    title: TextSchema,
    domain: z.enum(DOMAIN_NAMES),
    /**
     * The curriculum line this task practises, e.g. "Troubleshoot cluster components" (see
     * curriculum.ts); older free text is mapped to its line when the scenario loads.
     */
    competency: z.string().min(1),
    /**
     * Tasks of one family are near-duplicates (two selector typos, two hosts entries): an exam
     * draws at most one of them.
     */
    family: z.string().regex(/^[a-z0-9][a-z0-9-]*$/, 'lower-case letters, digits and dashes').optional(),
    topics: z.array(z.string().regex(/^[a-z0-9][a-z0-9-]*$/)).min(1),
    difficulty: z.enum(['easy', 'medium', 'hard']),
    /** Points the task is worth in an exam (its checks' points are scaled to it). */
    weight: z.number().int().min(1).max(20),
    /** Target minutes. */
    minutes: z.number().int().min(1).max(60),
    // a fixture's name only: never a path (no `/`, `..` or `#` tricks out of the fixture folders)
    fixture: z.string().regex(/^[a-z0-9][a-z0-9-]*$/, 'a fixture name (lower-case letters, digits, dashes)'),
    /** The host the task starts on, as the exam's `ssh <host>` per task; the workstation when absent. */
    host: z.string().optional(),
    params: z.record(z.string().regex(IDENT, 'a parameter name: a letter, then letters, digits or _'), ParamSchema).default({}),
    setup: z.array(SetupStepSchema).default([]),
    task: TextSchema,
    hints: z.array(TextSchema).default([]),
    solution: z.array(z.string().min(1)).min(1),
    /** Other correct solutions; validate proves each passes every check. */
    alternatives: z.array(AlternativeSchema).default([]),
    explanation: TextSchema,
    /** Simulated time to let pass after the solution before grading (as a learner waits). */
    wait: DurationSchema.default('90s'),
    mutations: z.array(MutationSchema).default([]),
    checks: z.array(CheckSchema).min(1),
  })
  .superRefine((s, ctx) => {
    const ids = new Set<string>();
    s.checks.forEach((c, i) => {
      if (ids.has(c.id)) ctx.addIssue({ code: 'custom', path: ['checks', i, 'id'], message: `duplicate check id "${c.id}"` });
      ids.add(c.id);
    });
    s.mutations.forEach((m, i) =>
      m.fails.forEach((f, j) => {
        if (!ids.has(f)) ctx.addIssue({ code: 'custom', path: ['mutations', i, 'fails', j], message: `no check "${f}"${nearestMsg(f, [...ids])}` });
      }),
    );
    const names = new Set<string>();
    s.alternatives.forEach((a, i) => {
      if (names.has(a.name)) ctx.addIssue({ code: 'custom', path: ['alternatives', i, 'name'], message: `duplicate alternative name "${a.name}"` });
      names.add(a.name);
    });
  })
  // the canonical curriculum line for known free text; unknown text stays (a library test names it)
  .transform((s) => ({ ...s, competency: resolveCompetency(s.competency, s.domain)?.line ?? s.competency }));
export type Scenario = z.infer<typeof ScenarioSchema>;
export type ScenarioInput = z.input<typeof ScenarioSchema>;
