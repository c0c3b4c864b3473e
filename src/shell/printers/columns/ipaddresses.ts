/**
 * IPAddresses: printers.go ipAddressColumnDefinitions (Name, ParentRef) and printIPAddress. The row
 * also carries an age cell that no column names; kubectl drops cells beyond the column
 * definitions (cli-runtime tableprinter.go, issue 66379), so no AGE is printed. ParentRef is
 * `resource[.group][/namespace]/name` lower-cased (schema.GroupResource String), `<none>` without one.
 */
import type { KObject } from '../../../sim/api/types.js';
import { NAME, at, optStr } from './cells.js';
import type { KindPrinter } from './types.js';

export const ipaddresses: KindPrinter = {
  columns: [NAME, { name: 'ParentRef' }],
  row(obj: KObject) {
    const ref = at(obj, 'spec', 'parentRef');
    if (ref === undefined || ref === null) return [obj.metadata.name, '<none>'];
    const group = optStr(ref, 'group') ?? '';
    let name = (group ? `${optStr(ref, 'resource') ?? ''}.${group}` : (optStr(ref, 'resource') ?? '')).toLowerCase();
    const ns = optStr(ref, 'namespace') ?? '';
    if (ns) name += `/${ns}`;
    name += `/${optStr(ref, 'name') ?? ''}`;
    return [obj.metadata.name, name];
  },
};
