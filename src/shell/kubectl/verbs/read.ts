/** Read-only verbs, one file each, in the order `kubectl` help lists them. */
import type { Verb } from '../context.js';
import { apiResourcesVerb } from './api-resources.js';
import { attachVerb } from './attach.js';
import { portForwardVerb } from './port-forward.js';
import { proxyVerb } from './proxy.js';
import { authCanIVerb, authWhoamiVerb } from './auth.js';
import { apiVersionsVerb } from './api-versions.js';
import { clusterInfoVerb } from './cluster-info.js';
import { completionVerb } from './completion.js';
import { configVerb } from './config.js';
import { describeVerb } from './describe.js';
import { eventsVerb } from './events.js';
import { explainVerb } from './explain.js';
import { getVerb } from './get.js';
import { kustomizeVerb } from './kustomize.js';
import { logsVerb } from './logs.js';
import { topNodeVerb, topPodVerb } from './top.js';
import { versionVerb } from './version.js';
import { waitVerb } from './wait.js';

export const READ_VERBS: readonly Verb[] = [
  getVerb,
  describeVerb,
  explainVerb,
  logsVerb,
  eventsVerb,
  topNodeVerb,
  topPodVerb,
  clusterInfoVerb,
  apiResourcesVerb,
  apiVersionsVerb,
  configVerb,
  authCanIVerb,
  authWhoamiVerb,
  kustomizeVerb,
  versionVerb,
  waitVerb,
  completionVerb,
  attachVerb,
  portForwardVerb,
  proxyVerb,
];
