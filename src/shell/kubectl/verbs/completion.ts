/**
 * `kubectl completion SHELL` (k8s.io/kubectl pkg/cmd/completion/completion.go): prints cobra's
 * completion script for bash, zsh, fish or powershell, recorded from kubectl v1.35. The exam's
 * first step, `source <(kubectl completion bash)`, runs the bash script in the shell (it defines
 * __start_kubectl and registers it with `complete`); the prompt's Tab completion itself is
 * ui/complete.ts. The scripts are loaded only when asked for, to keep them out of other commands.
 */
import type { Verb } from '../context.js';
import { KubectlError, seeHelp } from '../errors.js';

export const completionVerb: Verb = {
  name: 'completion',
  async run(inv) {
    const args = inv.parsed.args;
    // completion.go RunCompletion: the three usage errors, in this order
    if (args.length === 0) throw new KubectlError('Shell not specified.', seeHelp('completion'));
    if (args.length > 1) throw new KubectlError('Too many arguments. Expected only the shell type.', seeHelp('completion'));
    const { COMPLETION_SCRIPTS } = await import('./completion-scripts.generated.js');
    const script = COMPLETION_SCRIPTS[args[0]!];
    if (script === undefined) throw new KubectlError(`Unsupported shell type "${args[0]}".`, seeHelp('completion'));
    return { stdout: script, stderr: '', exitCode: 0 };
  },
};
