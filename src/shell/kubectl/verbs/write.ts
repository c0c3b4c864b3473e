/** Verbs that change the cluster, one file each, in `kubectl help` order. */
import type { Verb } from '../context.js';
import { annotateVerb } from './annotate.js';
import { authReconcileVerb } from './auth-reconcile.js';
import { autoscaleVerb } from './autoscale.js';
import { certificateApproveVerb, certificateDenyVerb } from './certificate.js';
import { applyVerb } from './apply.js';
import { cordon, uncordon } from './cordon.js';
import { createVerb } from './create.js';
import { createTokenVerb } from './create-token.js';
import { cpVerb } from './cp.js';
import { debugVerb } from './debug.js';
import { deleteVerb } from './delete.js';
import { diffVerb } from './diff.js';
import { drainVerb } from './drain.js';
import { editVerb } from './edit.js';
import { execVerb } from './exec.js';
import { exposeVerb } from './expose.js';
import { labelVerb } from './label.js';
import { patchVerb } from './patch.js';
import { replaceVerb } from './replace.js';
import { rolloutVerb } from './rollout.js';
import { runVerb } from './run.js';
import { scaleVerb } from './scale.js';
import { setVerb } from './set.js';
import { taintVerb } from './taint.js';

export const WRITE_VERBS: readonly Verb[] = [
  createVerb,
  createTokenVerb,
  exposeVerb,
  runVerb,
  setVerb,
  editVerb,
  deleteVerb,
  rolloutVerb,
  scaleVerb,
  autoscaleVerb,
  cordon,
  uncordon,
  drainVerb,
  certificateApproveVerb,
  certificateDenyVerb,
  taintVerb,
  execVerb,
  applyVerb,
  patchVerb,
  replaceVerb,
  labelVerb,
  annotateVerb,
  authReconcileVerb,
  diffVerb,
  cpVerb,
  debugVerb,
];
