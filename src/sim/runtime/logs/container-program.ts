/** What the container's process printed (runtime/program.ts); a restarted container printed the same on every run. */
import type { LogSource } from './index.js';
import { lookupImage } from '../../images.js';
import { containerProgram } from '../program.js';

export const containerProgramLogs: LogSource = (_cluster, pod, container) => {
  const ct = [...pod.spec.containers, ...(pod.spec.initContainers ?? [])].find((c) => c.name === container);
  const image = ct ? lookupImage(ct.image) : undefined;
  if (!ct || !image) return undefined;
  const prog = containerProgram(ct, image);
  return prog.kind === 'not-found' ? '' : prog.output;
};
