/**
 * `kubectl edit` (k8s.io/kubectl pkg/cmd/util/editor/editoptions.go): the object as YAML under
 * kubectl's comment header goes to the user's editor (env.editor); comment lines are dropped; an
 * unchanged file cancels, an empty file aborts; an invalid result re-opens the file with the
 * reasons in the header, and giving up stores a copy in /tmp and fails, as kubectl does.
 */
import { parse as parseYaml } from 'yaml';
import { GO_YAML_TAGS } from '../manifest.js';
import { ApiError } from '../../../sim/api/errors.js';
import type { KObject } from '../../../sim/api/types.js';
import { qualifiedResource } from '../../../sim/api/registry.js';
import { toYaml } from '../../printers/yaml.js';
import { sortKeys } from '../../printers/serialize.js';
import type { Verb } from '../context.js';
import { KubectlError, RawError } from '../errors.js';
import { str } from '../flags.js';
import { printObject } from '../printobj.js';
import { namespaceOf, parseTargets, PROVIDE_RESOURCES } from '../target.js';
import { validationDirective, warningLines } from '../validate.js';
import { Streams } from '../streams.js';
import { recordChangeCause } from '../record.js';

const HEADER =
  "# Please edit the object below. Lines beginning with a '#' will be ignored,\n# and an empty file will abort the edit. If an error occurs while saving this file will be\n# reopened with the relevant failures.\n#\n";

function render(obj: KObject, reasons: string[]): string {
  const { managedFields: _m, ...meta } = obj.metadata as KObject['metadata'] & { managedFields?: unknown };
  return HEADER + reasons.join('') + toYaml(sortKeys({ ...obj, metadata: meta }));
}

const stripComments = (text: string): string =>
  text
    .split('\n')
    .filter((l) => !l.startsWith('#'))
    .join('\n');

export const editVerb: Verb = {
  name: 'edit',
  async run(inv, env) {
    const p = inv.parsed;
    if (p.args.length === 0) throw new RawError(`error: ${PROVIDE_RESOURCES}`);
    if (!env.editor) throw new KubectlError('unable to launch the editor "vi"');
    const ns = namespaceOf(env, p);
    const fieldValidation = validationDirective(p.flags);
    const { targets, typesOnly } = parseTargets(p.args, env.cluster.discovery(), env.shortNames);
    if (typesOnly.length) throw new KubectlError('resource(s) were provided, but no name was specified');
    const t = targets[0]!;
    // --subresource=status: the object is read from …/NAME/status and written back there
    const status = str(p.flags, 'subresource') === 'status';
    const live = status ? env.api.getStatus(t.info.kind, ns.name, t.name) : env.api.get(t.info.kind, ns.name, t.name);
    const fileName = `kubectl-edit-${env.cluster.random.int(1_000_000_000)}.yaml`;
    let original = render(live, []);
    let previous: string | undefined;
    for (let attempt = 0; attempt < 20; attempt++) {
      const edited = await env.editor(original, fileName);
      if (edited === undefined) throw new KubectlError('there was a problem with the editor "vi"');
      const body = stripComments(edited);
      if (body.trim() === '') return { stdout: '', stderr: 'Edit cancelled, saved file was empty.\n', exitCode: 0 };
      if (attempt === 0 && body === stripComments(original)) return { stdout: '', stderr: 'Edit cancelled, no changes made.\n', exitCode: 0 };
      if (previous !== undefined && body === previous) {
        const path = `/tmp/${fileName}`;
        env.fs.write(path, edited);
        return { stdout: '', stderr: `A copy of your changes has been stored to "${path}"\nerror: Edit cancelled, no valid changes were saved.\n`, exitCode: 1 };
      }
      previous = body;
      let obj: KObject;
      try {
        obj = parseYaml(body, GO_YAML_TAGS) as KObject;
      } catch (e) {
        original = `${HEADER}# The edited file had a syntax error: ${(e as Error).message.split('\n')[0]}\n#\n${body}`;
        continue;
      }
      try {
        if (!obj || typeof obj !== 'object' || obj.kind !== live.kind || obj.metadata?.name !== live.metadata.name)
          throw new KubectlError('At least one of apiVersion, kind and name was changed');
        delete obj.metadata.resourceVersion;
        const warnings: string[] = [];
        const updated = status ? env.api.updateStatus(obj, { fieldValidation, warnings }) : env.api.update(recordChangeCause(inv, obj), { fieldValidation, warnings });
        const io = new Streams();
        io.err(warningLines(env, warnings));
        io.out(printObject(updated, { output: str(p.flags, 'output'), operation: 'edited', dryRun: 'none', generated: false }));
        return io.result(0);
      } catch (e) {
        if (e instanceof ApiError && e.reason === 'Invalid' && e.details) {
          const head = `# ${qualifiedResource(env.cluster.discovery().infoForKind(live.kind))} "${live.metadata.name}" was not valid:\n`;
          const causes = e.details.causes.map((c) => `# * ${c.field}: ${c.body.split('\n').join('\n# ')}\n`).join('');
          original = `${HEADER}${head}${causes}#\n${body}`;
          continue;
        }
        if (e instanceof KubectlError) {
          original = `${HEADER}# ${e.message}\n#\n${body}`;
          continue;
        }
        throw e;
      }
    }
    throw new KubectlError('Edit cancelled, no valid changes were saved.');
  },
};
