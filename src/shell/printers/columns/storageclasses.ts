/** StorageClasses: printers.go storageClassColumnDefinitions (:457-463), printStorageClass (:2621); reference §4.21. */
import { translateTimestampSince } from '../duration.js';
import { AGE, NAME, at, optStr, str } from './cells.js';
import type { KindPrinter } from './types.js';

export const storageclasses: KindPrinter = {
  columns: [
    NAME,
    { name: 'Provisioner' },
    { name: 'ReclaimPolicy' },
    { name: 'VolumeBindingMode' },
    { name: 'AllowVolumeExpansion' },
    AGE,
  ],
  row(obj, now) {
    const ann = obj.metadata.annotations ?? {};
    const isDefault =
      ann['storageclass.kubernetes.io/is-default-class'] === 'true' || ann['storageclass.beta.kubernetes.io/is-default-class'] === 'true';
    return [
      isDefault ? `${obj.metadata.name} (default)` : obj.metadata.name,
      str(obj, 'provisioner'),
      optStr(obj, 'reclaimPolicy') ?? 'Delete',
      optStr(obj, 'volumeBindingMode') ?? 'Immediate',
      at(obj, 'allowVolumeExpansion') === true ? 'true' : 'false',
      translateTimestampSince(obj.metadata.creationTimestamp, now),
    ];
  },
};
