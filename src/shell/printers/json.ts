/**
 * `-o json`: Go json.MarshalIndent(obj, "", "    ") plus a newline (cli-runtime pkg/printers/json.go).
 * encoding/json escapes <, >, & and U+2028/U+2029 (HTML-safe) and writes `{}`/`[]` for empties.
 */
import type { KObject } from '../../sim/api/types.js';
import { marshalIndent } from '../../util/go-json.js';
import { documentFor, type SerializeOptions } from './serialize.js';

export { marshalCompact, marshalIndent } from '../../util/go-json.js';

/** `kubectl get … -o json`. */
export function printJson(objs: readonly KObject[], asList: boolean, o: SerializeOptions = {}): string {
  return `${marshalIndent(documentFor(objs, asList, o))}\n`;
}
