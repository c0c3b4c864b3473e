/**
 * Tables for kinds with no printer.
 *
 * Built-in kinds (roles, clusterroles, limitranges, ...): k8s.io/apiserver pkg/registry/rest/table.go
 * `DefaultTableConvertor`: NAME and CREATED AT (RFC 3339 in UTC) [reference §2.3, §4.21].
 * Custom resources (Calico's BlockAffinity, IPPool, ...) without additionalPrinterColumns: the
 * apiextensions-apiserver table convertor defaults to a single `Age` column on
 * `.metadata.creationTimestamp`, so they print NAME AGE.
 */
import { parseTime, rfc3339 } from '../../../util/clock.js';
import { translateTimestampSince } from '../duration.js';
import { AGE, NAME } from './cells.js';
import type { KindPrinter } from './types.js';

export const defaultTable: KindPrinter = {
  columns: [NAME, { name: 'Created At' }],
  row(obj) {
    const t = parseTime(obj.metadata.creationTimestamp);
    return [obj.metadata.name, Number.isNaN(t) ? '' : rfc3339(t)];
  },
};

export const customResourceTable: KindPrinter = {
  columns: [NAME, AGE],
  row(obj, now) {
    return [obj.metadata.name, translateTimestampSince(obj.metadata.creationTimestamp, now)];
  },
};
