/**
 * `kubectl expose`: the command's declaration (flags, usage, help text).
 * Recorded from kubectl v1.35.2 by scripts/record-help.mjs: edit there, or by hand and re-check with
 * the help goldens (spec/help.test.ts).
 */
import type { CommandSpec } from './types.js';
import * as F from './flags.js';

export const exposeSpec: CommandSpec = {
  name: "expose",
  short: "Take a replication controller, service, deployment or pod and expose it as a new Kubernetes service",
  long: `Expose a resource as a new Kubernetes service.

 Looks up a deployment, service, replica set, replication controller or pod by name and uses the selector for that resource as the selector for a new service on the specified port. A deployment or replica set will be exposed as a service only if its selector is convertible to a selector that service supports, i.e. when the selector contains only the matchLabels component. Note that if no port is specified via --port and the exposed resource has multiple ports, all will be re-used by the new service. Also if no labels are specified, the new service will re-use the labels from the resource it exposes.

 Possible resources include (case insensitive):

 pod (po), service (svc), replicationcontroller (rc), deployment (deploy), replicaset (rs)`,
  example: `  # Create a service for a replicated nginx, which serves on port 80 and connects to the containers on port 8000
  kubectl expose rc nginx --port=80 --target-port=8000
  
  # Create a service for a replication controller identified by type and name specified in "nginx-controller.yaml", which serves on port 80 and connects to the containers on port 8000
  kubectl expose -f nginx-controller.yaml --port=80 --target-port=8000
  
  # Create a service for a pod valid-pod, which serves on port 444 with the name "frontend"
  kubectl expose pod valid-pod --port=444 --name=frontend
  
  # Create a second service based on the above service, exposing the container port 8443 as port 443 with the name "nginx-https"
  kubectl expose service nginx --port=443 --target-port=8443 --name=nginx-https
  
  # Create a service for a replicated streaming application on port 4100 balancing UDP traffic and named 'video-stream'.
  kubectl expose rc streamer --port=4100 --protocol=UDP --name=video-stream
  
  # Create a service for a replicated nginx using replica set, which serves on port 80 and connects to the containers on port 8000
  kubectl expose rs nginx --port=80 --target-port=8000
  
  # Create a service for an nginx deployment, which serves on port 80 and connects to the containers on port 8000
  kubectl expose deployment nginx --port=80 --target-port=8000`,
  usage: "kubectl expose (-f FILENAME | TYPE NAME) [--port=port] [--protocol=TCP|UDP|SCTP] [--target-port=number-or-name] [--name=name] [--external-ip=external-ip-of-service] [--type=type] [options]",
  flags: [
    F.allowMissingTemplateKeys,
    { name: "cluster-ip", type: "string", defValue: "''", usage: "ClusterIP to be assigned to the service. Leave empty to auto-allocate, or set to 'None' to create a headless service." },
    F.dryRun,
    { name: "external-ip", type: "string", defValue: "''", usage: "Additional external IP address (not managed by Kubernetes) to accept for the service. If this IP is routed to a node, the service can be accessed by this IP in addition to its generated service IP." },
    { name: "field-manager", type: "string", defValue: "'kubectl-expose'", usage: "Name of the manager used to track field ownership." },
    { name: "filename", short: "f", type: "stringSlice", defValue: "[]", usage: "Filename, directory, or URL to files identifying the resource to expose a service" },
    F.kustomize,
    { name: "labels", short: "l", type: "string", defValue: "''", usage: "Labels to apply to the service created by this call." },
    { name: "load-balancer-ip", type: "string", defValue: "''", usage: "IP to assign to the LoadBalancer. If empty, an ephemeral IP will be created and used (cloud-provider specific)." },
    { name: "name", type: "string", defValue: "''", usage: "The name for the newly created object." },
    F.output,
    { name: "override-type", type: "string", defValue: "'merge'", usage: "The method used to override the generated object: json, merge, or strategic." },
    { name: "overrides", type: "string", defValue: "''", usage: "An inline JSON override for the generated object. If this is non-empty, it is used to override the generated object. Requires that the object supply a valid apiVersion field." },
    { name: "port", type: "string", defValue: "''", usage: "The port that the service should serve on. Copied from the resource being exposed, if unspecified" },
    { name: "protocol", type: "string", defValue: "''", usage: "The network protocol for the service to be created. Default is 'TCP'." },
    F.recursive,
    F.saveConfig,
    { name: "selector", type: "string", defValue: "''", usage: "A label selector to use for this service. Only equality-based selector requirements are supported. If empty (the default) infer the selector from the resource being exposed." },
    { name: "session-affinity", type: "string", defValue: "''", usage: "If non-empty, set the session affinity for the service to this; legal values: 'None', 'ClientIP'" },
    F.showManagedFields,
    { name: "target-port", type: "string", defValue: "''", usage: "Name or number for the port on the container that the service should direct traffic to. Optional." },
    F.template,
    { name: "type", type: "string", defValue: "''", usage: "Type for this service: ClusterIP, NodePort, LoadBalancer, or ExternalName. Default is 'ClusterIP'." },
    { name: "record", type: "bool", defValue: "false", usage: "Record current kubectl command in the resource annotation. If set to false, do not record the command. If set to true, record the command. If not set, default to updating the existing annotation value only if one already exists.", deprecated: "--record will be removed in the future" },
  ],
};
