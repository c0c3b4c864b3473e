/** ConfigMap: describe.go ConfigMapDescriber (:4285); keys sorted (Go map order is random). */
import type { ConfigMap } from '../../../sim/api/types.js';
import { maybeEvents } from './events.js';
import { LEVEL_0, printAnnotationsMultiline, printLabelsMultiline, tabbedString, type DescribeContext } from './writer.js';

export function describeConfigMap(cm: ConfigMap, ctx: DescribeContext): string {
  return tabbedString((w) => {
    w.write(LEVEL_0, `Name:\t${cm.metadata.name}\n`);
    w.write(LEVEL_0, `Namespace:\t${cm.metadata.namespace ?? ''}\n`);
    printLabelsMultiline(w, 'Labels', cm.metadata.labels);
    printAnnotationsMultiline(w, 'Annotations', cm.metadata.annotations);
    w.write(LEVEL_0, '\nData\n====\n');
    for (const k of Object.keys(cm.data ?? {}).sort()) {
      w.write(LEVEL_0, `${k}:\n----\n`);
      w.write(LEVEL_0, `${cm.data![k]}\n`);
      w.write(LEVEL_0, '\n');
    }
    w.write(LEVEL_0, '\nBinaryData\n====\n');
    for (const k of Object.keys(cm.binaryData ?? {}).sort()) {
      w.write(LEVEL_0, `${k}: ${Buffer.from(cm.binaryData![k]!, 'base64').length} bytes\n`);
    }
    w.write(LEVEL_0, '\n');
    maybeEvents(ctx.events, w, ctx.now);
  });
}
