/**
 * The content-hash suffix of generated ConfigMaps and Secrets (sigs.k8s.io/kustomize/api/hasher/
 * hasher.go): sha256 over `{"data":…,"kind":…,"name":…}` (json.Marshal, keys sorted; Secrets add
 * `type`, binaryData/stringData only when present), the first ten hex digits with 0,1,3,a,e mapped
 * to g,h,k,m,t so no words appear. kustomize hashes the node while its name is still empty (the
 * name lives in a build annotation until the end), so `name` is always "".
 */
import { createHash } from 'node:crypto';
import { marshalCompact } from '../printers/json.js';
import { sortKeys } from '../printers/serialize.js';
import { type Obj, isObj, kindOf } from './types.js';

function encode(hex: string): string {
  const map: Record<string, string> = { '0': 'g', '1': 'h', '3': 'k', a: 'm', e: 't' };
  return [...hex.slice(0, 10)].map((c) => map[c] ?? c).join('');
}

export function contentHash(o: Obj): string {
  const m: Obj = { kind: kindOf(o), name: '', data: isObj(o['data']) ? o['data'] : '' };
  if (kindOf(o) === 'Secret') {
    m['type'] = typeof o['type'] === 'string' ? o['type'] : '';
    if (isObj(o['stringData'])) m['stringData'] = o['stringData'];
  } else if (isObj(o['binaryData'])) m['binaryData'] = o['binaryData'];
  const json = marshalCompact(sortKeys(m));
  return encode(createHash('sha256').update(json).digest('hex'));
}
