/**
 * ControllerRevisions: printers.go controllerRevisionColumnDefinitions, printControllerRevision:
 * the controller as `<kind>.<group>/<name>` (formatResourceName with kind), `<none>` without one.
 */
import { translateTimestampSince } from '../duration.js';
import { AGE, NAME } from './cells.js';
import type { KindPrinter } from './types.js';

export const controllerrevisions: KindPrinter = {
  columns: [NAME, { name: 'Controller' }, { name: 'Revision' }, AGE],
  row(obj, now) {
    const ref = obj.metadata.ownerReferences?.find((r) => r.controller);
    let controller = '<none>';
    if (ref) {
      const slash = ref.apiVersion.indexOf('/');
      const group = slash >= 0 ? ref.apiVersion.slice(0, slash) : '';
      controller = `${ref.kind.toLowerCase()}${group ? `.${group}` : ''}/${ref.name}`;
    }
    return [obj.metadata.name, controller, String((obj as { revision?: number }).revision ?? 0), translateTimestampSince(obj.metadata.creationTimestamp, now)];
  },
};
