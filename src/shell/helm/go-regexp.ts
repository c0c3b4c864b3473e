/**
 * Go's regexp.Compile for a pattern a user gives helm (`helm list --filter`, pkg/action/list.go):
 * util/go-regexp.ts checks the syntax as Go's regexp/syntax does; its error becomes helm's.
 */
import { GoRegexpError, compileGoRegexp as compile, type GoRegexp } from '../../util/go-regexp.js';
import { HelmError } from './repo.js';

export type { GoRegexp };

/** regexp.Compile: Go's error as a HelmError, else a matcher on the linear-time engine. */
export function compileGoRegexp(pattern: string): GoRegexp {
  try {
    return compile(pattern);
  } catch (e) {
    if (e instanceof GoRegexpError) throw new HelmError(e.message);
    throw e;
  }
}
