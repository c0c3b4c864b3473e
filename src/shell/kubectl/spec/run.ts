/**
 * `kubectl run`: the command's declaration (flags, usage, help text).
 * Recorded from kubectl v1.35.2 by scripts/record-help.mjs: edit there, or by hand and re-check with
 * the help goldens (spec/help.test.ts).
 */
import type { CommandSpec } from './types.js';

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
    { name: "allow-missing-template-keys", type: "bool", defValue: "true", usage: "If true, ignore any errors in templates when a field or map key is missing in the template. Only applies to golang and jsonpath output formats." },
    { name: "annotations", type: "stringArray", defValue: "[]", usage: "Annotations to apply to the pod." },
    { name: "attach", type: "bool", defValue: "false", usage: "If true, wait for the Pod to start running, and then attach to the Pod as if 'kubectl attach ...' were called.  Default false, unless '-i/--stdin' is set, in which case the default is true. With '--restart=Never' the exit code of the container process is returned." },
    { name: "cascade", type: "string", defValue: "'background'", noOptDefault: "background", usage: "Must be \"background\", \"orphan\", or \"foreground\". Selects the deletion cascading strategy for the dependents (e.g. Pods created by a ReplicationController). Defaults to background." },
    { name: "command", type: "bool", defValue: "false", usage: "If true and extra arguments are present, use them as the 'command' field in the container, rather than the 'args' field which is the default." },
    { name: "dry-run", type: "string", defValue: "'none'", noOptDefault: "unchanged", usage: "Must be \"none\", \"server\", or \"client\". If client strategy, only print the object that would be sent, without sending it. If server strategy, submit server-side request without persisting the resource." },
    { name: "env", type: "stringArray", defValue: "[]", usage: "Environment variables to set in the container." },
    { name: "expose", type: "bool", defValue: "false", usage: "If true, create a ClusterIP service associated with the pod.  Requires `--port`." },
    { name: "field-manager", type: "string", defValue: "'kubectl-run'", usage: "Name of the manager used to track field ownership." },
    { name: "filename", short: "f", type: "stringSlice", defValue: "[]", usage: "to use to replace the resource." },
    { name: "force", type: "bool", defValue: "false", usage: "If true, immediately remove resources from API and bypass graceful deletion. Note that immediate deletion of some resources may result in inconsistency or data loss and requires confirmation." },
    { name: "grace-period", type: "int", defValue: "-1", usage: "Period of time in seconds given to the resource to terminate gracefully. Ignored if negative. Set to 1 for immediate shutdown. Can only be set to 0 when --force is true (force deletion)." },
    { name: "image", type: "string", defValue: "''", usage: "The image for the container to run." },
    { name: "image-pull-policy", type: "string", defValue: "''", usage: "The image pull policy for the container.  If left empty, this value will not be specified by the client and defaulted by the server." },
    { name: "kustomize", short: "k", type: "string", defValue: "''", usage: "Process a kustomization directory. This flag can't be used together with -f or -R." },
    { name: "labels", short: "l", type: "string", defValue: "''", usage: "Comma separated labels to apply to the pod. Will override previous values." },
    { name: "leave-stdin-open", type: "bool", defValue: "false", usage: "If the pod is started in interactive mode or with stdin, leave stdin open after the first attach completes. By default, stdin will be closed after the first attach completes." },
    { name: "output", short: "o", type: "string", defValue: "''", usage: "Output format. One of: (json, yaml, kyaml, name, go-template, go-template-file, template, templatefile, jsonpath, jsonpath-as-json, jsonpath-file)." },
    { name: "override-type", type: "string", defValue: "'merge'", usage: "The method used to override the generated object: json, merge, or strategic." },
    { name: "overrides", type: "string", defValue: "''", usage: "An inline JSON override for the generated object. If this is non-empty, it is used to override the generated object. Requires that the object supply a valid apiVersion field." },
    { name: "pod-running-timeout", type: "string", defValue: "1m0s", usage: "The length of time (like 5s, 2m, or 3h, higher than zero) to wait until at least one pod is running" },
    { name: "port", type: "string", defValue: "''", usage: "The port that this container exposes." },
    { name: "privileged", type: "bool", defValue: "false", usage: "If true, run the container in privileged mode." },
    { name: "quiet", short: "q", type: "bool", defValue: "false", usage: "If true, suppress prompt messages." },
    { name: "recursive", short: "R", type: "bool", defValue: "false", usage: "Process the directory used in -f, --filename recursively. Useful when you want to manage related manifests organized within the same directory." },
    { name: "restart", type: "string", defValue: "'Always'", usage: "The restart policy for this Pod.  Legal values [Always, OnFailure, Never]." },
    { name: "rm", type: "bool", defValue: "false", usage: "If true, delete the pod after it exits.  Only valid when attaching to the container, e.g. with '--attach' or with '-i/--stdin'." },
    { name: "save-config", type: "bool", defValue: "false", usage: "If true, the configuration of current object will be saved in its annotation. Otherwise, the annotation will be unchanged. This flag is useful when you want to perform kubectl apply on this object in the future." },
    { name: "show-managed-fields", type: "bool", defValue: "false", usage: "If true, keep the managedFields when printing objects in JSON or YAML format." },
    { name: "stdin", short: "i", type: "bool", defValue: "false", usage: "Keep stdin open on the container in the pod, even if nothing is attached." },
    { name: "template", type: "string", defValue: "''", usage: "Template string or path to template file to use when -o=go-template, -o=go-template-file. The template format is golang templates [http://golang.org/pkg/text/template/#pkg-overview]." },
    { name: "timeout", type: "string", defValue: "0s", usage: "The length of time to wait before giving up on a delete, zero means determine a timeout from the size of the object" },
    { name: "tty", short: "t", type: "bool", defValue: "false", usage: "Allocate a TTY for the container in the pod." },
    { name: "wait", type: "bool", defValue: "false", usage: "If true, wait for resources to be gone before returning. This waits for finalizers." },
  ],
};
