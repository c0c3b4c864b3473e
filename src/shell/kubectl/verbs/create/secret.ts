/**
 * `kubectl create secret generic|tls|docker-registry`
 * (k8s.io/kubectl pkg/cmd/create/create_secret.go, create_secret_tls.go,
 * create_secret_docker.go). Values are base64 in `data`; server errors are prefixed
 * `failed to create secret ` (no colon, as upstream).
 */
import type { KObject } from '../../../../sim/api/types.js';
import { KubectlError } from '../../errors.js';
import { list, str } from '../../flags.js';
import { marshalCompact } from '../../../printers/json.js';
import { collectData, sortedRecord } from './configmap.js';
import { meta, type GenContext, type Generator } from './types.js';
import { readLocalFile } from '../../local-file.js';
import { x509KeyPair } from '../../../../sim/traffic/tls-secret.js';

const b64 = (s: string): string => Buffer.from(s, 'utf8').toString('base64');

function secret(ctx: GenContext, data: Record<string, string>, type: string | undefined): KObject {
  const encoded = Object.fromEntries(Object.entries(sortedRecord(data)).map(([k, v]) => [k, b64(v)]));
  return {
    kind: 'Secret',
    apiVersion: 'v1',
    metadata: meta(ctx),
    ...(Object.keys(encoded).length > 0 ? { data: encoded } : {}),
    ...(type ? { type } : {}),
  } as KObject;
}

export const genericSecretGenerator: Generator = {
  name: 'generic',
  path: 'create secret generic',
  errorPrefix: 'failed to create secret ',
  build(ctx) {
    return secret(ctx, collectData(ctx, `Secret "${ctx.name}"`), str(ctx.p.flags, 'type'));
  },
};

export const tlsSecretGenerator: Generator = {
  name: 'tls',
  path: 'create secret tls',
  required: ['cert', 'key'],
  errorPrefix: 'failed to create secret ',
  build(ctx) {
    const read = (path: string): string => {
      const text = readLocalFile(ctx.env, path);
      if (text === undefined) throw new KubectlError(`open ${path}: no such file or directory`);
      return text;
    };
    const cert = read(str(ctx.p.flags, 'cert')!);
    const key = read(str(ctx.p.flags, 'key')!);
    // create_secret_tls.go: the pair must load as crypto/tls.X509KeyPair loads it
    const pair = x509KeyPair(cert, key);
    if ('error' in pair) throw new KubectlError(pair.error);
    return secret(ctx, { 'tls.crt': cert, 'tls.key': key }, 'kubernetes.io/tls');
  },
};

/**
 * create_secret_docker.go: Validate wants --from-file or all of username, password and server
 * (whose default is Docker Hub's); the files, when given, are the data instead of a built
 * .dockerconfigjson.
 */
export const dockerRegistrySecretGenerator: Generator = {
  name: 'docker-registry',
  path: 'create secret docker-registry',
  errorPrefix: 'failed to create secret ',
  build(ctx) {
    const server = str(ctx.p.flags, 'docker-server') ?? '';
    const username = str(ctx.p.flags, 'docker-username') ?? '';
    const password = str(ctx.p.flags, 'docker-password') ?? '';
    if (list(ctx.p.flags, 'from-file').length > 0) return secret(ctx, collectData(ctx, `Secret "${ctx.name}"`), 'kubernetes.io/dockerconfigjson');
    if (!username || !password || !server) throw new KubectlError('either --from-file or the combination of --docker-username, --docker-password and --docker-server is required');
    const email = str(ctx.p.flags, 'docker-email') ?? '';
    const entry = { username, password, ...(email ? { email } : {}), auth: b64(`${username}:${password}`) };
    const json = marshalCompact({ auths: { [server]: entry } });
    return secret(ctx, { '.dockerconfigjson': json }, 'kubernetes.io/dockerconfigjson');
  },
};

export const SECRET_GENERATORS: readonly Generator[] = [dockerRegistrySecretGenerator, genericSecretGenerator, tlsSecretGenerator];
