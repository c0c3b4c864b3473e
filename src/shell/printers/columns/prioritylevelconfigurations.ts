/**
 * PriorityLevelConfigurations: printers.go priorityLevelColumnDefinitions and
 * printPriorityLevelConfiguration (k8s.io/kubernetes pkg/printers/internalversion): the
 * concurrency shares only for a Limited level, the queuing numbers only when it queues;
 * `<none>` otherwise.
 */
import { translateTimestampSince } from '../duration.js';
import { AGE, NAME, at, optStr } from './cells.js';
import type { KindPrinter } from './types.js';

const cell = (v: unknown): string => (v === undefined ? '<none>' : v === null ? '<nil>' : String(v));

export const prioritylevelconfigurations: KindPrinter = {
  columns: [NAME, { name: 'Type' }, { name: 'NominalConcurrencyShares' }, { name: 'Queues' }, { name: 'HandSize' }, { name: 'QueueLengthLimit' }, AGE],
  row(obj, now) {
    const limited = at(obj, 'spec', 'limited');
    let ncs = '<none>';
    let queuing: unknown;
    if (limited !== undefined && limited !== null) {
      // a *int32 cell: JSON null when unset (the server defaults it, so it rarely is)
      ncs = cell(at(limited, 'nominalConcurrencyShares') ?? null);
      queuing = at(limited, 'limitResponse', 'queuing');
    }
    const q = (k: string): string => (queuing === undefined || queuing === null ? '<none>' : String(at(queuing, k) ?? 0));
    return [obj.metadata.name, optStr(obj, 'spec', 'type') ?? '', ncs, q('queues'), q('handSize'), q('queueLengthLimit'), translateTimestampSince(obj.metadata.creationTimestamp, now)];
  },
};
