/**
 * `kubectl attach`: the command's declaration (flags, usage, help text).
 * Recorded from kubectl v1.35.2 by scripts/record-help.mjs: edit there, or by hand and re-check with
 * the help goldens (spec/help.test.ts).
 */
import type { CommandSpec } from './types.js';
import * as F from './flags.js';

export const attachSpec: CommandSpec = {
  name: "attach",
  short: "Attach to a running container",
  long: `Attach to a process that is already running inside an existing container.`,
  example: `  # Get output from running pod mypod; use the 'kubectl.kubernetes.io/default-container' annotation
  # for selecting the container to be attached or the first container in the pod will be chosen
  kubectl attach mypod
  
  # Get output from ruby-container from pod mypod
  kubectl attach mypod -c ruby-container
  
  # Switch to raw terminal mode; sends stdin to 'bash' in ruby-container from pod mypod
  # and sends stdout/stderr from 'bash' back to the client
  kubectl attach mypod -c ruby-container -i -t
  
  # Get output from the first pod of a replica set named nginx
  kubectl attach rs/nginx`,
  usage: "kubectl attach (POD | TYPE/NAME) -c CONTAINER [options]",
  flags: [
    F.container,
    F.podRunningTimeout,
    { name: "quiet", short: "q", type: "bool", defValue: "false", usage: "Only print output from the remote session" },
    { name: "stdin", short: "i", type: "bool", defValue: "false", usage: "Pass stdin to the container" },
    { name: "tty", short: "t", type: "bool", defValue: "false", usage: "Stdin is a TTY" },
  ],
};
