/**
 * A `kubectl create <generator>` subcommand (k8s.io/kubectl pkg/cmd/create/create_*.go): the
 * flags cobra marks required (every flag is declared in spec/create.ts), the prefix kubectl puts before a server error, and a
 * build step that turns the parsed flags into the object kubectl would send.
 */
import type { KObject } from '../../../../sim/api/types.js';
import type { KubectlEnv } from '../../context.js';
import type { Parsed } from '../../flags.js';
import type { Namespace } from '../../target.js';

export interface GenContext {
  env: KubectlEnv;
  /** The NAME argument (already checked: exactly one). */
  name: string;
  ns: Namespace;
  p: Parsed;
  /** Warnings for stderr (e.g. `Warning: 'foo' is not a standard resource verb`). */
  warnings: string[];
}

export interface Generator {
  name: string;
  aliases?: readonly string[];
  /** `create service nodeport`: the path shown in help hints. */
  path: string;
  required?: readonly string[];
  /** Text before a server error message, e.g. `failed to create deployment: `; none = standard formatting. */
  errorPrefix?: string;
  /** Does NAME come from the args (false for `create secret docker-registry`? no: all take NAME). */
  build(ctx: GenContext): KObject;
}

/** `metadata` in ObjectMeta field order: name, namespace (only with an explicit -n), labels. */
export function meta(ctx: GenContext, labels?: Record<string, string>, withNamespace = true): KObject['metadata'] {
  return {
    name: ctx.name,
    ...(withNamespace && ctx.ns.explicit ? { namespace: ctx.ns.name } : {}),
    ...(labels ? { labels } : {}),
  };
}
