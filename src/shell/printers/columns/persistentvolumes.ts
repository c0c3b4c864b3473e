/** PersistentVolumes: printers.go persistentVolumeColumnDefinitions (:308-321), printPersistentVolume (:2039); reference §4.19. */
import { translateTimestampSince } from '../duration.js';
import { AGE, NAME, accessModes, arr, at, optStr, quantity, str } from './cells.js';
import type { KindPrinter } from './types.js';

export const persistentvolumes: KindPrinter = {
  columns: [
    NAME,
    { name: 'Capacity' },
    { name: 'Access Modes' },
    { name: 'Reclaim Policy' },
    { name: 'Status' },
    { name: 'Claim' },
    { name: 'StorageClass' },
    { name: 'VolumeAttributesClass' },
    { name: 'Reason' },
    AGE,
    { name: 'VolumeMode', wide: true },
  ],
  row(obj, now) {
    const claimRef = at(obj, 'spec', 'claimRef');
    const claim = claimRef ? `${str(claimRef, 'namespace')}/${str(claimRef, 'name')}` : '';
    const phase = obj.metadata.deletionTimestamp ? 'Terminating' : str(obj, 'status', 'phase');
    const storageClass =
      obj.metadata.annotations?.['volume.beta.kubernetes.io/storage-class'] ?? str(obj, 'spec', 'storageClassName');
    return [
      obj.metadata.name,
      quantity(at(obj, 'spec', 'capacity', 'storage')),
      accessModes(arr(obj, 'spec', 'accessModes')),
      str(obj, 'spec', 'persistentVolumeReclaimPolicy'),
      phase,
      claim,
      storageClass,
      optStr(obj, 'spec', 'volumeAttributesClassName') ?? '<unset>',
      str(obj, 'status', 'reason'),
      translateTimestampSince(obj.metadata.creationTimestamp, now),
      optStr(obj, 'spec', 'volumeMode') ?? '<unset>',
    ];
  },
};
