/**
 * `kubectl create`: the command's declaration (flags, usage, help text).
 * Recorded from kubectl v1.35.2 by scripts/record-help.mjs: edit there, or by hand and re-check with
 * the help goldens (spec/help.test.ts).
 */
import type { CommandSpec } from './types.js';
import * as F from './flags.js';

export const createSpec: CommandSpec = {
  name: "create",
  short: "Create a resource from a file or from stdin",
  long: `Create a resource from a file or from stdin.

 JSON and YAML formats are accepted.`,
  example: `  # Create a pod using the data in pod.json
  kubectl create -f ./pod.json
  
  # Create a pod based on the JSON passed into stdin
  cat pod.json | kubectl create -f -
  
  # Edit the data in registry.yaml in JSON then create the resource using the edited data
  kubectl create -f registry.yaml --edit -o json`,
  usage: "kubectl create -f FILENAME [options]",
  flags: [
    F.allowMissingTemplateKeys,
    F.dryRun,
    { name: "edit", type: "bool", defValue: "false", usage: "Edit the API resource before creating" },
    F.fieldManager,
    { name: "filename", short: "f", type: "stringSlice", defValue: "[]", usage: "Filename, directory, or URL to files to use to create the resource" },
    F.kustomize,
    F.output,
    { name: "raw", type: "string", defValue: "''", usage: "Raw URI to POST to the server.  Uses the transport specified by the kubeconfig file." },
    F.recursive,
    F.saveConfig,
    F.selector,
    F.showManagedFields,
    F.template,
    F.validate,
    { name: "windows-line-endings", type: "bool", defValue: "false", usage: "Only relevant if --edit=true. Defaults to the line ending native to your platform." },
    { name: "record", type: "bool", defValue: "false", usage: "Record current kubectl command in the resource annotation. If set to false, do not record the command. If set to true, record the command. If not set, default to updating the existing annotation value only if one already exists.", deprecated: "--record will be removed in the future" },
  ],
  commands: [
    {
      name: "clusterrole",
      short: "Create a cluster role",
      long: `Create a cluster role.`,
      example: `  # Create a cluster role named "pod-reader" that allows user to perform "get", "watch" and "list" on pods
  kubectl create clusterrole pod-reader --verb=get,list,watch --resource=pods
  
  # Create a cluster role named "pod-reader" with ResourceName specified
  kubectl create clusterrole pod-reader --verb=get --resource=pods --resource-name=readablepod --resource-name=anotherpod
  
  # Create a cluster role named "foo" with API Group specified
  kubectl create clusterrole foo --verb=get,list,watch --resource=rs.apps
  
  # Create a cluster role named "foo" with SubResource specified
  kubectl create clusterrole foo --verb=get,list,watch --resource=pods,pods/status
  
  # Create a cluster role name "foo" with NonResourceURL specified
  kubectl create clusterrole "foo" --verb=get --non-resource-url=/logs/*
  
  # Create a cluster role name "monitoring" with AggregationRule specified
  kubectl create clusterrole monitoring --aggregation-rule="rbac.example.com/aggregate-to-monitoring=true"`,
      usage: "kubectl create clusterrole NAME --verb=verb --resource=resource.group [--resource-name=resourcename] [--dry-run=server|client|none] [options]",
      flags: [
        { name: "aggregation-rule", type: "string", defValue: "", usage: "An aggregation label selector for combining ClusterRoles." },
        F.allowMissingTemplateKeys,
        F.dryRun,
        F.fieldManager,
        { name: "non-resource-url", type: "stringSlice", defValue: "[]", usage: "A partial url that user should have access to." },
        F.output,
        { name: "resource", type: "stringSlice", defValue: "[]", usage: "Resource that the rule applies to" },
        { name: "resource-name", type: "stringArray", defValue: "[]", usage: "Resource in the white list that the rule applies to, repeat this flag for multiple items" },
        F.saveConfig,
        F.showManagedFields,
        F.template,
        F.validate,
        { name: "verb", type: "stringSlice", defValue: "[]", usage: "Verb that applies to the resources contained in the rule" },
      ],
    },
    {
      name: "clusterrolebinding",
      short: "Create a cluster role binding for a particular cluster role",
      long: `Create a cluster role binding for a particular cluster role.`,
      example: `  # Create a cluster role binding for user1, user2, and group1 using the cluster-admin cluster role
  kubectl create clusterrolebinding cluster-admin --clusterrole=cluster-admin --user=user1 --user=user2 --group=group1`,
      usage: "kubectl create clusterrolebinding NAME --clusterrole=NAME [--user=username] [--group=groupname] [--serviceaccount=namespace:serviceaccountname] [--dry-run=server|client|none] [options]",
      flags: [
        F.allowMissingTemplateKeys,
        { name: "clusterrole", type: "string", defValue: "''", usage: "ClusterRole this ClusterRoleBinding should reference" },
        F.dryRun,
        F.fieldManager,
        { name: "group", type: "stringArray", defValue: "[]", usage: "Groups to bind to the clusterrole. The flag can be repeated to add multiple groups." },
        F.output,
        F.saveConfig,
        { name: "serviceaccount", type: "stringArray", defValue: "[]", usage: "Service accounts to bind to the clusterrole, in the format <namespace>:<name>. The flag can be repeated to add multiple service accounts." },
        F.showManagedFields,
        F.template,
        { name: "user", type: "stringArray", defValue: "[]", usage: "Usernames to bind to the clusterrole. The flag can be repeated to add multiple users." },
        F.validate,
      ],
    },
    {
      name: "configmap",
      short: "Create a config map from a local file, directory or literal value",
      aliases: ["cm"],
      long: `Create a config map based on a file, directory, or specified literal value.

 A single config map may package one or more key/value pairs.

 When creating a config map based on a file, the key will default to the basename of the file, and the value will default to the file content.  If the basename is an invalid key, you may specify an alternate key.

 When creating a config map based on a directory, each file whose basename is a valid key in the directory will be packaged into the config map.  Any directory entries except regular files are ignored (e.g. subdirectories, symlinks, devices, pipes, etc).`,
      example: `  # Create a new config map named my-config based on folder bar
  kubectl create configmap my-config --from-file=path/to/bar
  
  # Create a new config map named my-config with specified keys instead of file basenames on disk
  kubectl create configmap my-config --from-file=key1=/path/to/bar/file1.txt --from-file=key2=/path/to/bar/file2.txt
  
  # Create a new config map named my-config with key1=config1 and key2=config2
  kubectl create configmap my-config --from-literal=key1=config1 --from-literal=key2=config2
  
  # Create a new config map named my-config from the key=value pairs in the file
  kubectl create configmap my-config --from-file=path/to/bar
  
  # Create a new config map named my-config from an env file
  kubectl create configmap my-config --from-env-file=path/to/foo.env --from-env-file=path/to/bar.env`,
      usage: "kubectl create configmap NAME [--from-file=[key=]source] [--from-literal=key1=value1] [--dry-run=server|client|none] [options]",
      flags: [
        F.allowMissingTemplateKeys,
        { name: "append-hash", type: "bool", defValue: "false", usage: "Append a hash of the configmap to its name." },
        F.dryRun,
        F.fieldManager,
        { name: "from-env-file", type: "stringSlice", defValue: "[]", usage: "Specify the path to a file to read lines of key=val pairs to create a configmap." },
        { name: "from-file", type: "stringSlice", defValue: "[]", usage: "Key file can be specified using its file path, in which case file basename will be used as configmap key, or optionally with a key and file path, in which case the given key will be used.  Specifying a directory will iterate each named file in the directory whose basename is a valid configmap key." },
        { name: "from-literal", type: "stringArray", defValue: "[]", usage: "Specify a key and literal value to insert in configmap (i.e. mykey=somevalue)" },
        F.output,
        F.saveConfig,
        F.showManagedFields,
        F.template,
        F.validate,
      ],
    },
    {
      name: "cronjob",
      short: "Create a cron job with the specified name",
      aliases: ["cj"],
      long: `Create a cron job with the specified name.`,
      example: `  # Create a cron job
  kubectl create cronjob my-job --image=busybox --schedule="*/1 * * * *"
  
  # Create a cron job with a command
  kubectl create cronjob my-job --image=busybox --schedule="*/1 * * * *" -- date`,
      usage: "kubectl create cronjob NAME --image=image --schedule='0/5 * * * ?' -- [COMMAND] [args...] [flags] [options]",
      flags: [
        F.allowMissingTemplateKeys,
        F.dryRun,
        F.fieldManager,
        { name: "image", type: "string", defValue: "''", usage: "Image name to run." },
        F.output,
        { name: "restart", type: "string", defValue: "''", usage: "job's restart policy. supported values: OnFailure, Never" },
        F.saveConfig,
        { name: "schedule", type: "string", defValue: "''", usage: "A schedule in the Cron format the job should be run with." },
        F.showManagedFields,
        F.template,
        F.validate,
      ],
    },
    {
      name: "deployment",
      short: "Create a deployment with the specified name",
      aliases: ["deploy"],
      long: `Create a deployment with the specified name.`,
      example: `  # Create a deployment named my-dep that runs the busybox image
  kubectl create deployment my-dep --image=busybox
  
  # Create a deployment with a command
  kubectl create deployment my-dep --image=busybox -- date
  
  # Create a deployment named my-dep that runs the nginx image with 3 replicas
  kubectl create deployment my-dep --image=nginx --replicas=3
  
  # Create a deployment named my-dep that runs the busybox image and expose port 5701
  kubectl create deployment my-dep --image=busybox --port=5701
  
  # Create a deployment named my-dep that runs multiple containers
  kubectl create deployment my-dep --image=busybox:latest --image=ubuntu:latest --image=nginx`,
      usage: "kubectl create deployment NAME --image=image -- [COMMAND] [args...] [options]",
      flags: [
        F.allowMissingTemplateKeys,
        F.dryRun,
        F.fieldManager,
        { name: "image", type: "stringSlice", defValue: "[]", usage: "Image names to run. A deployment can have multiple images set for multi-container pod." },
        F.output,
        { name: "port", type: "int", defValue: "-1", usage: "The containerPort that this deployment exposes." },
        { name: "replicas", short: "r", type: "int", defValue: "1", usage: "Number of replicas to create. Default is 1." },
        F.saveConfig,
        F.showManagedFields,
        F.template,
        F.validate,
      ],
    },
    {
      name: "ingress",
      short: "Create an ingress with the specified name",
      aliases: ["ing"],
      long: `Create an ingress with the specified name.`,
      example: `  # Create a single ingress called 'simple' that directs requests to foo.com/bar to svc
  # svc1:8080 with a TLS secret "my-cert"
  kubectl create ingress simple --rule="foo.com/bar=svc1:8080,tls=my-cert"
  
  # Create a catch all ingress of "/path" pointing to service svc:port and Ingress Class as "otheringress"
  kubectl create ingress catch-all --class=otheringress --rule="/path=svc:port"
  
  # Create an ingress with two annotations: ingress.annotation1 and ingress.annotations2
  kubectl create ingress annotated --class=default --rule="foo.com/bar=svc:port" \\
  --annotation ingress.annotation1=foo \\
  --annotation ingress.annotation2=bla
  
  # Create an ingress with the same host and multiple paths
  kubectl create ingress multipath --class=default \\
  --rule="foo.com/=svc:port" \\
  --rule="foo.com/admin/=svcadmin:portadmin"
  
  # Create an ingress with multiple hosts and the pathType as Prefix
  kubectl create ingress ingress1 --class=default \\
  --rule="foo.com/path*=svc:8080" \\
  --rule="bar.com/admin*=svc2:http"
  
  # Create an ingress with TLS enabled using the default ingress certificate and different path types
  kubectl create ingress ingtls --class=default \\
  --rule="foo.com/=svc:https,tls" \\
  --rule="foo.com/path/subpath*=othersvc:8080"
  
  # Create an ingress with TLS enabled using a specific secret and pathType as Prefix
  kubectl create ingress ingsecret --class=default \\
  --rule="foo.com/*=svc:8080,tls=secret1"
  
  # Create an ingress with a default backend
  kubectl create ingress ingdefault --class=default \\
  --default-backend=defaultsvc:http \\
  --rule="foo.com/*=svc:8080,tls=secret1"`,
      usage: "kubectl create ingress NAME --rule=host/path=service:port[,tls[=secret]]  [options]",
      flags: [
        F.allowMissingTemplateKeys,
        { name: "annotation", type: "stringArray", defValue: "[]", usage: "Annotation to insert in the ingress object, in the format annotation=value" },
        { name: "class", type: "string", defValue: "''", usage: "Ingress Class to be used" },
        { name: "default-backend", type: "string", defValue: "''", usage: "Default service for backend, in format of svcname:port" },
        F.dryRun,
        F.fieldManager,
        F.output,
        { name: "rule", type: "stringArray", defValue: "[]", usage: "Rule in format host/path=service:port[,tls=secretname]. Paths containing the leading character '*' are considered pathType=Prefix. tls argument is optional." },
        F.saveConfig,
        F.showManagedFields,
        F.template,
        F.validate,
      ],
    },
    {
      name: "job",
      short: "Create a job with the specified name",
      long: `Create a job with the specified name.`,
      example: `  # Create a job
  kubectl create job my-job --image=busybox
  
  # Create a job with a command
  kubectl create job my-job --image=busybox -- date
  
  # Create a job from a cron job named "a-cronjob"
  kubectl create job test-job --from=cronjob/a-cronjob`,
      usage: "kubectl create job NAME --image=image [--from=cronjob/name] -- [COMMAND] [args...] [options]",
      flags: [
        F.allowMissingTemplateKeys,
        F.dryRun,
        F.fieldManager,
        { name: "from", type: "string", defValue: "''", usage: "The name of the resource to create a Job from (only CronJob is supported)." },
        { name: "image", type: "string", defValue: "''", usage: "Image name to run." },
        F.output,
        F.saveConfig,
        F.showManagedFields,
        F.template,
        F.validate,
      ],
    },
    {
      name: "namespace",
      short: "Create a namespace with the specified name",
      aliases: ["ns"],
      long: `Create a namespace with the specified name.`,
      example: `  # Create a new namespace named my-namespace
  kubectl create namespace my-namespace`,
      usage: "kubectl create namespace NAME [--dry-run=server|client|none] [options]",
      flags: [
        F.allowMissingTemplateKeys,
        F.dryRun,
        F.fieldManager,
        F.output,
        F.saveConfig,
        F.showManagedFields,
        F.template,
        F.validate,
      ],
    },
    {
      name: "poddisruptionbudget",
      short: "Create a pod disruption budget with the specified name",
      aliases: ["pdb"],
      long: `Create a pod disruption budget with the specified name, selector, and desired minimum available pods.`,
      example: `  # Create a pod disruption budget named my-pdb that will select all pods with the app=rails label
  # and require at least one of them being available at any point in time
  kubectl create poddisruptionbudget my-pdb --selector=app=rails --min-available=1
  
  # Create a pod disruption budget named my-pdb that will select all pods with the app=nginx label
  # and require at least half of the pods selected to be available at any point in time
  kubectl create pdb my-pdb --selector=app=nginx --min-available=50%`,
      usage: "kubectl create poddisruptionbudget NAME --selector=SELECTOR --min-available=N [--dry-run=server|client|none] [options]",
      flags: [
        F.allowMissingTemplateKeys,
        F.dryRun,
        F.fieldManager,
        { name: "max-unavailable", type: "string", defValue: "''", usage: "The maximum number or percentage of unavailable pods this budget requires." },
        { name: "min-available", type: "string", defValue: "''", usage: "The minimum number or percentage of available pods this budget requires." },
        F.output,
        F.saveConfig,
        { name: "selector", type: "string", defValue: "''", usage: "A label selector to use for this budget. Only equality-based selector requirements are supported." },
        F.showManagedFields,
        F.template,
        F.validate,
      ],
    },
    {
      name: "priorityclass",
      short: "Create a priority class with the specified name",
      aliases: ["pc"],
      long: `Create a priority class with the specified name, value, globalDefault and description.`,
      example: `  # Create a priority class named high-priority
  kubectl create priorityclass high-priority --value=1000 --description="high priority"
  
  # Create a priority class named default-priority that is considered as the global default priority
  kubectl create priorityclass default-priority --value=1000 --global-default=true --description="default priority"
  
  # Create a priority class named high-priority that cannot preempt pods with lower priority
  kubectl create priorityclass high-priority --value=1000 --description="high priority" --preemption-policy="Never"`,
      usage: "kubectl create priorityclass NAME --value=VALUE --global-default=BOOL [--dry-run=server|client|none] [options]",
      flags: [
        F.allowMissingTemplateKeys,
        { name: "description", type: "string", defValue: "''", usage: "description is an arbitrary string that usually provides guidelines on when this priority class should be used." },
        F.dryRun,
        F.fieldManager,
        { name: "global-default", type: "bool", defValue: "false", usage: "global-default specifies whether this PriorityClass should be considered as the default priority." },
        F.output,
        { name: "preemption-policy", type: "string", defValue: "'PreemptLowerPriority'", usage: "preemption-policy is the policy for preempting pods with lower priority." },
        F.saveConfig,
        F.showManagedFields,
        F.template,
        F.validate,
        { name: "value", type: "int", defValue: "0", usage: "the value of this priority class." },
      ],
    },
    {
      name: "quota",
      short: "Create a quota with the specified name",
      aliases: ["resourcequota"],
      long: `Create a resource quota with the specified name, hard limits, and optional scopes.`,
      example: `  # Create a new resource quota named my-quota
  kubectl create quota my-quota --hard=cpu=1,memory=1G,pods=2,services=3,replicationcontrollers=2,resourcequotas=1,secrets=5,persistentvolumeclaims=10
  
  # Create a new resource quota named best-effort
  kubectl create quota best-effort --hard=pods=100 --scopes=BestEffort`,
      usage: "kubectl create quota NAME [--hard=key1=value1,key2=value2] [--scopes=Scope1,Scope2] [--dry-run=server|client|none] [options]",
      flags: [
        F.allowMissingTemplateKeys,
        F.dryRun,
        F.fieldManager,
        { name: "hard", type: "string", defValue: "''", usage: "A comma-delimited set of resource=quantity pairs that define a hard limit." },
        F.output,
        F.saveConfig,
        { name: "scopes", type: "string", defValue: "''", usage: "A comma-delimited set of quota scopes that must all match each object tracked by the quota." },
        F.showManagedFields,
        F.template,
        F.validate,
      ],
    },
    {
      name: "role",
      short: "Create a role with single rule",
      long: `Create a role with single rule.`,
      example: `  # Create a role named "pod-reader" that allows user to perform "get", "watch" and "list" on pods
  kubectl create role pod-reader --verb=get --verb=list --verb=watch --resource=pods
  
  # Create a role named "pod-reader" with ResourceName specified
  kubectl create role pod-reader --verb=get --resource=pods --resource-name=readablepod --resource-name=anotherpod
  
  # Create a role named "foo" with API Group specified
  kubectl create role foo --verb=get,list,watch --resource=rs.apps
  
  # Create a role named "foo" with SubResource specified
  kubectl create role foo --verb=get,list,watch --resource=pods,pods/status`,
      usage: "kubectl create role NAME --verb=verb --resource=resource.group/subresource [--resource-name=resourcename] [--dry-run=server|client|none] [options]",
      flags: [
        F.allowMissingTemplateKeys,
        F.dryRun,
        F.fieldManager,
        F.output,
        { name: "resource", type: "stringSlice", defValue: "[]", usage: "Resource that the rule applies to" },
        { name: "resource-name", type: "stringArray", defValue: "[]", usage: "Resource in the white list that the rule applies to, repeat this flag for multiple items" },
        F.saveConfig,
        F.showManagedFields,
        F.template,
        F.validate,
        { name: "verb", type: "stringSlice", defValue: "[]", usage: "Verb that applies to the resources contained in the rule" },
      ],
    },
    {
      name: "rolebinding",
      short: "Create a role binding for a particular role or cluster role",
      long: `Create a role binding for a particular role or cluster role.`,
      example: `  # Create a role binding for user1, user2, and group1 using the admin cluster role
  kubectl create rolebinding admin --clusterrole=admin --user=user1 --user=user2 --group=group1
  
  # Create a role binding for service account monitoring:sa-dev using the admin role
  kubectl create rolebinding admin-binding --role=admin --serviceaccount=monitoring:sa-dev`,
      usage: "kubectl create rolebinding NAME --clusterrole=NAME|--role=NAME [--user=username] [--group=groupname] [--serviceaccount=namespace:serviceaccountname] [--dry-run=server|client|none] [options]",
      flags: [
        F.allowMissingTemplateKeys,
        { name: "clusterrole", type: "string", defValue: "''", usage: "ClusterRole this RoleBinding should reference" },
        F.dryRun,
        F.fieldManager,
        { name: "group", type: "stringArray", defValue: "[]", usage: "Groups to bind to the role. The flag can be repeated to add multiple groups." },
        F.output,
        { name: "role", type: "string", defValue: "''", usage: "Role this RoleBinding should reference" },
        F.saveConfig,
        { name: "serviceaccount", type: "stringArray", defValue: "[]", usage: "Service accounts to bind to the role, in the format <namespace>:<name>. The flag can be repeated to add multiple service accounts." },
        F.showManagedFields,
        F.template,
        { name: "user", type: "stringArray", defValue: "[]", usage: "Usernames to bind to the role. The flag can be repeated to add multiple users." },
        F.validate,
      ],
    },
    {
      name: "secret",
      short: "Create a secret using a specified subcommand",
      long: `Create a secret with specified type.

 A docker-registry type secret is for accessing a container registry.

 A generic type secret indicate an Opaque secret type.

 A tls type secret holds TLS certificate and its associated key.`,
      usage: "kubectl create secret (docker-registry | generic | tls) [options]",
      bare: { stream: "stderr", exitCode: 1 },
      commands: [
        {
          name: "docker-registry",
          short: "Create a secret for use with a Docker registry",
          long: `Create a new secret for use with Docker registries.
        
        Dockercfg secrets are used to authenticate against Docker registries.
        
        When using the Docker command line to push images, you can authenticate to a given registry by running:
        '$ docker login DOCKER_REGISTRY_SERVER --username=DOCKER_USER --password=DOCKER_PASSWORD --email=DOCKER_EMAIL'.
        
 That produces a ~/.dockercfg file that is used by subsequent 'docker push' and 'docker pull' commands to authenticate to the registry. The email address is optional.

        When creating applications, you may have a Docker registry that requires authentication.  In order for the
        nodes to pull images on your behalf, they must have the credentials.  You can provide this information
        by creating a dockercfg secret and attaching it to your service account.`,
          example: `  # If you do not already have a .dockercfg file, create a dockercfg secret directly
  kubectl create secret docker-registry my-secret --docker-server=DOCKER_REGISTRY_SERVER --docker-username=DOCKER_USER --docker-password=DOCKER_PASSWORD --docker-email=DOCKER_EMAIL
  
  # Create a new secret named my-secret from ~/.docker/config.json
  kubectl create secret docker-registry my-secret --from-file=path/to/.docker/config.json`,
          usage: "kubectl create secret docker-registry NAME --docker-username=user --docker-password=password --docker-email=email [--docker-server=string] [--from-file=[key=]source] [--dry-run=server|client|none] [options]",
          flags: [
            F.allowMissingTemplateKeys,
            F.appendHash,
            { name: "docker-email", type: "string", defValue: "''", usage: "Email for Docker registry" },
            { name: "docker-password", type: "string", defValue: "''", usage: "Password for Docker registry authentication" },
            { name: "docker-server", type: "string", defValue: "'https://index.docker.io/v1/'", usage: "Server location for Docker registry" },
            { name: "docker-username", type: "string", defValue: "''", usage: "Username for Docker registry authentication" },
            F.dryRun,
            F.fieldManager,
            { name: "from-file", type: "stringSlice", defValue: "[]", usage: "Key files can be specified using their file path, in which case a default name of .dockerconfigjson will be given to them, or optionally with a name and file path, in which case the given name will be used. Specifying a directory will iterate each named file in the directory that is a valid secret key. For this command, the key should always be .dockerconfigjson." },
            F.output,
            F.saveConfig,
            F.showManagedFields,
            F.template,
            F.validate,
          ],
        },
        {
          name: "generic",
          short: "Create a secret from a local file, directory, or literal value",
          long: `Create a secret based on a file, directory, or specified literal value.

 A single secret may package one or more key/value pairs.

 When creating a secret based on a file, the key will default to the basename of the file, and the value will default to the file content. If the basename is an invalid key or you wish to chose your own, you may specify an alternate key.

 When creating a secret based on a directory, each file whose basename is a valid key in the directory will be packaged into the secret. Any directory entries except regular files are ignored (e.g. subdirectories, symlinks, devices, pipes, etc).`,
          example: `  # Create a new secret named my-secret with keys for each file in folder bar
  kubectl create secret generic my-secret --from-file=path/to/bar
  
  # Create a new secret named my-secret with specified keys instead of names on disk
  kubectl create secret generic my-secret --from-file=ssh-privatekey=path/to/id_rsa --from-file=ssh-publickey=path/to/id_rsa.pub
  
  # Create a new secret named my-secret with key1=supersecret and key2=topsecret
  kubectl create secret generic my-secret --from-literal=key1=supersecret --from-literal=key2=topsecret
  
  # Create a new secret named my-secret using a combination of a file and a literal
  kubectl create secret generic my-secret --from-file=ssh-privatekey=path/to/id_rsa --from-literal=passphrase=topsecret
  
  # Create a new secret named my-secret from env files
  kubectl create secret generic my-secret --from-env-file=path/to/foo.env --from-env-file=path/to/bar.env`,
          usage: "kubectl create secret generic NAME [--type=string] [--from-file=[key=]source] [--from-literal=key1=value1] [--dry-run=server|client|none] [options]",
          flags: [
            F.allowMissingTemplateKeys,
            F.appendHash,
            F.dryRun,
            F.fieldManager,
            { name: "from-env-file", type: "stringSlice", defValue: "[]", usage: "Specify the path to a file to read lines of key=val pairs to create a secret." },
            { name: "from-file", type: "stringSlice", defValue: "[]", usage: "Key files can be specified using their file path, in which case a default name will be given to them, or optionally with a name and file path, in which case the given name will be used.  Specifying a directory will iterate each named file in the directory that is a valid secret key." },
            { name: "from-literal", type: "stringArray", defValue: "[]", usage: "Specify a key and literal value to insert in secret (i.e. mykey=somevalue)" },
            F.output,
            F.saveConfig,
            F.showManagedFields,
            F.template,
            { name: "type", type: "string", defValue: "''", usage: "The type of secret to create" },
            F.validate,
          ],
        },
        {
          name: "tls",
          short: "Create a TLS secret",
          long: `Create a TLS secret from the given public/private key pair.

 The public/private key pair must exist beforehand. The public key certificate must be .PEM encoded and match the given private key.`,
          example: `  # Create a new TLS secret named tls-secret with the given key pair
  kubectl create secret tls tls-secret --cert=path/to/tls.crt --key=path/to/tls.key`,
          usage: "kubectl create secret tls NAME --cert=path/to/cert/file --key=path/to/key/file [--dry-run=server|client|none] [options]",
          flags: [
            F.allowMissingTemplateKeys,
            F.appendHash,
            { name: "cert", type: "string", defValue: "''", usage: "Path to PEM encoded public key certificate." },
            F.dryRun,
            F.fieldManager,
            { name: "key", type: "string", defValue: "''", usage: "Path to private key associated with given certificate." },
            F.output,
            F.saveConfig,
            F.showManagedFields,
            F.template,
            F.validate,
          ],
        },
      ],
    },
    {
      name: "service",
      short: "Create a service using a specified subcommand",
      aliases: ["svc"],
      long: `Create a service using a specified subcommand.`,
      usage: "kubectl create service [flags] [options]",
      bare: { stream: "stderr", exitCode: 1 },
      commands: [
        {
          name: "clusterip",
          short: "Create a ClusterIP service",
          long: `Create a ClusterIP service with the specified name.`,
          example: `  # Create a new ClusterIP service named my-cs
  kubectl create service clusterip my-cs --tcp=5678:8080
  
  # Create a new ClusterIP service named my-cs (in headless mode)
  kubectl create service clusterip my-cs --clusterip="None"`,
          usage: "kubectl create service clusterip NAME [--tcp=<port>:<targetPort>] [--dry-run=server|client|none] [options]",
          flags: [
            F.allowMissingTemplateKeys,
            { name: "clusterip", type: "string", defValue: "''", usage: "Assign your own ClusterIP or set to 'None' for a 'headless' service (no loadbalancing)." },
            F.dryRun,
            F.fieldManager,
            F.output,
            F.saveConfig,
            F.showManagedFields,
            F.tcp,
            F.template,
            F.validate,
          ],
        },
        {
          name: "externalname",
          short: "Create an ExternalName service",
          long: `Create an ExternalName service with the specified name.

 ExternalName service references to an external DNS address instead of only pods, which will allow application authors to reference services that exist off platform, on other clusters, or locally.`,
          example: `  # Create a new ExternalName service named my-ns
  kubectl create service externalname my-ns --external-name bar.com`,
          usage: "kubectl create service externalname NAME --external-name external.name [--dry-run=server|client|none] [options]",
          flags: [
            F.allowMissingTemplateKeys,
            F.dryRun,
            { name: "external-name", type: "string", defValue: "''", usage: "External name of service" },
            F.fieldManager,
            F.output,
            F.saveConfig,
            F.showManagedFields,
            F.tcp,
            F.template,
            F.validate,
          ],
        },
        {
          name: "loadbalancer",
          short: "Create a LoadBalancer service",
          long: `Create a LoadBalancer service with the specified name.`,
          example: `  # Create a new LoadBalancer service named my-lbs
  kubectl create service loadbalancer my-lbs --tcp=5678:8080`,
          usage: "kubectl create service loadbalancer NAME [--tcp=port:targetPort] [--dry-run=server|client|none] [options]",
          flags: [
            F.allowMissingTemplateKeys,
            F.dryRun,
            F.fieldManager,
            F.output,
            F.saveConfig,
            F.showManagedFields,
            F.tcp,
            F.template,
            F.validate,
          ],
        },
        {
          name: "nodeport",
          short: "Create a NodePort service",
          long: `Create a NodePort service with the specified name.`,
          example: `  # Create a new NodePort service named my-ns
  kubectl create service nodeport my-ns --tcp=5678:8080`,
          usage: "kubectl create service nodeport NAME [--tcp=port:targetPort] [--dry-run=server|client|none] [options]",
          flags: [
            F.allowMissingTemplateKeys,
            F.dryRun,
            F.fieldManager,
            { name: "node-port", type: "int", defValue: "0", usage: "Port used to expose the service on each node in a cluster." },
            F.output,
            F.saveConfig,
            F.showManagedFields,
            F.tcp,
            F.template,
            F.validate,
          ],
        },
      ],
    },
    {
      name: "serviceaccount",
      short: "Create a service account with the specified name",
      aliases: ["sa"],
      long: `Create a service account with the specified name.`,
      example: `  # Create a new service account named my-service-account
  kubectl create serviceaccount my-service-account`,
      usage: "kubectl create serviceaccount NAME [--dry-run=server|client|none] [options]",
      flags: [
        F.allowMissingTemplateKeys,
        F.dryRun,
        F.fieldManager,
        F.output,
        F.saveConfig,
        F.showManagedFields,
        F.template,
        F.validate,
      ],
    },
    {
      name: "token",
      short: "Request a service account token",
      long: `Request a service account token.`,
      example: `  # Request a token to authenticate to the kube-apiserver as the service account "myapp" in the current namespace
  kubectl create token myapp
  
  # Request a token for a service account in a custom namespace
  kubectl create token myapp --namespace myns
  
  # Request a token with a custom expiration
  kubectl create token myapp --duration 10m
  
  # Request a token with a custom audience
  kubectl create token myapp --audience https://example.com
  
  # Request a token bound to an instance of a Secret object
  kubectl create token myapp --bound-object-kind Secret --bound-object-name mysecret
  
  # Request a token bound to an instance of a Secret object with a specific UID
  kubectl create token myapp --bound-object-kind Secret --bound-object-name mysecret --bound-object-uid 0d4691ed-659b-4935-a832-355f77ee47cc`,
      usage: "kubectl create token SERVICE_ACCOUNT_NAME [options]",
      flags: [
        F.allowMissingTemplateKeys,
        { name: "audience", type: "stringSlice", defValue: "[]", usage: "Audience of the requested token. If unset, defaults to requesting a token for use with the Kubernetes API server. May be repeated to request a token valid for multiple audiences." },
        { name: "bound-object-kind", type: "string", defValue: "''", usage: "Kind of an object to bind the token to. Supported kinds are Node, Pod, Secret. If set, --bound-object-name must be provided." },
        { name: "bound-object-name", type: "string", defValue: "''", usage: "Name of an object to bind the token to. The token will expire when the object is deleted. Requires --bound-object-kind." },
        { name: "bound-object-uid", type: "string", defValue: "''", usage: "UID of an object to bind the token to. Requires --bound-object-kind and --bound-object-name. If unset, the UID of the existing object is used." },
        { name: "duration", type: "string", defValue: "0s", usage: "Requested lifetime of the issued token. If not set or if set to 0, the lifetime will be determined by the server automatically. The server may return a token with a longer or shorter lifetime." },
        F.output,
        F.showManagedFields,
        F.template,
      ],
    },
  ],
};
