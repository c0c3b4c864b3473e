/**
 * `kubectl debug`: the command's declaration (flags, usage, help text).
 * Recorded from kubectl v1.35.2 by scripts/record-help.mjs: edit there, or by hand and re-check with
 * the help goldens (spec/help.test.ts).
 */
import type { CommandSpec } from './types.js';

export const debugSpec: CommandSpec = {
  name: "debug",
  short: "Create debugging sessions for troubleshooting workloads and nodes",
  long: `Debug cluster resources using interactive debugging containers.

 'debug' provides automation for common debugging tasks for cluster objects identified by resource and name. Pods will be used by default if no resource is specified.

 The action taken by 'debug' varies depending on what resource is specified. Supported actions include:

  *  Workload: Create a copy of an existing pod with certain attributes changed, for example changing the image tag to a new version.
  *  Workload: Add an ephemeral container to an already running pod, for example to add debugging utilities without restarting the pod.
  *  Node: Create a new pod that runs in the node's host namespaces and can access the node's filesystem.

 Note: When a non-root user is configured for the entire target Pod, some capabilities granted by debug profile may not work.`,
  example: `  # Create an interactive debugging session in pod mypod and immediately attach to it.
  kubectl debug mypod -it --image=busybox
  
  # Create an interactive debugging session for the pod in the file pod.yaml and immediately attach to it.
  # (requires the EphemeralContainers feature to be enabled in the cluster)
  kubectl debug -f pod.yaml -it --image=busybox
  
  # Create a debug container named debugger using a custom automated debugging image.
  kubectl debug --image=myproj/debug-tools -c debugger mypod
  
  # Create a copy of mypod adding a debug container and attach to it
  kubectl debug mypod -it --image=busybox --copy-to=my-debugger
  
  # Create a copy of mypod changing the command of mycontainer
  kubectl debug mypod -it --copy-to=my-debugger --container=mycontainer -- sh
  
  # Create a copy of mypod changing all container images to busybox
  kubectl debug mypod --copy-to=my-debugger --set-image=*=busybox
  
  # Create a copy of mypod adding a debug container and changing container images
  kubectl debug mypod -it --copy-to=my-debugger --image=debian --set-image=app=app:debug,sidecar=sidecar:debug
  
  # Create an interactive debugging session on a node and immediately attach to it.
  # The container will run in the host namespaces and the host's filesystem will be mounted at /host
  kubectl debug node/mynode -it --image=busybox`,
  usage: "kubectl debug (POD | TYPE[[.VERSION].GROUP]/NAME) [ -- COMMAND [args...] ] [options]",
  flags: [
    { name: "arguments-only", type: "bool", defValue: "false", usage: "If specified, everything after -- will be passed to the new container as Args instead of Command." },
    { name: "attach", type: "bool", defValue: "false", usage: "If true, wait for the container to start running, and then attach as if 'kubectl attach ...' were called.  Default false, unless '-i/--stdin' is set, in which case the default is true." },
    { name: "container", short: "c", type: "string", defValue: "''", usage: "Container name to use for debug container." },
    { name: "copy-to", type: "string", defValue: "''", usage: "Create a copy of the target Pod with this name." },
    { name: "custom", type: "string", defValue: "''", usage: "Path to a JSON or YAML file containing a partial container spec to customize built-in debug profiles." },
    { name: "env", type: "stringArray", defValue: "[]", usage: "Environment variables to set in the container." },
    { name: "filename", short: "f", type: "stringSlice", defValue: "[]", usage: "identifying the resource to debug" },
    { name: "image", type: "string", defValue: "''", usage: "Container image to use for debug container." },
    { name: "image-pull-policy", type: "string", defValue: "''", usage: "The image pull policy for the container. If left empty, this value will not be specified by the client and defaulted by the server." },
    { name: "keep-annotations", type: "bool", defValue: "false", usage: "If true, keep the original pod annotations.(This flag only works when used with '--copy-to')" },
    { name: "keep-init-containers", type: "bool", defValue: "true", usage: "Run the init containers for the pod. Defaults to true.(This flag only works when used with '--copy-to')" },
    { name: "keep-labels", type: "bool", defValue: "false", usage: "If true, keep the original pod labels.(This flag only works when used with '--copy-to')" },
    { name: "keep-liveness", type: "bool", defValue: "false", usage: "If true, keep the original pod liveness probes.(This flag only works when used with '--copy-to')" },
    { name: "keep-readiness", type: "bool", defValue: "false", usage: "If true, keep the original pod readiness probes.(This flag only works when used with '--copy-to')" },
    { name: "keep-startup", type: "bool", defValue: "false", usage: "If true, keep the original startup probes.(This flag only works when used with '--copy-to')" },
    { name: "profile", type: "string", defValue: "'legacy'", usage: "Options are \"legacy\", \"general\", \"baseline\", \"netadmin\", \"restricted\" or \"sysadmin\"." },
    { name: "quiet", short: "q", type: "bool", defValue: "false", usage: "If true, suppress informational messages." },
    { name: "replace", type: "bool", defValue: "false", usage: "When used with '--copy-to', delete the original Pod." },
    { name: "same-node", type: "bool", defValue: "false", usage: "When used with '--copy-to', schedule the copy of target Pod on the same node." },
    { name: "set-image", type: "stringSlice", defValue: "[]", usage: "When used with '--copy-to', a list of name=image pairs for changing container images, similar to how 'kubectl set image' works." },
    { name: "share-processes", type: "bool", defValue: "true", usage: "When used with '--copy-to', enable process namespace sharing in the copy." },
    { name: "stdin", short: "i", type: "bool", defValue: "false", usage: "Keep stdin open on the container(s) in the pod, even if nothing is attached." },
    { name: "target", type: "string", defValue: "''", usage: "When using an ephemeral container, target processes in this container name." },
    { name: "tty", short: "t", type: "bool", defValue: "false", usage: "Allocate a TTY for the debugging container." },
  ],
};
