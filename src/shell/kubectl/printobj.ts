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
import { sortKeys, toJson } from '../printers/serialize.js';
import { printJsonPath } from '../printers/jsonpath.js';
import { KubectlError } from './errors.js';
import type { FlagSpec } from './flags.js';
import { dryRunSuffix, type DryRun } from './dry-run.js';

/** `-o` formats create/run/expose/apply/… accept (PrintFlags.AllowedFormats). */
export const ALLOWED_FORMATS = 'go-template,go-template-file,json,jsonpath,jsonpath-as-json,jsonpath-file,kyaml,name,template,templatefile,yaml';

export const OUTPUT_FLAGS: FlagSpec[] = [
  { name: 'output', short: 'o', type: 'string' },
  { name: 'template', type: 'string' },
  { name: 'allow-missing-template-keys', type: 'bool', default: true },
  { name: 'show-managed-fields', type: 'bool' },
];

/** Reject `-o wide`, `-o custom-columns=…` before anything runs, as PrintFlags.ToPrinter does. */
export function checkOutput(output: string | undefined): void {
  if (output === undefined || output === '') return;
  const name = output.split('=')[0]!;
  const ok = ['json', 'yaml', 'name', 'jsonpath', 'jsonpath-as-json', 'jsonpath-file'].includes(name);
  if (!ok) throw new KubectlError(`unable to match a printer suitable for the output format "${output}", allowed formats are: ${ALLOWED_FORMATS}`);
  if (name.startsWith('jsonpath') && !output.includes('=')) throw new KubectlError(`template format specified but no template given`);
}

export interface PrintOptions {
  output: string | undefined;
  /** The verb's past tense: created, configured, exposed, deleted, labeled… */
  operation: string;
  dryRun: DryRun;
  /** true when kubectl built the object itself (client dry run): JSON keeps field order. */
  generated: boolean;
  allowMissingKeys?: boolean;
  /** Read a jsonpath-file template. */
  readFile?: (path: string) => string;
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
  const clean = stripManaged(obj);
  if (fmt === '') return `${resourceName(obj)} ${o.operation}${dryRunSuffix(o.dryRun)}\n`;
  if (fmt === 'name') return `${resourceName(obj)}\n`;
  if (fmt === 'yaml') return toYaml(sortKeys(clean));
  if (fmt === 'json') return `${marshalIndent(o.generated ? toJson(clean) : sortKeys(clean))}\n`;
  let template = out.slice(out.indexOf('=') + 1);
  if (fmt === 'jsonpath-file') template = o.readFile ? o.readFile(template) : '';
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
