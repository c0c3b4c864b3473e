/**
 * VolumeAttachments: printers.go volumeAttachmentColumnDefinitions (Name, Attacher, PV, Node,
 * Attached, Age), printVolumeAttachment: PV is spec.source.persistentVolumeName or empty.
 */
import { translateTimestampSince } from '../duration.js';
import { AGE, NAME, at, str } from './cells.js';
import type { KindPrinter } from './types.js';

export const volumeattachments: KindPrinter = {
  columns: [NAME, { name: 'Attacher' }, { name: 'PV' }, { name: 'Node' }, { name: 'Attached' }, AGE],
  row(obj, now) {
    return [
      obj.metadata.name,
      str(obj, 'spec', 'attacher'),
      str(obj, 'spec', 'source', 'persistentVolumeName'),
      str(obj, 'spec', 'nodeName'),
      String(at(obj, 'status', 'attached') === true),
      translateTimestampSince(obj.metadata.creationTimestamp, now),
    ];
  },
};
