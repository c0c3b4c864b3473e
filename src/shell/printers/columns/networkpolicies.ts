/** NetworkPolicies: printers.go networkPolicyColumnDefinitions (:381-386), printNetworkPolicy (:2601); reference §4.17. */
import type { NetworkPolicy } from '../../../sim/api/types.js';
import { translateTimestampSince } from '../duration.js';
import { AGE, NAME, formatLabelSelector } from './cells.js';
import type { KindPrinter } from './types.js';

export const networkpolicies: KindPrinter = {
  columns: [NAME, { name: 'Pod-Selector' }, AGE],
  row(obj, now) {
    const np = obj as NetworkPolicy;
    return [np.metadata.name, formatLabelSelector(np.spec.podSelector), translateTimestampSince(np.metadata.creationTimestamp, now)];
  },
};
