/**
 * `-o name`: cli-runtime pkg/printers/name.go — `<kind>[.<group>]/<name>` per line, lower-case
 * kind, core group omitted (reference §5).
 */
import type { KObject } from '../../sim/api/types.js';
import { kindInfoOf, kindPrefixOf } from './kindinfo.js';

export function printName(objs: readonly KObject[]): string {
  return objs.map((o) => `${kindPrefixOf(kindInfoOf(o))}/${o.metadata.name}\n`).join('');
}
