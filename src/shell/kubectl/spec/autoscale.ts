/**
 * `kubectl autoscale`: the command's declaration (flags, usage, help text).
 * Recorded from kubectl v1.35.2 by scripts/record-help.mjs: edit there, or by hand and re-check with
 * the help goldens (spec/help.test.ts).
 */
import type { CommandSpec } from './types.js';
import * as F from './flags.js';

export const autoscaleSpec: CommandSpec = {
  name: "autoscale",
  short: "Auto-scale a deployment, replica set, stateful set, or replication controller",
  long: `Creates an autoscaler that automatically chooses and sets the number of pods that run in a Kubernetes cluster. The command will attempt to use the autoscaling/v2 API first, in case of an error, it will fall back to autoscaling/v1 API.

 Looks up a deployment, replica set, stateful set, or replication controller by name and creates an autoscaler that uses the given resource as a reference. An autoscaler can automatically increase or decrease number of pods deployed within the system as needed.`,
  example: `  # Auto scale a deployment "foo", with the number of pods between 2 and 10, no target CPU utilization specified so a default autoscaling policy will be used
  kubectl autoscale deployment foo --min=2 --max=10
  
  # Auto scale a replication controller "foo", with the number of pods between 1 and 5, target CPU utilization at 80%
  kubectl autoscale rc foo --max=5 --cpu=80%
  
  # Auto scale a deployment "bar", with the number of pods between 3 and 6, target average CPU of 500m and memory of 200Mi
  kubectl autoscale deployment bar --min=3 --max=6 --cpu=500m --memory=200Mi
  
  # Auto scale a deployment "bar", with the number of pods between 2 and 8, target CPU utilization 60% and memory utilization 70%
  kubectl autoscale deployment bar --min=3 --max=6 --cpu=60% --memory=70%`,
  usage: "kubectl autoscale (-f FILENAME | TYPE NAME | TYPE/NAME) [--min=MINPODS] --max=MAXPODS [--cpu=CPU] [--memory=MEMORY] [options]",
  flags: [
    F.allowMissingTemplateKeys,
    { name: "cpu", type: "string", defValue: "''", usage: "Target CPU utilization over all the pods. When specified as a percentage (e.g.\"70%\" for 70% of requested CPU) it will target average utilization. When specified as quantity (e.g.\"500m\" for 500 milliCPU) it will target average value. Value without units is treated as a quantity with miliCPU being the unit (e.g.\"500\" is \"500m\")." },
    F.dryRun,
    { name: "field-manager", type: "string", defValue: "'kubectl-autoscale'", usage: "Name of the manager used to track field ownership." },
    { name: "filename", short: "f", type: "stringSlice", defValue: "[]", usage: "Filename, directory, or URL to files identifying the resource to autoscale." },
    F.kustomize,
    { name: "max", type: "int", defValue: "-1", usage: "The upper limit for the number of pods that can be set by the autoscaler. Required." },
    { name: "memory", type: "string", defValue: "''", usage: "Target memory utilization over all the pods. When specified  as a percentage (e.g.\"60%\" for 60% of requested memory) it will target average utilization. When specified as quantity (e.g.\"200Mi\" for 200 MiB, \"1Gi\" for 1 GiB) it will target average value. Value without units is treated as a quantity with mebibytes being the unit (e.g.\"200\" is \"200Mi\")." },
    { name: "min", type: "int", defValue: "-1", usage: "The lower limit for the number of pods that can be set by the autoscaler. If it's not specified or negative, the server will apply a default value." },
    { name: "name", type: "string", defValue: "''", usage: "The name for the newly created object. If not specified, the name of the input resource will be used." },
    F.output,
    F.recursive,
    F.saveConfig,
    F.showManagedFields,
    F.template,
    { name: "record", type: "bool", defValue: "false", usage: "Record current kubectl command in the resource annotation. If set to false, do not record the command. If set to true, record the command. If not set, default to updating the existing annotation value only if one already exists.", deprecated: "--record will be removed in the future" },
    { name: "cpu-percent", type: "int", defValue: "-1", usage: "The target average CPU utilization (represented as a percent of requested CPU) over all the pods. If it's not specified or negative, a default autoscaling policy will be used.", deprecated: "Use --cpu with percentage or resource quantity format (e.g., '70%' for utilization or '500m' for milliCPU)." },
  ],
};
