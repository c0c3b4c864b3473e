/** Secret: describe.go SecretDescriber (describeSecret); values are never shown except a SA token. */
import type { Secret } from '../../../sim/api/types.js';
import { LEVEL_0, printAnnotationsMultiline, printLabelsMultiline, tabbedString, type DescribeContext } from './writer.js';

export function describeSecret(s: Secret, _ctx: DescribeContext): string {
  return tabbedString((w) => {
    w.write(LEVEL_0, `Name:\t${s.metadata.name}\n`);
    w.write(LEVEL_0, `Namespace:\t${s.metadata.namespace ?? ''}\n`);
    printLabelsMultiline(w, 'Labels', s.metadata.labels);
    printAnnotationsMultiline(w, 'Annotations', s.metadata.annotations);
    w.write(LEVEL_0, `\nType:\t${s.type ?? ''}\n`);
    w.write(LEVEL_0, '\nData\n====\n');
    for (const k of Object.keys(s.data ?? {}).sort()) {
      const raw = Buffer.from(s.data![k]!, 'base64');
      if (k === 'token' && s.type === 'kubernetes.io/service-account-token') w.write(LEVEL_0, `${k}:\t${raw.toString('utf8')}\n`);
      else w.write(LEVEL_0, `${k}:\t${raw.length} bytes\n`);
    }
  });
}
