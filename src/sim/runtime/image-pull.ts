/**
 * A failed image pull as the kubelet reports it, shared by API pods (kubelet.ts) and static pods
 * (static-pods.ts). pkg/kubelet/images/image_manager.go EnsureImageExists: the Pulling event, then
 * the runtime's error as a Failed event and `Error: ErrImagePull` (the container waits with reason
 * ErrImagePull and the pull error as its message); while the pull back-off
 * (flowcontrol.Backoff, 10 s doubling to 5 m) runs, each sync logs BackOff `Back-off pulling image`
 * and `Error: ImagePullBackOff` (pkg/kubelet/images/types.go ErrImagePullBackOff).
 */
import { pullErrorMessage } from '../images.js';

export type KubeletEvent = [type: 'Normal' | 'Warning', reason: string, msg: string];

/** How soon after a failed pull the kubelet's next sync finds it backing off. */
export const PULL_RETRY_MS = 2_000;
const BACKOFF_BASE_MS = 10_000;
const BACKOFF_MAX_MS = 300_000;

/** The pull back-off after the n-th failure (1-based): 10s, 20s, 40s … 5m. */
export function pullBackoffMs(failures: number): number {
  return Math.min(BACKOFF_MAX_MS, BACKOFF_BASE_MS * 2 ** Math.max(0, failures - 1));
}

/** The container's waiting message while its last pull failed (ErrImagePull). */
export function errImagePullMessage(image: string): string {
  return pullErrorMessage(image).replace(/^Failed to pull image "[^"]*": /, '');
}

/** The container's waiting message while the pull back-off runs (ImagePullBackOff). */
export function imagePullBackOffMessage(image: string): string {
  return `Back-off pulling image "${image}": ErrImagePull: ${errImagePullMessage(image)}`;
}

/** The events of one failed pull. */
export function pullFailedEvents(image: string): KubeletEvent[] {
  return [
    ['Normal', 'Pulling', `Pulling image "${image}"`],
    ['Warning', 'Failed', pullErrorMessage(image)],
    ['Warning', 'Failed', 'Error: ErrImagePull'],
  ];
}

/** The events of a sync that finds the pull backing off. */
export function pullBackOffEvents(image: string): KubeletEvent[] {
  return [
    ['Normal', 'BackOff', `Back-off pulling image "${image}"`],
    ['Warning', 'Failed', 'Error: ImagePullBackOff'],
  ];
}
