/**
 * `kubectl logs` text: the kubelet's /containerLogs endpoint lives in the simulation
 * (src/sim/runtime/logs, an ordered list of sources); kubectl only reads it.
 */
export { podLogs, podLogLines, type LogSource, type LogLine } from '../../sim/runtime/logs/index.js';
