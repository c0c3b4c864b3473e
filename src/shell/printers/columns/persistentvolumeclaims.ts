/** PersistentVolumeClaims: printers.go persistentVolumeClaimColumnDefinitions (:324-335), printPersistentVolumeClaim (:2089); reference §4.20. */
import { translateTimestampSince } from '../duration.js';
import { AGE, NAME, accessModes, arr, at, optStr, quantity, str } from './cells.js';
import type { KindPrinter } from './types.js';

export const persistentvolumeclaims: KindPrinter = {
  columns: [
    NAME,
    { name: 'Status' },
    { name: 'Volume' },
    { name: 'Capacity' },
    { name: 'Access Modes' },
    { name: 'StorageClass' },
    { name: 'VolumeAttributesClass' },
    AGE,
    { name: 'VolumeMode', wide: true },
  ],
  row(obj, now) {
    const phase = obj.metadata.deletionTimestamp ? 'Terminating' : str(obj, 'status', 'phase');
    const volumeName = str(obj, 'spec', 'volumeName');
    let capacity = '';
    let modes = '';
    if (volumeName !== '') {
      modes = accessModes(arr(obj, 'status', 'accessModes'));
      capacity = quantity(at(obj, 'status', 'capacity', 'storage'));
    }
    const storageClass =
      obj.metadata.annotations?.['volume.beta.kubernetes.io/storage-class'] ?? str(obj, 'spec', 'storageClassName');
    return [
      obj.metadata.name,
      phase,
      volumeName,
      capacity,
      modes,
      storageClass,
      optStr(obj, 'spec', 'volumeAttributesClassName') ?? '<unset>',
      translateTimestampSince(obj.metadata.creationTimestamp, now),
      optStr(obj, 'spec', 'volumeMode') ?? '<unset>',
    ];
  },
};
