/**
 * CSIDrivers: printers.go csiDriverColumnDefinitions, printCSIDriver: attachRequired defaults to
 * true, podInfoOnMount/storageCapacity/requiresRepublish to false, TOKENREQUESTS lists the
 * audiences (`<unset>` without tokenRequests), MODES the volumeLifecycleModes (`<none>`).
 */
import { translateTimestampSince } from '../duration.js';
import { AGE, NAME, arr, at, str } from './cells.js';
import type { KindPrinter } from './types.js';

const flag = (v: unknown, dflt: boolean): string => String(typeof v === 'boolean' ? v : dflt);

export const csidrivers: KindPrinter = {
  columns: [NAME, { name: 'AttachRequired' }, { name: 'PodInfoOnMount' }, { name: 'StorageCapacity' }, { name: 'TokenRequests' }, { name: 'RequiresRepublish' }, { name: 'Modes' }, AGE],
  row(obj, now) {
    const tr = at(obj, 'spec', 'tokenRequests');
    const tokenRequests = Array.isArray(tr) ? tr.map((t) => str(t, 'audience')).join(',') : '<unset>';
    const modes = arr(obj, 'spec', 'volumeLifecycleModes').filter((m): m is string => typeof m === 'string').join(',') || '<none>';
    return [
      obj.metadata.name,
      flag(at(obj, 'spec', 'attachRequired'), true),
      flag(at(obj, 'spec', 'podInfoOnMount'), false),
      flag(at(obj, 'spec', 'storageCapacity'), false),
      tokenRequests,
      flag(at(obj, 'spec', 'requiresRepublish'), false),
      modes,
      translateTimestampSince(obj.metadata.creationTimestamp, now),
    ];
  },
};
