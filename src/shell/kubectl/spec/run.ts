/**
 * `kubectl run`: the command's declaration (flags, usage, help text).
 * Recorded from kubectl v1.35.2 by scripts/record-help.mjs: edit there, or by hand and re-check with
 * the help goldens (spec/help.test.ts).
 */
import type { CommandSpec } from './types.js';
import * as F from './flags.js';

export const runSpec: CommandSpec = {
  name: "run",
  short: "Run a particular image on the cluster",
  long: `Create and run a particular image in a pod.`,
  example: `  # Start a nginx pod
  kubectl run nginx --image=nginx
  
  # Start a hazelcast pod and let the container expose port 5701
  kubectl run hazelcast --image=hazelcast/hazelcast --port=5701
  
  # Start a hazelcast pod and set environment variables "DNS_DOMAIN=cluster" and "POD_NAMESPACE=default" in the container
  kubectl run hazelcast --image=hazelcast/hazelcast --env="DNS_DOMAIN=cluster" --env="POD_NAMESPACE=default"
  
  # Start a hazelcast pod and set labels "app=hazelcast" and "env=prod" in the container
  kubectl run hazelcast --image=hazelcast/hazelcast --labels="app=hazelcast,env=prod"
  
  # Dry run; print the corresponding API objects without creating them
  kubectl run nginx --image=nginx --dry-run=client
  
  # Start a nginx pod, but overload the spec with a partial set of values parsed from JSON
  kubectl run nginx --image=nginx --overrides='{ "apiVersion": "v1", "spec": { ... } }'
  
  # Start a busybox pod and keep it in the foreground, don't restart it if it exits
  kubectl run -i -t busybox --image=busybox --restart=Never
  
  # Start the nginx pod using the default command, but use custom arguments (arg1 .. argN) for that command
  kubectl run nginx --image=nginx -- <arg1> <arg2> ... <argN>
  
  # Start the nginx pod using a different command and custom arguments
  kubectl run nginx --image=nginx --command -- <cmd> <arg1> ... <argN>`,
  usage: "kubectl run NAME --image=image [--env=\"key=value\"] [--port=port] [--dry-run=server|client] [--overrides=inline-json] [--command] -- [COMMAND] [args...] [options]",
  flags: [
    F.allowMissingTemplateKeys,
    { name: "annotations", type: "stringArray", defValue: "[]", usage: "Annotations to apply to the pod." },
    { name: "attach", type: "bool", defValue: "false", usage: "If true, wait for the Pod to start running, and then attach to the Pod as if 'kubectl attach ...' were called.  Default false, unless '-i/--stdin' is set, in which case the default is true. With '--restart=Never' the exit code of the container process is returned." },
    F.cascade,
    { name: "command", type: "bool", defValue: "false", usage: "If true and extra arguments are present, use them as the 'command' field in the container, rather than the 'args' field which is the default." },
    F.dryRun,
    { name: "env", type: "stringArray", defValue: "[]", usage: "Environment variables to set in the container." },
    { name: "expose", type: "bool", defValue: "false", usage: "If true, create a ClusterIP service associated with the pod.  Requires `--port`." },
    { name: "field-manager", type: "string", defValue: "'kubectl-run'", usage: "Name of the manager used to track field ownership." },
    { name: "filename", short: "f", type: "stringSlice", defValue: "[]", usage: "to use to replace the resource." },
    F.force,
    F.gracePeriod,
    { name: "image", type: "string", defValue: "''", usage: "The image for the container to run." },
    { name: "image-pull-policy", type: "string", defValue: "''", usage: "The image pull policy for the container.  If left empty, this value will not be specified by the client and defaulted by the server." },
    F.kustomize2,
    { name: "labels", short: "l", type: "string", defValue: "''", usage: "Comma separated labels to apply to the pod. Will override previous values." },
    { name: "leave-stdin-open", type: "bool", defValue: "false", usage: "If the pod is started in interactive mode or with stdin, leave stdin open after the first attach completes. By default, stdin will be closed after the first attach completes." },
    F.output,
    { name: "override-type", type: "string", defValue: "'merge'", usage: "The method used to override the generated object: json, merge, or strategic." },
    { name: "overrides", type: "string", defValue: "''", usage: "An inline JSON override for the generated object. If this is non-empty, it is used to override the generated object. Requires that the object supply a valid apiVersion field." },
    F.podRunningTimeout,
    { name: "port", type: "string", defValue: "''", usage: "The port that this container exposes." },
    { name: "privileged", type: "bool", defValue: "false", usage: "If true, run the container in privileged mode." },
    { name: "quiet", short: "q", type: "bool", defValue: "false", usage: "If true, suppress prompt messages." },
    F.recursive,
    { name: "restart", type: "string", defValue: "'Always'", usage: "The restart policy for this Pod.  Legal values [Always, OnFailure, Never]." },
    { name: "rm", type: "bool", defValue: "false", usage: "If true, delete the pod after it exits.  Only valid when attaching to the container, e.g. with '--attach' or with '-i/--stdin'." },
    F.saveConfig,
    F.showManagedFields,
    { name: "stdin", short: "i", type: "bool", defValue: "false", usage: "Keep stdin open on the container in the pod, even if nothing is attached." },
    F.template,
    F.timeout,
    { name: "tty", short: "t", type: "bool", defValue: "false", usage: "Allocate a TTY for the container in the pod." },
    F.wait,
    { name: "record", type: "bool", defValue: "false", usage: "Record current kubectl command in the resource annotation. If set to false, do not record the command. If set to true, record the command. If not set, default to updating the existing annotation value only if one already exists.", deprecated: "--record will be removed in the future" },
  ],
};
