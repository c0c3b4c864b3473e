/**
 * Logs of containers whose process is simulated by a runtime override (runtime/overrides.ts):
 * CoreDNS's startup, reload and error lines; kube-proxy's "command failed" lines.
 */
import type { LogSource } from './index.js';
import { lookupImage } from '../../images.js';

export const programOverrideLogs: LogSource = (c, pod, container, previous) => {
  const ct = pod.spec.containers.find((x) => x.name === container);
  const image = ct ? lookupImage(ct.image) : undefined;
  return image ? c.programOverride(image.repository)?.logs(c, pod, container, previous) : undefined;
};
