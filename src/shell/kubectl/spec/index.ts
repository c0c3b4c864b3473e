/**
 * `kubectl` itself: the root command, its command groups in help order, and the global options
 * (`kubectl options`).
 * Recorded from kubectl v1.35.2 by scripts/record-help.mjs: edit there, or by hand and re-check with
 * the help goldens (spec/help.test.ts).
 */
import type { CommandGroup, CommandSpec, FlagDecl } from './types.js';

import { createSpec } from './create.js';
import { exposeSpec } from './expose.js';
import { runSpec } from './run.js';
import { setSpec } from './set.js';
import { explainSpec } from './explain.js';
import { getSpec } from './get.js';
import { editSpec } from './edit.js';
import { deleteSpec } from './delete.js';
import { rolloutSpec } from './rollout.js';
import { scaleSpec } from './scale.js';
import { autoscaleSpec } from './autoscale.js';
import { certificateSpec } from './certificate.js';
import { clusterInfoSpec } from './cluster-info.js';
import { topSpec } from './top.js';
import { cordonSpec } from './cordon.js';
import { uncordonSpec } from './uncordon.js';
import { drainSpec } from './drain.js';
import { taintSpec } from './taint.js';
import { describeSpec } from './describe.js';
import { logsSpec } from './logs.js';
import { attachSpec } from './attach.js';
import { execSpec } from './exec.js';
import { portForwardSpec } from './port-forward.js';
import { proxySpec } from './proxy.js';
import { cpSpec } from './cp.js';
import { authSpec } from './auth.js';
import { debugSpec } from './debug.js';
import { eventsSpec } from './events.js';
import { diffSpec } from './diff.js';
import { applySpec } from './apply.js';
import { patchSpec } from './patch.js';
import { replaceSpec } from './replace.js';
import { waitSpec } from './wait.js';
import { kustomizeSpec } from './kustomize.js';
import { labelSpec } from './label.js';
import { annotateSpec } from './annotate.js';
import { completionSpec } from './completion.js';
import { alphaSpec } from './alpha.js';
import { apiResourcesSpec } from './api-resources.js';
import { apiVersionsSpec } from './api-versions.js';
import { configSpec } from './config.js';
import { pluginSpec } from './plugin.js';
import { versionSpec } from './version.js';

export const ROOT_LONG = `kubectl controls the Kubernetes cluster manager.

 Find more information at: https://kubernetes.io/docs/reference/kubectl/`;
export const ROOT_USAGE = "kubectl [flags] [options]";

/** The groups of `kubectl -h`, in order (templates.CommandGroups in kubectl.go). */
export const GROUPS: readonly CommandGroup[] = [
  { title: "Basic Commands (Beginner)", commands: [createSpec, exposeSpec, runSpec, setSpec] },
  { title: "Basic Commands (Intermediate)", commands: [explainSpec, getSpec, editSpec, deleteSpec] },
  { title: "Deploy Commands", commands: [rolloutSpec, scaleSpec, autoscaleSpec] },
  { title: "Cluster Management Commands", commands: [certificateSpec, clusterInfoSpec, topSpec, cordonSpec, uncordonSpec, drainSpec, taintSpec] },
  { title: "Troubleshooting and Debugging Commands", commands: [describeSpec, logsSpec, attachSpec, execSpec, portForwardSpec, proxySpec, cpSpec, authSpec, debugSpec, eventsSpec] },
  { title: "Advanced Commands", commands: [diffSpec, applySpec, patchSpec, replaceSpec, waitSpec, kustomizeSpec] },
  { title: "Settings Commands", commands: [labelSpec, annotateSpec, completionSpec] },
  { title: "Subcommands provided by plugins", commands: [] },
  { title: "Other Commands", commands: [alphaSpec, apiResourcesSpec, apiVersionsSpec, configSpec, pluginSpec, versionSpec] },
];

export const COMMANDS: readonly CommandSpec[] = GROUPS.flatMap((g) => g.commands);

