/**
 * `kubectl exec`: the command's declaration (flags, usage, help text).
 * Recorded from kubectl v1.35.2 by scripts/record-help.mjs: edit there, or by hand and re-check with
 * the help goldens (spec/help.test.ts).
 */
import type { CommandSpec } from './types.js';
import * as F from './flags.js';

export const execSpec: CommandSpec = {
  name: "exec",
  short: "Execute a command in a container",
  long: `Execute a command in a container.`,
  example: `  # Get output from running the 'date' command from pod mypod, using the first container by default
  kubectl exec mypod -- date
  
  # Get output from running the 'date' command in ruby-container from pod mypod
  kubectl exec mypod -c ruby-container -- date
  
  # Switch to raw terminal mode; sends stdin to 'bash' in ruby-container from pod mypod
  # and sends stdout/stderr from 'bash' back to the client
  kubectl exec mypod -c ruby-container -i -t -- bash -il
  
  # List contents of /usr from the first container of pod mypod and sort by modification time
  # If the command you want to execute in the pod has any flags in common (e.g. -i),
  # you must use two dashes (--) to separate your command's flags/arguments
  # Also note, do not surround your command and its flags/arguments with quotes
  # unless that is how you would execute it normally (i.e., do ls -t /usr, not "ls -t /usr")
  kubectl exec mypod -i -t -- ls -t /usr
  
  # Get output from running 'date' command from the first pod of the deployment mydeployment, using the first container by default
  kubectl exec deploy/mydeployment -- date
  
  # Get output from running 'date' command from the first pod of the service myservice, using the first container by default
  kubectl exec svc/myservice -- date`,
  usage: "kubectl exec (POD | TYPE/NAME) [-c CONTAINER] [flags] -- COMMAND [args...] [options]",
  flags: [
    F.container,
    { name: "filename", short: "f", type: "stringSlice", defValue: "[]", usage: "to use to exec into the resource" },
    F.podRunningTimeout,
    { name: "quiet", short: "q", type: "bool", defValue: "false", usage: "Only print output from the remote session" },
    { name: "stdin", short: "i", type: "bool", defValue: "false", usage: "Pass stdin to the container" },
    { name: "tty", short: "t", type: "bool", defValue: "false", usage: "Stdin is a TTY" },
  ],
};
