/**
 * ValidatingAdmissionPolicies: printers.go validatingAdmissionPolicy columns (Name, Validations,
 * ParamKind, Age), printValidatingAdmissionPolicy: PARAMKIND is `apiVersion/kind`, `<unset>` without one.
 */
import { translateTimestampSince } from '../duration.js';
import { AGE, NAME, arr, at, str } from './cells.js';
import type { KindPrinter } from './types.js';

export const validatingadmissionpolicies: KindPrinter = {
  columns: [NAME, { name: 'Validations' }, { name: 'ParamKind' }, AGE],
  row(obj, now) {
    const pk = at(obj, 'spec', 'paramKind');
    const paramKind = pk !== undefined && pk !== null ? `${str(pk, 'apiVersion')}/${str(pk, 'kind')}` : '<unset>';
    return [obj.metadata.name, String(arr(obj, 'spec', 'validations').length), paramKind, translateTimestampSince(obj.metadata.creationTimestamp, now)];
  },
};
