/**
 * `kubectl set`: the command's declaration (flags, usage, help text).
 * Recorded from kubectl v1.35.2 by scripts/record-help.mjs: edit there, or by hand and re-check with
 * the help goldens (spec/help.test.ts).
 */
import type { CommandSpec } from './types.js';
import * as F from './flags.js';

export const setSpec: CommandSpec = {
  name: "set",
  short: "Set specific features on objects",
  long: `Configure application resources.

 These commands help you make changes to existing application resources.`,
  usage: "kubectl set SUBCOMMAND [options]",
  bare: { stream: "stderr", exitCode: 1 },
  commands: [
    {
      name: "env",
      short: "Update environment variables on a pod template",
      long: `Update environment variables on a pod template.

 List environment variable definitions in one or more pods, pod templates. Add, update, or remove container environment variable definitions in one or more pod templates (within replication controllers or deployment configurations). View or modify the environment variable definitions on all containers in the specified pods or pod templates, or just those that match a wildcard.

 If "--env -" is passed, environment variables can be read from STDIN using the standard env syntax.

 Possible resources include (case insensitive):

        pod (po), replicationcontroller (rc), deployment (deploy), daemonset (ds), statefulset (sts), cronjob (cj), replicaset (rs)`,
      example: `  # Update deployment 'registry' with a new environment variable
  kubectl set env deployment/registry STORAGE_DIR=/local
  
  # List the environment variables defined on a deployments 'sample-build'
  kubectl set env deployment/sample-build --list
  
  # List the environment variables defined on all pods
  kubectl set env pods --all --list
  
  # Output modified deployment in YAML, and does not alter the object on the server
  kubectl set env deployment/sample-build STORAGE_DIR=/data -o yaml
  
  # Update all containers in all replication controllers in the project to have ENV=prod
  kubectl set env rc --all ENV=prod
  
  # Import environment from a secret
  kubectl set env --from=secret/mysecret deployment/myapp
  
  # Import environment from a config map with a prefix
  kubectl set env --from=configmap/myconfigmap --prefix=MYSQL_ deployment/myapp
  
  # Import specific keys from a config map
  kubectl set env --keys=my-example-key --from=configmap/myconfigmap deployment/myapp
  
  # Remove the environment variable ENV from container 'c1' in all deployment configs
  kubectl set env deployments --all --containers="c1" ENV-
  
  # Remove the environment variable ENV from a deployment definition on disk and
  # update the deployment config on the server
  kubectl set env -f deploy.json ENV-
  
  # Set some of the local shell environment into a deployment config on the server
  env | grep RAILS_ | kubectl set env -e - deployment/registry`,
      usage: "kubectl set env RESOURCE/NAME KEY_1=VAL_1 ... KEY_N=VAL_N [options]",
      flags: [
        { name: "all", type: "bool", defValue: "false", usage: "If true, select all resources in the namespace of the specified resource types" },
        F.allowMissingTemplateKeys,
        { name: "containers", short: "c", type: "string", defValue: "'*'", usage: "The names of containers in the selected pod templates to change - may use wildcards" },
        F.dryRun,
        { name: "env", short: "e", type: "stringArray", defValue: "[]", usage: "Specify a key-value pair for an environment variable to set into each container." },
        F.fieldManager2,
        { name: "filename", short: "f", type: "stringSlice", defValue: "[]", usage: "Filename, directory, or URL to files the resource to update the env" },
        { name: "from", type: "string", defValue: "''", usage: "The name of a resource from which to inject environment variables" },
        { name: "keys", type: "stringSlice", defValue: "[]", usage: "Comma-separated list of keys to import from specified resource" },
        F.kustomize,
        { name: "list", type: "bool", defValue: "false", usage: "If true, display the environment and any changes in the standard format. this flag will removed when we have kubectl view env." },
        { name: "local", type: "bool", defValue: "false", usage: "If true, set env will NOT contact api-server but run locally." },
        F.output,
        { name: "overwrite", type: "bool", defValue: "true", usage: "If true, allow environment to be overwritten, otherwise reject updates that overwrite existing environment." },
        { name: "prefix", type: "string", defValue: "''", usage: "Prefix to append to variable names" },
        F.recursive,
        { name: "resolve", type: "bool", defValue: "false", usage: "If true, show secret or configmap references when listing variables" },
        F.selector,
        F.showManagedFields,
        F.template,
      ],
    },
    {
      name: "image",
      short: "Update the image of a pod template",
      long: `Update existing container image(s) of resources.

 Possible resources include (case insensitive):

        pod (po), replicationcontroller (rc), deployment (deploy), daemonset (ds), statefulset (sts), cronjob (cj), replicaset (rs)`,
      example: `  # Set a deployment's nginx container image to 'nginx:1.9.1', and its busybox container image to 'busybox'
  kubectl set image deployment/nginx busybox=busybox nginx=nginx:1.9.1
  
  # Update all deployments' and rc's nginx container's image to 'nginx:1.9.1'
  kubectl set image deployments,rc nginx=nginx:1.9.1 --all
  
  # Update image of all containers of daemonset abc to 'nginx:1.9.1'
  kubectl set image daemonset abc *=nginx:1.9.1
  
  # Print result (in yaml format) of updating nginx container image from local file, without hitting the server
  kubectl set image -f path/to/file.yaml nginx=nginx:1.9.1 --local -o yaml`,
      usage: "kubectl set image (-f FILENAME | TYPE NAME) CONTAINER_NAME_1=CONTAINER_IMAGE_1 ... CONTAINER_NAME_N=CONTAINER_IMAGE_N [options]",
      flags: [
        F.all,
        F.allowMissingTemplateKeys,
        F.dryRun,
        F.fieldManager2,
        F.filename,
        F.kustomize,
        { name: "local", type: "bool", defValue: "false", usage: "If true, set image will NOT contact api-server but run locally." },
        F.output,
        F.recursive,
        F.selector,
        F.showManagedFields,
        F.template,
        { name: "record", type: "bool", defValue: "false", usage: "Record current kubectl command in the resource annotation. If set to false, do not record the command. If set to true, record the command. If not set, default to updating the existing annotation value only if one already exists.", deprecated: "--record will be removed in the future" },
      ],
    },
    {
      name: "resources",
      short: "Update resource requests/limits on objects with pod templates",
      long: `Specify compute resource requirements (CPU, memory) for any resource that defines a pod template.  If a pod is successfully scheduled, it is guaranteed the amount of resource requested, but may burst up to its specified limits.

 For each compute resource, if a limit is specified and a request is omitted, the request will default to the limit.

 Possible resources include (case insensitive): Use "kubectl api-resources" for a complete list of supported resources..`,
      example: `  # Set a deployments nginx container cpu limits to "200m" and memory to "512Mi"
  kubectl set resources deployment nginx -c=nginx --limits=cpu=200m,memory=512Mi
  
  # Set the resource request and limits for all containers in nginx
  kubectl set resources deployment nginx --limits=cpu=200m,memory=512Mi --requests=cpu=100m,memory=256Mi
  
  # Remove the resource requests for resources on containers in nginx
  kubectl set resources deployment nginx --limits=cpu=0,memory=0 --requests=cpu=0,memory=0
  
  # Print the result (in yaml format) of updating nginx container limits from a local, without hitting the server
  kubectl set resources -f path/to/file.yaml --limits=cpu=200m,memory=512Mi --local -o yaml`,
      usage: "kubectl set resources (-f FILENAME | TYPE NAME)  ([--limits=LIMITS & --requests=REQUESTS] [options]",
      flags: [
        F.all,
        F.allowMissingTemplateKeys,
        { name: "containers", short: "c", type: "string", defValue: "'*'", usage: "The names of containers in the selected pod templates to change, all containers are selected by default - may use wildcards" },
        F.dryRun,
        F.fieldManager2,
        F.filename,
        F.kustomize,
        { name: "limits", type: "string", defValue: "''", usage: "The resource requirement requests for this container.  For example, 'cpu=100m,memory=256Mi'.  Note that server side components may assign requests depending on the server configuration, such as limit ranges." },
        { name: "local", type: "bool", defValue: "false", usage: "If true, set resources will NOT contact api-server but run locally." },
        F.output,
        F.recursive,
        { name: "requests", type: "string", defValue: "''", usage: "The resource requirement requests for this container.  For example, 'cpu=100m,memory=256Mi'.  Note that server side components may assign requests depending on the server configuration, such as limit ranges." },
        F.selector,
        F.showManagedFields,
        F.template,
        { name: "record", type: "bool", defValue: "false", usage: "Record current kubectl command in the resource annotation. If set to false, do not record the command. If set to true, record the command. If not set, default to updating the existing annotation value only if one already exists.", deprecated: "--record will be removed in the future" },
      ],
    },
    {
      name: "selector",
      short: "Set the selector on a resource",
      long: `Set the selector on a resource. Note that the new selector will overwrite the old selector if the resource had one prior to the invocation of 'set selector'.

 A selector must begin with a letter or number, and may contain letters, numbers, hyphens, dots, and underscores, up to 63 characters. If --resource-version is specified, then updates will use this resource version, otherwise the existing resource-version will be used. Note: currently selectors can only be set on Service objects.`,
      example: `  # Set the labels and selector before creating a deployment/service pair
  kubectl create service clusterip my-svc --clusterip="None" -o yaml --dry-run=client | kubectl set selector --local -f - 'environment=qa' -o yaml | kubectl create -f -
  kubectl create deployment my-dep --image=nginx -o yaml --dry-run=client | kubectl label --local -f - environment=qa -o yaml | kubectl create -f -`,
      usage: "kubectl set selector (-f FILENAME | TYPE NAME) EXPRESSIONS [--resource-version=version] [options]",
      flags: [
        F.all2,
        F.allowMissingTemplateKeys,
        F.dryRun,
        F.fieldManager2,
        { name: "filename", short: "f", type: "stringSlice", defValue: "[]", usage: "identifying the resource." },
        F.local,
        F.output,
        { name: "recursive", short: "R", type: "bool", defValue: "true", usage: "Process the directory used in -f, --filename recursively. Useful when you want to manage related manifests organized within the same directory." },
        { name: "resource-version", type: "string", defValue: "''", usage: "If non-empty, the selectors update will only succeed if this is the current resource-version for the object. Only valid when specifying a single resource." },
        F.showManagedFields,
        F.template,
        { name: "record", type: "bool", defValue: "false", usage: "Record current kubectl command in the resource annotation. If set to false, do not record the command. If set to true, record the command. If not set, default to updating the existing annotation value only if one already exists.", deprecated: "--record will be removed in the future" },
      ],
    },
    {
      name: "serviceaccount",
      short: "Update the service account of a resource",
      aliases: ["sa"],
      long: `Update the service account of pod template resources.

 Possible resources (case insensitive) can be:

 replicationcontroller (rc), deployment (deploy), daemonset (ds), job, replicaset (rs), statefulset`,
      example: `  # Set deployment nginx-deployment's service account to serviceaccount1
  kubectl set serviceaccount deployment nginx-deployment serviceaccount1
  
  # Print the result (in YAML format) of updated nginx deployment with the service account from local file, without hitting the API server
  kubectl set sa -f nginx-deployment.yaml serviceaccount1 --local --dry-run=client -o yaml`,
      usage: "kubectl set serviceaccount (-f FILENAME | TYPE NAME) SERVICE_ACCOUNT [options]",
      flags: [
        F.all,
        F.allowMissingTemplateKeys,
        F.dryRun,
        F.fieldManager2,
        F.filename,
        F.kustomize,
        { name: "local", type: "bool", defValue: "false", usage: "If true, set serviceaccount will NOT contact api-server but run locally." },
        F.output,
        F.recursive,
        F.showManagedFields,
        F.template,
        { name: "record", type: "bool", defValue: "false", usage: "Record current kubectl command in the resource annotation. If set to false, do not record the command. If set to true, record the command. If not set, default to updating the existing annotation value only if one already exists.", deprecated: "--record will be removed in the future" },
      ],
    },
    {
      name: "subject",
      short: "Update the user, group, or service account in a role binding or cluster role binding",
      long: `Update the user, group, or service account in a role binding or cluster role binding.`,
      example: `  # Update a cluster role binding for serviceaccount1
  kubectl set subject clusterrolebinding admin --serviceaccount=namespace:serviceaccount1
  
  # Update a role binding for user1, user2, and group1
  kubectl set subject rolebinding admin --user=user1 --user=user2 --group=group1
  
  # Print the result (in YAML format) of updating rolebinding subjects from a local, without hitting the server
  kubectl create rolebinding admin --role=admin --user=admin -o yaml --dry-run=client | kubectl set subject --local -f - --user=foo -o yaml`,
      usage: "kubectl set subject (-f FILENAME | TYPE NAME) [--user=username] [--group=groupname] [--serviceaccount=namespace:serviceaccountname] [--dry-run=server|client|none] [options]",
      flags: [
        F.all,
        F.allowMissingTemplateKeys,
        F.dryRun,
        F.fieldManager2,
        { name: "filename", short: "f", type: "stringSlice", defValue: "[]", usage: "Filename, directory, or URL to files the resource to update the subjects" },
        { name: "group", type: "stringArray", defValue: "[]", usage: "Groups to bind to the role" },
        F.kustomize,
        { name: "local", type: "bool", defValue: "false", usage: "If true, set subject will NOT contact api-server but run locally." },
        F.output,
        F.recursive,
        F.selector,
        { name: "serviceaccount", type: "stringArray", defValue: "[]", usage: "Service accounts to bind to the role" },
        F.showManagedFields,
        F.template,
        { name: "user", type: "stringArray", defValue: "[]", usage: "Usernames to bind to the role" },
      ],
    },
  ],
};
