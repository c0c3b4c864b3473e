/**
 * Go's text/template in TypeScript: `parseTemplate` + `execute`, with Go's wording for parse and
 * execution errors. Used by `kubectl get -o go-template=…` (src/shell/printers/gotemplate.ts) and,
 * with Sprig-style functions (./sprig.ts), by Helm later. Pure: no I/O.
 */
import { execute, type MissingKey, TemplateExecError } from './exec.js';
import { BUILTINS, type FuncMap } from './funcs.js';
import { parseTemplate, TemplateParseError, type Tree } from './parse.js';
import type { GoValue } from './value.js';

export { TemplateExecError, TemplateParseError };
export type { FuncMap, MissingKey };
export { fromJson, GoNum, type GoValue } from './value.js';
export { sprintf } from './fmt.js';

/** A parsed template set (the named template and its `define`s). */
export class GoTemplate {
  private constructor(
    readonly name: string,
    private readonly trees: Map<string, Tree>,
    private readonly funcs: FuncMap,
  ) {}

  /** template.New(name).Funcs(funcs).Parse(text); throws TemplateParseError. */
  static parse(name: string, text: string, funcs: FuncMap = {}): GoTemplate {
    const all = { ...BUILTINS, ...funcs };
    return new GoTemplate(name, parseTemplate(name, text, new Set(Object.keys(all))), funcs);
  }

  /** Execute on data; throws TemplateExecError. */
  execute(data: GoValue, missingKey: MissingKey = 'default'): string {
    return execute(this.trees, this.name, data, { funcs: this.funcs, missingKey });
  }
}
