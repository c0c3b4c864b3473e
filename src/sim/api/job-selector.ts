/**
 * The selector and labels the API server gives a Job whose selector is not manual
 * (pkg/registry/batch/job/strategy.go generateSelector): the pod template gets `job-name` and
 * `controller-uid` in their legacy and `batch.kubernetes.io/` forms (a label the user set is kept),
 * and the selector matches `batch.kubernetes.io/controller-uid`. A Job without labels of its own
 * shows its template's (pkg/apis/batch/v1/defaults.go SetDefaults_Job, applied when the stored
 * object is read back). The uid must already be assigned (rest.BeforeCreate sets it first).
 */
import type { Job } from './types.js';

export function generateJobSelector(job: Job): void {
  if (job.spec['manualSelector'] === true) return;
  const uid = job.metadata.uid ?? '';
  const meta = (job.spec.template.metadata ??= {});
  const labels = (meta.labels ??= {});
  for (const k of ['job-name', 'batch.kubernetes.io/job-name']) labels[k] ??= job.metadata.name;
  for (const k of ['controller-uid', 'batch.kubernetes.io/controller-uid']) labels[k] ??= uid;
  const selector = (job.spec.selector ??= {});
  const match = (selector.matchLabels ??= {});
  match['batch.kubernetes.io/controller-uid'] ??= uid;
  if (!job.metadata.labels || Object.keys(job.metadata.labels).length === 0) job.metadata.labels = { ...labels };
}
