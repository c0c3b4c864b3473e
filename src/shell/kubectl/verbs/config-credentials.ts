/**
 * `kubectl config set-credentials NAME` (k8s.io/kubectl pkg/cmd/config/create_authinfo.go): merge
 * a user entry into the kubeconfig: client certificate and key (as absolute paths, or their
 * contents base64-encoded with --embed-certs) and a bearer token.
 */
import { resolvePath } from '../../../sim/node/vfs.js';
import type { Verb } from '../context.js';
import { KubectlError } from '../errors.js';
import { bool, str } from '../flags.js';
import { kubeconfigPath, readRaw, writeRaw } from '../kubeconfig.js';

type RawUser = Record<string, string>;

export const configSetCredentialsVerb: Verb = {
  name: 'config set-credentials',
  run(inv, env) {
    const p = inv.parsed;
    const name = p.args[0];
    if (name === undefined || p.args.length !== 1) throw new KubectlError(`Unexpected args: [${p.args.join(' ')}]`, "See 'kubectl config set-credentials -h' for help and examples");
    const file = kubeconfigPath(env.env, str(p.flags, 'kubeconfig'));
    const raw = readRaw(env.fs, file);
    const users = ((raw.users as { name: string; user?: RawUser }[] | undefined) ??= []);
    let entry = users.find((u) => u.name === name);
    if (!entry) {
      entry = { name, user: {} };
      users.push(entry);
    }
    const user: RawUser = (entry.user ??= {});
    const embed = bool(p.flags, 'embed-certs');
    const setFile = (flag: string, key: string): void => {
      const v = str(p.flags, flag);
      if (!v || !p.changed.has(flag)) return;
      const abs = resolvePath(env.cwd, v);
      if (embed) {
        const text = env.fs.tryRead(abs);
        if (text === undefined) throw new KubectlError(`could not read ${flag} data from ${v}: open ${v}: no such file or directory`);
        user[`${key}-data`] = Buffer.from(text).toString('base64');
        delete user[key];
      } else {
        user[key] = abs;
        delete user[`${key}-data`];
      }
    };
    setFile('client-certificate', 'client-certificate');
    setFile('client-key', 'client-key');
    const token = str(p.flags, 'token');
    if (token !== undefined && p.changed.has('token')) user['token'] = token;
    writeRaw(env.fs, file, raw);
    return { stdout: `User "${name}" set.\n`, stderr: '', exitCode: 0 };
  },
};
