/**
 * VolumeAttributesClass: k8s.io/kubectl pkg/describe/describe.go describeVolumeAttributesClass
 * (v1.35). Annotations and parameters print as labels.FormatLabels does (`k=v,…` sorted, `<none>`
 * when empty), the last-applied annotation included: its JSON's trailing newline leaves a blank
 * line (recorded: testdata/recorded/volumeattributesclass-gold.txt).
 */
import type { KObject } from '../../../sim/api/types.js';
import { formatLabels, str, strMap } from '../columns/cells.js';
import { maybeEvents } from './events.js';
import { LEVEL_0, tabbedString, type DescribeContext } from './writer.js';

export function describeVolumeAttributesClass(vac: KObject, ctx: DescribeContext): string {
  return tabbedString((w) => {
    w.write(LEVEL_0, `Name:\t${vac.metadata.name}\n`);
    w.write(LEVEL_0, `Annotations:\t${formatLabels(vac.metadata.annotations)}\n`);
    w.write(LEVEL_0, `DriverName:\t${str(vac, 'driverName')}\n`);
    w.write(LEVEL_0, `Parameters:\t${formatLabels(strMap(vac, 'parameters'))}\n`);
    maybeEvents(ctx.events, w, ctx.now);
  });
}
