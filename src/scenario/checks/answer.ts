/**
 * `answer`: a typed answer to a question such as "what is the Service CIDR?". The learner either
 * types `answer <text>` in the shell (kept in the session, see ../answers.ts) or writes the answer
 * to the file the task names; a typed answer wins when both exist.
 */
import { z } from 'zod/v4';
import { BASE_FIELDS, defineCheck } from './types.js';
import { MatcherSchema, match } from './matchers.js';

export const answerCheck = defineCheck({
  kind: 'answer',
  schema: z.strictObject({
    ...BASE_FIELDS,
    kind: z.literal('answer'),
    /** Which typed answer (`answer --key K …`); `default` for a plain `answer …`. */
    key: z.string().default('default'),
    /** The file the task asks the learner to write the answer to. */
    file: z.strictObject({ host: z.string(), path: z.string().startsWith('/') }).optional(),
    expect: MatcherSchema,
  }),
  evaluate(spec, ctx) {
    const typed = ctx.answers[spec.key];
    let actual: string | undefined = typed;
    let source = 'typed answer';
    if (actual === undefined && spec.file) {
      actual = ctx.cluster.host(spec.file.host)?.fs.tryRead(spec.file.path);
      source = `${spec.file.host}:${spec.file.path}`;
    }
    if (actual === undefined)
      return {
        ok: false,
        expected: `an answer ${spec.file ? `(typed or in ${spec.file.host}:${spec.file.path})` : '(type: answer <text>)'}`,
        actual: 'no answer given',
        problem: { code: 'no-answer', ...(spec.file ? { file: `${spec.file.host}:${spec.file.path}` } : {}) },
        evidence: [],
      };
    const r = match(actual, spec.expect);
    return { ok: r.ok, expected: `answer ${r.expected}`, actual: r.actual, problem: { code: 'answer', actual: r.actual }, evidence: [`${source}: ${actual.trim()}`] };
  },
});
