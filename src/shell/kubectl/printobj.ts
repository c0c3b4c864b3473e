/**
 * How verbs that change objects print them (cli-runtime pkg/genericclioptions PrintFlags +
 * NamePrinter with an operation): `deployment.apps/web created`, `-o name`, `-o yaml|json`,
 * `-o jsonpath=…`. Objects kubectl generated itself keep Go struct field order in JSON; YAML
 * always comes out key-sorted (sigs.k8s.io/yaml goes through a map).
 */
import type { KObject } from '../../sim/api/types.js';
import { kindInfoOf, kindPrefixOf } from '../printers/kindinfo.js';
import { marshalIndent } from '../printers/json.js';
import { toYaml } from '../printers/yaml.js';
import { toKyaml } from '../printers/kyaml.js';
import { sortKeys, toJson } from '../printers/serialize.js';
import { jsonPathParseError, printJsonPath } from '../printers/jsonpath.js';
import { parseGoTemplate, printGoTemplate } from '../printers/gotemplate.js';
import { KubectlError } from './errors.js';
import { dryRunSuffix, type DryRun } from './dry-run.js';

/** `-o` formats create/run/expose/apply/… accept (PrintFlags.AllowedFormats). */
export const ALLOWED_FORMATS = 'go-template,go-template-file,json,jsonpath,jsonpath-as-json,jsonpath-file,kyaml,name,template,templatefile,yaml';


/** Reject `-o wide`, `-o custom-columns=…` before anything runs, as PrintFlags.ToPrinter does. */
export function checkOutput(output: string | undefined): void {
  if (output === undefined || output === '') return;
  const name = output.split('=')[0]!;
  const ok = ['json', 'yaml', 'kyaml', 'name', 'jsonpath', 'jsonpath-as-json', 'jsonpath-file', ...GO_TEMPLATE_FORMATS].includes(name);
  if (!ok) throw new KubectlError(`unable to match a printer suitable for the output format "${output}", allowed formats are: ${ALLOWED_FORMATS}`);
  if ((name.startsWith('jsonpath') || GO_TEMPLATE_FORMATS.includes(name)) && !output.includes('=')) throw new KubectlError(`template format specified but no template given`);
  // PrintFlags.ToPrinter in Complete parses an inline template before any request is sent, so a
  // broken template refuses the command instead of printing an error after the object was created
  const template = output.slice(output.indexOf('=') + 1);
  if (name === 'jsonpath' || name === 'jsonpath-as-json') {
    const err = jsonPathParseError(template);
    if (err) throw new KubectlError(err);
  } else if (name === 'go-template' || name === 'template') {
    const parsed = parseGoTemplate(template);
    if (!parsed.ok) throw new KubectlError(parsed.error);
  }
}

const GO_TEMPLATE_FORMATS = ['go-template', 'template', 'go-template-file', 'templatefile'];

/**
 * `-o` after folding in `--template` (GetPrintFlags): `--template X` alone means `-o go-template=X`;
 * `-o go-template --template X` means the same; `-o go-template=X --template Y` matches no printer.
 */
export function withTemplateFlag(output: string | undefined, template: string | undefined): string | undefined {
  if (!template) return output;
  if (output === undefined || output === '') return `go-template=${template}`;
  if (GO_TEMPLATE_FORMATS.includes(output) || output.startsWith('jsonpath') && !output.includes('=')) return `${output}=${template}`;
  if (GO_TEMPLATE_FORMATS.includes(output.split('=')[0]!)) throw new KubectlError(`unable to match a printer suitable for the output format "${output}", allowed formats are: ${ALLOWED_FORMATS}`);
  return output;
}

/** A Go template that failed while running: kubectl wrote its debugging block to stdout first. */
export class TemplateFailure extends KubectlError {
  constructor(
    readonly stdout: string,
    message: string,
  ) {
    super(message);
  }
}

export interface PrintOptions {
  output: string | undefined;
  /** The verb's past tense: created, configured, exposed, deleted, labeled… */
  operation: string;
  dryRun: DryRun;
  /** true when kubectl built the object itself (client dry run): JSON keeps field order. */
  generated: boolean;
  allowMissingKeys?: boolean;
  /** Read a jsonpath-file or go-template-file template (undefined: no such file). */
  readFile?: (path: string) => string | undefined;
  /** --show-managed-fields: keep metadata.managedFields (cli-runtime JSONYamlPrintFlags). */
  showManagedFields?: boolean;
}

/** `deployment.apps/web` */
export function resourceName(obj: KObject): string {
  return `${kindPrefixOf(kindInfoOf(obj))}/${obj.metadata.name}`;
}

function stripManaged(obj: KObject): KObject {
  if (!obj.metadata || !('managedFields' in obj.metadata)) return obj;
  const { managedFields: _m, ...meta } = obj.metadata as KObject['metadata'] & { managedFields?: unknown };
  return { ...obj, metadata: meta };
}

/** Print one object the way the verb's printer would. */
export function printObject(obj: KObject, o: PrintOptions): string {
  const out = o.output ?? '';
  const fmt = out.split('=')[0]!;
  // cli-runtime JSONYamlPrintFlags wraps only its json/yaml/kyaml printers in OmitManagedFieldsPrinter
  const clean = o.showManagedFields || !['json', 'yaml', 'kyaml'].includes(fmt) ? obj : stripManaged(obj);
  if (fmt === '') return `${resourceName(obj)} ${o.operation}${dryRunSuffix(o.dryRun)}\n`;
  if (fmt === 'name') return `${resourceName(obj)}\n`;
  if (fmt === 'yaml') return toYaml(sortKeys(clean));
  if (fmt === 'json') return `${marshalIndent(o.generated ? toJson(clean) : sortKeys(clean))}\n`;
  if (fmt === 'kyaml') return toKyaml(o.generated ? toJson(clean) : sortKeys(clean));
  let template = out.slice(out.indexOf('=') + 1);
  if (GO_TEMPLATE_FORMATS.includes(fmt)) {
    if (fmt === 'go-template-file' || fmt === 'templatefile') {
      const text = o.readFile?.(template);
      if (text === undefined) throw new KubectlError(`error reading --template ${template}, open ${template}: no such file or directory`);
      template = text;
    }
    const parsed = parseGoTemplate(template);
    if (!parsed.ok) throw new KubectlError(parsed.error);
    const r = printGoTemplate(parsed.tmpl, template, o.generated ? toJson(clean) : sortKeys(clean), o.allowMissingKeys ?? true);
    if (!r.ok) throw new TemplateFailure(r.stdout, r.error);
    return r.text;
  }
  if (fmt === 'jsonpath-file') template = o.readFile?.(template) ?? '';
  const r = printJsonPath(template, o.generated ? toJson(clean) : sortKeys(clean), {
    allowMissingKeys: o.allowMissingKeys ?? true,
    outputJson: fmt === 'jsonpath-as-json',
  });
  if (!r.ok) throw new KubectlError(r.error);
  return r.text;
}

/** Several objects in one command (apply -f with many documents): YAML separated by `---`. */
export function printObjects(objs: readonly KObject[], o: PrintOptions): string {
  const fmt = (o.output ?? '').split('=')[0];
  return objs.map((obj, i) => (fmt === 'yaml' && i > 0 ? '---\n' : '') + printObject(obj, o)).join('');
}
