/**
 * `kubectl rollout`: the command's declaration (flags, usage, help text).
 * Recorded from kubectl v1.35.2 by scripts/record-help.mjs: edit there, or by hand and re-check with
 * the help goldens (spec/help.test.ts).
 */
import type { CommandSpec } from './types.js';
import * as F from './flags.js';

export const rolloutSpec: CommandSpec = {
  name: "rollout",
  short: "Manage the rollout of a resource",
  long: `Manage the rollout of one or many resources.
        
 Valid resource types include:

  *  deployments
  *  daemonsets
  *  statefulsets`,
  example: `  # Rollback to the previous deployment
  kubectl rollout undo deployment/abc
  
  # Check the rollout status of a daemonset
  kubectl rollout status daemonset/foo
  
  # Restart a deployment
  kubectl rollout restart deployment/abc
  
  # Restart deployments with the 'app=nginx' label
  kubectl rollout restart deployment --selector=app=nginx`,
  usage: "kubectl rollout SUBCOMMAND [options]",
  bare: { stream: "stdout", exitCode: 1 },
  commands: [
    {
      name: "history",
      short: "View rollout history",
      long: `View previous rollout revisions and configurations.`,
      example: `  # View the rollout history of a deployment
  kubectl rollout history deployment/abc
  
  # View the details of daemonset revision 3
  kubectl rollout history daemonset/abc --revision=3`,
      usage: "kubectl rollout history (TYPE NAME | TYPE/NAME) [flags] [options]",
      flags: [
        F.allowMissingTemplateKeys,
        F.filename,
        F.kustomize,
        F.output,
        F.recursive,
        { name: "revision", type: "int", defValue: "0", usage: "See the details, including podTemplate of the revision specified" },
        F.selector,
        F.showManagedFields,
        F.template,
      ],
    },
    {
      name: "pause",
      short: "Mark the provided resource as paused",
      long: `Mark the provided resource as paused.

 Paused resources will not be reconciled by a controller. Use "kubectl rollout resume" to resume a paused resource. Currently only deployments support being paused.`,
      example: `  # Mark the nginx deployment as paused
  # Any current state of the deployment will continue its function; new updates
  # to the deployment will not have an effect as long as the deployment is paused
  kubectl rollout pause deployment/nginx`,
      usage: "kubectl rollout pause RESOURCE [options]",
      flags: [
        F.allowMissingTemplateKeys,
        F.fieldManager4,
        F.filename,
        F.kustomize,
        F.output,
        F.recursive,
        F.selector,
        F.showManagedFields,
        F.template,
      ],
    },
    {
      name: "restart",
      short: "Restart a resource",
      long: `Restart a resource.

        Resource rollout will be restarted.`,
      example: `  # Restart all deployments in the test-namespace namespace
  kubectl rollout restart deployment -n test-namespace
  
  # Restart a deployment
  kubectl rollout restart deployment/nginx
  
  # Restart a daemon set
  kubectl rollout restart daemonset/abc
  
  # Restart deployments with the app=nginx label
  kubectl rollout restart deployment --selector=app=nginx`,
      usage: "kubectl rollout restart RESOURCE [options]",
      flags: [
        F.allowMissingTemplateKeys,
        F.fieldManager4,
        F.filename,
        F.kustomize,
        F.output,
        F.recursive,
        F.selector,
        F.showManagedFields,
        F.template,
      ],
    },
    {
      name: "resume",
      short: "Resume a paused resource",
      long: `Resume a paused resource.

 Paused resources will not be reconciled by a controller. By resuming a resource, we allow it to be reconciled again. Currently only deployments support being resumed.`,
      example: `  # Resume an already paused deployment
  kubectl rollout resume deployment/nginx`,
      usage: "kubectl rollout resume RESOURCE [options]",
      flags: [
        F.allowMissingTemplateKeys,
        F.fieldManager4,
        F.filename,
        F.kustomize,
        F.output,
        F.recursive,
        F.selector,
        F.showManagedFields,
        F.template,
      ],
    },
    {
      name: "status",
      short: "Show the status of the rollout",
      long: `Show the status of the rollout.

 By default 'rollout status' will watch the status of the latest rollout until it's done. If you don't want to wait for the rollout to finish then you can use --watch=false. Note that if a new rollout starts in-between, then 'rollout status' will continue watching the latest revision. If you want to pin to a specific revision and abort if it is rolled over by another revision, use --revision=N where N is the revision you need to watch for.`,
      example: `  # Watch the rollout status of a deployment
  kubectl rollout status deployment/nginx`,
      usage: "kubectl rollout status (TYPE NAME | TYPE/NAME) [flags] [options]",
      flags: [
        F.filename,
        F.kustomize,
        F.recursive,
        { name: "revision", type: "int", defValue: "0", usage: "Pin to a specific revision for showing its status. Defaults to 0 (last revision)." },
        F.selector,
        { name: "timeout", type: "string", defValue: "0s", usage: "The length of time to wait before ending watch, zero means never. Any other values should contain a corresponding time unit (e.g. 1s, 2m, 3h)." },
        { name: "watch", short: "w", type: "bool", defValue: "true", usage: "Watch the status of the rollout until it's done." },
      ],
    },
    {
      name: "undo",
      short: "Undo a previous rollout",
      long: `Roll back to a previous rollout.`,
      example: `  # Roll back to the previous deployment
  kubectl rollout undo deployment/abc
  
  # Roll back to daemonset revision 3
  kubectl rollout undo daemonset/abc --to-revision=3
  
  # Roll back to the previous deployment with dry-run
  kubectl rollout undo --dry-run=server deployment/abc`,
      usage: "kubectl rollout undo (TYPE NAME | TYPE/NAME) [flags] [options]",
      flags: [
        F.allowMissingTemplateKeys,
        F.dryRun,
        F.filename,
        F.kustomize,
        F.output,
        F.recursive,
        F.selector,
        F.showManagedFields,
        F.template,
        { name: "to-revision", type: "int", defValue: "0", usage: "The revision to rollback to. Default to 0 (last revision)." },
      ],
    },
  ],
};
