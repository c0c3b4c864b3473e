/**
 * The shape of a server-side table printer (k8s.io/kubernetes pkg/printers/internalversion
 * printers.go): column definitions declared once per kind and a row function. The server always
 * generates wide rows (pkg/printers/storage/storage.go: `GenerateOptions{Wide: true}`); kubectl
 * drops the priority-1 columns unless `-o wide` (cli-runtime tableprinter.go).
 */
import type { KObject } from '../../../sim/api/types.js';

export interface Column {
  /** The server's column name; kubectl prints it upper-cased (`Port(s)` → `PORT(S)`). */
  name: string;
  /** priority 1: shown only with `-o wide`. */
  wide?: boolean;
  /** format "name": gets the `<kind>.<group>/` prefix when several types are printed. */
  nameFormat?: boolean;
}

export interface KindPrinter {
  readonly columns: readonly Column[];
  /** One cell per column (wide cells included), already formatted as text. */
  row(obj: KObject, now: number): string[];
  /** The order the server's list printer puts the rows in (printFlowSchemaList sorts); default: as listed. */
  listOrder?(objs: readonly KObject[]): KObject[];
}
