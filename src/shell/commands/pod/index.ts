import type { CommandFn } from '../../types.js';
import { curl } from './curl.js';
import { dig } from './dig.js';
import { getent } from './getent.js';
import { host } from './host.js';
import { nc } from './nc.js';
import { nslookup } from './nslookup.js';
import { ping } from './ping.js';
import { wget } from './wget.js';
import { why } from './why.js';
import { registerLogSource } from '../../kubectl/logs-source.js';
import { programOverride } from '../../../sim/runtime/overrides.js';
import { lookupImage } from '../../../sim/images.js';

/**
 * `kubectl logs` of containers whose process is simulated by a runtime override (CoreDNS's startup,
 * reload and error lines; kube-proxy's "command failed" lines).
 */
registerLogSource((c, pod, container, previous) => {
  const ct = pod.spec.containers.find((x) => x.name === container);
  const image = ct ? lookupImage(ct.image) : undefined;
  return image ? programOverride(image.repository)?.logs(c, pod, container, previous) : undefined;
});

/** Network and DNS tools that run on nodes and inside containers, one file each. */
export const POD_COMMANDS: Record<string, CommandFn> = { curl, dig, getent, host, nc, nslookup, ping, wget, why };