/** `kubectl options`: the persistent flags every command accepts. */
export const GLOBAL_OPTIONS: readonly FlagDecl[] = [
  { name: "as", type: "string", defValue: "''", usage: "Username to impersonate for the operation. User could be a regular user or a service account in a namespace." },
  { name: "as-group", type: "stringArray", defValue: "[]", usage: "Group to impersonate for the operation, this flag can be repeated to specify multiple groups." },
  { name: "as-uid", type: "string", defValue: "''", usage: "UID to impersonate for the operation." },
  { name: "as-user-extra", type: "stringArray", defValue: "[]", usage: "User extras to impersonate for the operation, this flag can be repeated to specify multiple values for the same key." },
  { name: "cache-dir", type: "string", defValue: "'/root/.kube/cache'", usage: "Default cache directory" },
  { name: "certificate-authority", type: "string", defValue: "''", usage: "Path to a cert file for the certificate authority" },
  { name: "client-certificate", type: "string", defValue: "''", usage: "Path to a client certificate file for TLS" },
  { name: "client-key", type: "string", defValue: "''", usage: "Path to a client key file for TLS" },
  { name: "cluster", type: "string", defValue: "''", usage: "The name of the kubeconfig cluster to use" },
  { name: "context", type: "string", defValue: "''", usage: "The name of the kubeconfig context to use" },
  { name: "disable-compression", type: "bool", defValue: "false", usage: "If true, opt-out of response compression for all requests to the server" },
  { name: "insecure-skip-tls-verify", type: "bool", defValue: "false", usage: "If true, the server's certificate will not be checked for validity. This will make your HTTPS connections insecure" },
  { name: "kubeconfig", type: "string", defValue: "''", usage: "Path to the kubeconfig file to use for CLI requests." },
  { name: "kuberc", type: "string", defValue: "''", usage: "Path to the kuberc file to use for preferences. This can be disabled by exporting KUBECTL_KUBERC=false feature gate or turning off the feature KUBERC=off." },
  { name: "log-flush-frequency", type: "string", defValue: "5s", usage: "Maximum number of seconds between log flushes" },
  { name: "match-server-version", type: "bool", defValue: "false", usage: "Require server version to match client version" },
  { name: "namespace", short: "n", type: "string", defValue: "''", usage: "If present, the namespace scope for this CLI request" },
  { name: "password", type: "string", defValue: "''", usage: "Password for basic authentication to the API server" },
  { name: "profile", type: "string", defValue: "'none'", usage: "Name of profile to capture. One of (none|cpu|heap|goroutine|threadcreate|block|mutex|trace)" },
  { name: "profile-output", type: "string", defValue: "'profile.pprof'", usage: "Name of the file to write the profile to" },
  { name: "request-timeout", type: "string", defValue: "'0'", usage: "The length of time to wait before giving up on a single server request. Non-zero values should contain a corresponding time unit (e.g. 1s, 2m, 3h). A value of zero means don't timeout requests." },
  { name: "server", short: "s", type: "string", defValue: "''", usage: "The address and port of the Kubernetes API server" },
  { name: "tls-server-name", type: "string", defValue: "''", usage: "Server name to use for server certificate validation. If it is not provided, the hostname used to contact the server is used" },
  { name: "token", type: "string", defValue: "''", usage: "Bearer token for authentication to the API server" },
  { name: "user", type: "string", defValue: "''", usage: "The name of the kubeconfig user to use" },
  { name: "username", type: "string", defValue: "''", usage: "Username for basic authentication to the API server" },
  { name: "v", short: "v", type: "int", defValue: "0", usage: "number for the log level verbosity" },
  { name: "vmodule", type: "string", defValue: "", usage: "comma-separated list of pattern=N settings for file-filtered logging (only works for the default text log format)" },
  { name: "warnings-as-errors", type: "bool", defValue: "false", usage: "Treat warnings received from the server as errors and exit with a non-zero exit code" },
];
