/**
 * ServiceAccount: k8s.io/kubectl pkg/describe/describe.go describeServiceAccount (v1.35). Only the
 * image pull secrets are listed (one per line under the header, `<none>` when there are none): the
 * v1.35 describer no longer lists mountable secrets or token Secrets, and reads no Secret (recorded:
 * testdata/recorded/serviceaccount-*.txt, the only requests being the account and its events).
 */
import type { KObject } from '../../../sim/api/types.js';
import { maybeEvents } from './events.js';
import { LEVEL_0, printAnnotationsMultiline, printLabelsMultiline, tabbedString, type DescribeContext } from './writer.js';

interface ServiceAccountLike extends KObject {
  imagePullSecrets?: { name: string }[];
}

export function describeServiceAccount(sa: ServiceAccountLike, ctx: DescribeContext): string {
  const header = 'Image pull secrets:';
  const empty = '                   ';
  const names = (sa.imagePullSecrets ?? []).map((s) => s.name);
  return tabbedString((w) => {
    w.write(LEVEL_0, `Name:\t${sa.metadata.name}\n`);
    w.write(LEVEL_0, `Namespace:\t${sa.metadata.namespace ?? ''}\n`);
    printLabelsMultiline(w, 'Labels', sa.metadata.labels);
    printAnnotationsMultiline(w, 'Annotations', sa.metadata.annotations);
    if (names.length === 0) w.write(LEVEL_0, `${header}\t<none>\n`);
    let prefix = header;
    for (const name of names) {
      w.write(LEVEL_0, `${prefix}\t${name}\n`);
      prefix = empty;
    }
    maybeEvents(ctx.events, w, ctx.now);
  });
}
