/**
 * `kubectl config`: the command's declaration (flags, usage, help text).
 * Recorded from kubectl v1.35.2 by scripts/record-help.mjs: edit there, or by hand and re-check with
 * the help goldens (spec/help.test.ts).
 */
import type { CommandSpec } from './types.js';
import * as F from './flags.js';

export const configSpec: CommandSpec = {
  name: "config",
  short: "Modify kubeconfig files",
  long: `Modify kubeconfig files using subcommands like "kubectl config set current-context my-context".

 The loading order follows these rules:

  1.  If the --kubeconfig flag is set, then only that file is loaded. The flag may only be set once and no merging takes place.
  2.  If $KUBECONFIG environment variable is set, then it is used as a list of paths (normal path delimiting rules for your system). These paths are merged. When a value is modified, it is modified in the file that defines the stanza. When a value is created, it is created in the first file that exists. If no files in the chain exist, then it creates the last file in the list.
  3.  Otherwise, \${HOME}/.kube/config is used and no merging takes place.`,
  usage: "kubectl config SUBCOMMAND [options]",
  bare: { stream: "stderr", exitCode: 1 },
  commands: [
    {
      name: "current-context",
      short: "Display the current-context",
      long: `Display the current-context.`,
      example: `  # Display the current-context
  kubectl config current-context`,
      usage: "kubectl config current-context [flags] [options]",
    },
    {
      name: "delete-cluster",
      short: "Delete the specified cluster from the kubeconfig",
      long: `Delete the specified cluster from the kubeconfig.`,
      example: `  # Delete the minikube cluster
  kubectl config delete-cluster minikube`,
      usage: "kubectl config delete-cluster NAME [options]",
    },
    {
      name: "delete-context",
      short: "Delete the specified context from the kubeconfig",
      long: `Delete the specified context from the kubeconfig.`,
      example: `  # Delete the context for the minikube cluster
  kubectl config delete-context minikube`,
      usage: "kubectl config delete-context NAME [options]",
    },
    {
      name: "delete-user",
      short: "Delete the specified user from the kubeconfig",
      long: `Delete the specified user from the kubeconfig.`,
      example: `  # Delete the minikube user
  kubectl config delete-user minikube`,
      usage: "kubectl config delete-user NAME [options]",
    },
    {
      name: "get-clusters",
      short: "Display clusters defined in the kubeconfig",
      long: `Display clusters defined in the kubeconfig.`,
      example: `  # List the clusters that kubectl knows about
  kubectl config get-clusters`,
      usage: "kubectl config get-clusters [flags] [options]",
    },
    {
      name: "get-contexts",
      short: "Describe one or many contexts",
      long: `Display one or many contexts from the kubeconfig file.`,
      example: `  # List all the contexts in your kubeconfig file
  kubectl config get-contexts
  
  # Describe one context in your kubeconfig file
  kubectl config get-contexts my-context`,
      usage: "kubectl config get-contexts [(-o|--output=)name)] [options]",
      flags: [
        F.noHeaders,
        { name: "output", short: "o", type: "string", defValue: "''", usage: "Output format. One of: (name)." },
      ],
    },
    {
      name: "get-users",
      short: "Display users defined in the kubeconfig",
      long: `Display users defined in the kubeconfig.`,
      example: `  # List the users that kubectl knows about
  kubectl config get-users`,
      usage: "kubectl config get-users [flags] [options]",
    },
    {
      name: "rename-context",
      short: "Rename a context from the kubeconfig file",
      long: `Renames a context from the kubeconfig file.

 CONTEXT_NAME is the context name that you want to change.

 NEW_NAME is the new name you want to set.

 Note: If the context being renamed is the 'current-context', this field will also be updated.`,
      example: `  # Rename the context 'old-name' to 'new-name' in your kubeconfig file
  kubectl config rename-context old-name new-name`,
      usage: "kubectl config rename-context CONTEXT_NAME NEW_NAME [options]",
    },
    {
      name: "set",
      short: "Set an individual value in a kubeconfig file",
      long: `Set an individual value in a kubeconfig file.

 PROPERTY_NAME is a dot delimited name where each token represents either an attribute name or a map key.  Map keys may not contain dots.

 PROPERTY_VALUE is the new value you want to set. Binary fields such as 'certificate-authority-data' expect a base64 encoded string unless the --set-raw-bytes flag is used.

 Specifying an attribute name that already exists will merge new fields on top of existing values.`,
      example: `  # Set the server field on the my-cluster cluster to https://1.2.3.4
  kubectl config set clusters.my-cluster.server https://1.2.3.4
  
  # Set the certificate-authority-data field on the my-cluster cluster
  kubectl config set clusters.my-cluster.certificate-authority-data $(echo "cert_data_here" | base64 -i -)
  
  # Set the cluster field in the my-context context to my-cluster
  kubectl config set contexts.my-context.cluster my-cluster
  
  # Set the client-key-data field in the cluster-admin user using --set-raw-bytes option
  kubectl config set users.cluster-admin.client-key-data cert_data_here --set-raw-bytes=true`,
      usage: "kubectl config set PROPERTY_NAME PROPERTY_VALUE [options]",
      flags: [
        { name: "set-raw-bytes", type: "bool", defValue: "false", usage: "When writing a []byte PROPERTY_VALUE, write the given string directly without base64 decoding." },
      ],
    },
    {
      name: "set-cluster",
      short: "Set a cluster entry in kubeconfig",
      long: `Set a cluster entry in kubeconfig.

 Specifying a name that already exists will merge new fields on top of existing values for those fields.`,
      example: `  # Set only the server field on the e2e cluster entry without touching other values
  kubectl config set-cluster e2e --server=https://1.2.3.4
  
  # Embed certificate authority data for the e2e cluster entry
  kubectl config set-cluster e2e --embed-certs --certificate-authority=~/.kube/e2e/kubernetes.ca.crt
  
  # Disable cert checking for the e2e cluster entry
  kubectl config set-cluster e2e --insecure-skip-tls-verify=true
  
  # Set the custom TLS server name to use for validation for the e2e cluster entry
  kubectl config set-cluster e2e --tls-server-name=my-cluster-name
  
  # Set the proxy URL for the e2e cluster entry
  kubectl config set-cluster e2e --proxy-url=https://1.2.3.4`,
      usage: "kubectl config set-cluster NAME [--server=server] [--certificate-authority=path/to/certificate/authority] [--insecure-skip-tls-verify=true] [--tls-server-name=example.com] [options]",
      flags: [
        { name: "certificate-authority", type: "string", defValue: "''", usage: "Path to certificate-authority file for the cluster entry in kubeconfig" },
        { name: "embed-certs", type: "bool", defValue: "false", usage: "embed-certs for the cluster entry in kubeconfig" },
        { name: "insecure-skip-tls-verify", type: "bool", defValue: "false", usage: "insecure-skip-tls-verify for the cluster entry in kubeconfig" },
        { name: "proxy-url", type: "string", defValue: "''", usage: "proxy-url for the cluster entry in kubeconfig" },
        { name: "server", type: "string", defValue: "''", usage: "server for the cluster entry in kubeconfig" },
        { name: "tls-server-name", type: "string", defValue: "''", usage: "tls-server-name for the cluster entry in kubeconfig" },
      ],
    },
    {
      name: "set-context",
      short: "Set a context entry in kubeconfig",
      long: `Set a context entry in kubeconfig.

 Specifying a name that already exists will merge new fields on top of existing values for those fields.`,
      example: `  # Set the user field on the gce context entry without touching other values
  kubectl config set-context gce --user=cluster-admin`,
      usage: "kubectl config set-context [NAME | --current] [--cluster=cluster_nickname] [--user=user_nickname] [--namespace=namespace] [options]",
      flags: [
        { name: "cluster", type: "string", defValue: "''", usage: "cluster for the context entry in kubeconfig" },
        { name: "current", type: "bool", defValue: "false", usage: "Modify the current context" },
        { name: "namespace", short: "n", type: "string", defValue: "''", usage: "namespace for the context entry in kubeconfig" },
        { name: "user", type: "string", defValue: "''", usage: "user for the context entry in kubeconfig" },
      ],
    },
    {
      name: "set-credentials",
      short: "Set a user entry in kubeconfig",
      long: `Set a user entry in kubeconfig.

 Specifying a name that already exists will merge new fields on top of existing values.

        Client-certificate flags:
        --client-certificate=certfile --client-key=keyfile
        
        Bearer token flags:
        --token=bearer_token
        
        Basic auth flags:
        --username=basic_user --password=basic_password
        
 Bearer token and basic auth are mutually exclusive.`,
      example: `  # Set only the "client-key" field on the "cluster-admin"
  # entry, without touching other values
  kubectl config set-credentials cluster-admin --client-key=~/.kube/admin.key
  
  # Set basic auth for the "cluster-admin" entry
  kubectl config set-credentials cluster-admin --username=admin --password=uXFGweU9l35qcif
  
  # Embed client certificate data in the "cluster-admin" entry
  kubectl config set-credentials cluster-admin --client-certificate=~/.kube/admin.crt --embed-certs=true
  
  # Enable the Google Compute Platform auth provider for the "cluster-admin" entry
  kubectl config set-credentials cluster-admin --auth-provider=gcp
  
  # Enable the OpenID Connect auth provider for the "cluster-admin" entry with additional arguments
  kubectl config set-credentials cluster-admin --auth-provider=oidc --auth-provider-arg=client-id=foo --auth-provider-arg=client-secret=bar
  
  # Remove the "client-secret" config value for the OpenID Connect auth provider for the "cluster-admin" entry
  kubectl config set-credentials cluster-admin --auth-provider=oidc --auth-provider-arg=client-secret-
  
  # Enable new exec auth plugin for the "cluster-admin" entry
  kubectl config set-credentials cluster-admin --exec-command=/path/to/the/executable --exec-api-version=client.authentication.k8s.io/v1beta1
  
  # Enable new exec auth plugin for the "cluster-admin" entry with interactive mode
  kubectl config set-credentials cluster-admin --exec-command=/path/to/the/executable --exec-api-version=client.authentication.k8s.io/v1beta1 --exec-interactive-mode=Never
  
  # Define new exec auth plugin arguments for the "cluster-admin" entry
  kubectl config set-credentials cluster-admin --exec-arg=arg1 --exec-arg=arg2
  
  # Create or update exec auth plugin environment variables for the "cluster-admin" entry
  kubectl config set-credentials cluster-admin --exec-env=key1=val1 --exec-env=key2=val2
  
  # Remove exec auth plugin environment variables for the "cluster-admin" entry
  kubectl config set-credentials cluster-admin --exec-env=var-to-remove-`,
      usage: "kubectl config set-credentials NAME [--client-certificate=path/to/certfile] [--client-key=path/to/keyfile] [--token=bearer_token] [--username=basic_user] [--password=basic_password] [--auth-provider=provider_name] [--auth-provider-arg=key=value] [--exec-command=exec_command] [--exec-api-version=exec_api_version] [--exec-arg=arg] [--exec-env=key=value] [options]",
      flags: [
        { name: "auth-provider", type: "string", defValue: "''", usage: "Auth provider for the user entry in kubeconfig" },
        { name: "auth-provider-arg", type: "stringSlice", defValue: "[]", usage: "'key=value' arguments for the auth provider" },
        { name: "client-certificate", type: "string", defValue: "''", usage: "Path to client-certificate file for the user entry in kubeconfig" },
        { name: "client-key", type: "string", defValue: "''", usage: "Path to client-key file for the user entry in kubeconfig" },
        { name: "embed-certs", type: "bool", defValue: "false", usage: "Embed client cert/key for the user entry in kubeconfig" },
        { name: "exec-api-version", type: "string", defValue: "''", usage: "API version of the exec credential plugin for the user entry in kubeconfig" },
        { name: "exec-arg", type: "stringSlice", defValue: "[]", usage: "New arguments for the exec credential plugin command for the user entry in kubeconfig" },
        { name: "exec-command", type: "string", defValue: "''", usage: "Command for the exec credential plugin for the user entry in kubeconfig" },
        { name: "exec-env", type: "stringSlice", defValue: "[]", usage: "'key=value' environment values for the exec credential plugin" },
        { name: "exec-interactive-mode", type: "string", defValue: "''", usage: "InteractiveMode of the exec credentials plugin for the user entry in kubeconfig" },
        { name: "exec-provide-cluster-info", type: "bool", defValue: "false", usage: "ProvideClusterInfo of the exec credentials plugin for the user entry in kubeconfig" },
        { name: "password", type: "string", defValue: "''", usage: "password for the user entry in kubeconfig" },
        { name: "token", type: "string", defValue: "''", usage: "token for the user entry in kubeconfig" },
        { name: "username", type: "string", defValue: "''", usage: "username for the user entry in kubeconfig" },
      ],
    },
    {
      name: "unset",
      short: "Unset an individual value in a kubeconfig file",
      long: `Unset an individual value in a kubeconfig file.

 PROPERTY_NAME is a dot delimited name where each token represents either an attribute name or a map key.  Map keys may not contain dots.`,
      example: `  # Unset the current-context
  kubectl config unset current-context
  
  # Unset namespace in foo context
  kubectl config unset contexts.foo.namespace`,
      usage: "kubectl config unset PROPERTY_NAME [options]",
    },
    {
      name: "use-context",
      short: "Set the current-context in a kubeconfig file",
      aliases: ["use"],
      long: `Set the current-context in a kubeconfig file.`,
      example: `  # Use the context for the minikube cluster
  kubectl config use-context minikube`,
      usage: "kubectl config use-context CONTEXT_NAME [options]",
    },
    {
      name: "view",
      short: "Display merged kubeconfig settings or a specified kubeconfig file",
      long: `Display merged kubeconfig settings or a specified kubeconfig file.

 You can use --output jsonpath={...} to extract specific values using a jsonpath expression.`,
      example: `  # Show merged kubeconfig settings
  kubectl config view
  
  # Show merged kubeconfig settings, raw certificate data, and exposed secrets
  kubectl config view --raw
  
  # Get the password for the e2e user
  kubectl config view -o jsonpath='{.users[?(@.name == "e2e")].user.password}'`,
      usage: "kubectl config view [flags] [options]",
      flags: [
        F.allowMissingTemplateKeys,
        { name: "flatten", type: "bool", defValue: "false", usage: "Flatten the resulting kubeconfig file into self-contained output (useful for creating portable kubeconfig files)" },
        { name: "merge", type: "bool", defValue: "true", usage: "Merge the full hierarchy of kubeconfig files" },
        { name: "minify", type: "bool", defValue: "false", usage: "Remove all information not used by current-context from the output" },
        { name: "output", short: "o", type: "string", defValue: "'yaml'", usage: "Output format. One of: (json, yaml, kyaml, name, go-template, go-template-file, template, templatefile, jsonpath, jsonpath-as-json, jsonpath-file)." },
        { name: "raw", type: "bool", defValue: "false", usage: "Display raw byte data and sensitive data" },
        F.showManagedFields,
        F.template,
      ],
    },
  ],
};
