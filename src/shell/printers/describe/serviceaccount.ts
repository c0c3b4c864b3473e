/**
 * ServiceAccount: describe.go describeServiceAccount, kubectl v1.35. The three secret lists print
 * under headers padded to one width, in sorted header order; a listed secret that does not exist is
 * marked `(not found)`; Tokens are the legacy token Secrets annotated with this account's name and uid.
 */
import type { KObject } from '../../../sim/api/types.js';
import { maybeEvents } from './events.js';
import { LEVEL_0, printAnnotationsMultiline, printLabelsMultiline, tabbedString, type DescribeContext } from './writer.js';

interface ServiceAccountLike extends KObject {
  secrets?: { name: string }[];
  imagePullSecrets?: { name: string }[];
}

export function describeServiceAccount(sa: ServiceAccountLike, ctx: DescribeContext): string {
  const secrets = ctx.secrets ?? [];
  const listed = [...(sa.imagePullSecrets ?? []), ...(sa.secrets ?? [])].map((s) => s.name);
  const existing = new Set(ctx.secrets ? secrets.map((s) => s.metadata.name) : listed);
  const tokens = secrets.filter(
    (s) => (s as KObject & { type?: string }).type === 'kubernetes.io/service-account-token' && s.metadata.annotations?.['kubernetes.io/service-account.name'] === sa.metadata.name && s.metadata.annotations?.['kubernetes.io/service-account.uid'] === sa.metadata.uid,
  );
  const empty = '                   ';
  const lists: [string, string[]][] = [
    ['Image pull secrets:', (sa.imagePullSecrets ?? []).map((s) => s.name)],
    ['Mountable secrets: ', (sa.secrets ?? []).map((s) => s.name)],
    ['Tokens:            ', tokens.map((s) => s.metadata.name)],
  ];
  return tabbedString((w) => {
    w.write(LEVEL_0, `Name:\t${sa.metadata.name}\n`);
    w.write(LEVEL_0, `Namespace:\t${sa.metadata.namespace ?? ''}\n`);
    printLabelsMultiline(w, 'Labels', sa.metadata.labels);
    printAnnotationsMultiline(w, 'Annotations', sa.metadata.annotations);
    for (const [header, names] of lists) {
      if (names.length === 0) {
        w.write(LEVEL_0, `${header}\t<none>\n`);
        continue;
      }
      let prefix = header;
      for (const name of names) {
        w.write(LEVEL_0, `${prefix}\t${name}${existing.has(name) ? '' : ' (not found)'}\n`);
        prefix = empty;
      }
    }
    maybeEvents(ctx.events, w, ctx.now);
  });
}
