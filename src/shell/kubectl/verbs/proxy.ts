/**
 * `kubectl proxy` (k8s.io/kubectl pkg/cmd/proxy/proxy.go, pkg/proxy/proxy_server.go): listen on
 * --address:--port (127.0.0.1:8001; port 0 takes a free one), print `Starting to serve on ADDR`, then
 * serve HTTP until Ctrl-C, forwarding each request to the API server with the kubeconfig's
 * credentials. The request filter (--accept-paths, --reject-paths, --accept-hosts,
 * --reject-methods; off with --disable-filter) and --api-prefix are applied per request by
 * shell/commands/pod/component-http.ts, which a connection to the socket reaches.
 *
 * As a background job (`kubectl proxy --port=8001 &`) the socket stays open on the host where
 * kubectl ran (sim/node/user-sockets.ts) until the job ends, as `kubectl port-forward`'s do. In
 * the foreground this terminal cannot wait for Ctrl-C, so the command says so and ends.
 */
import { bindSocket, collides, userSockets } from '../../../sim/node/user-sockets.js';
import type { ShellResult } from '../../commands/types.js';
import { nodeSockets } from '../../commands/node/sockets.js';
import type { Verb } from '../context.js';
import { KubectlError } from '../errors.js';
import { klogWarning } from '../dry-run.js';
import { bool, int, str } from '../flags.js';

/** net.JoinHostPort. */
function joinHostPort(host: string, port: number): string {
  return host.includes(':') ? `[${host}]:${port}` : `${host}:${port}`;
}

export const proxyVerb: Verb = {
  name: 'proxy',
  run(inv, env): ShellResult {
    const f = inv.parsed.flags;
    const port = int(f, 'port') ?? 8001;
    const unixSocket = str(f, 'unix-socket') ?? '';
    if (port !== 8001 && unixSocket !== '') throw new KubectlError('cannot set --unix-socket and --port at the same time');
    if (unixSocket !== '') throw new KubectlError('cka-lab does not simulate kubectl proxy on a unix socket (--unix-socket); use --port');
    const address = str(f, 'address') ?? '127.0.0.1';
    // net.Listen's port check (recorded: `error: listen tcp: address 99999: invalid port`)
    if (port < 0 || port > 65535) throw new KubectlError(`listen tcp: address ${port}: invalid port`);
    const client = env.api.clientContext();
    // Complete: f.ToRESTConfig() needs a kubeconfig; the server is only dialled per request
    const stderr = bool(f, 'disable-filter') ? klogWarning(env.cluster.now(), 'Request filter disabled, your proxy is vulnerable to XSRF attacks, please be cautious', 'proxy.go:175') : '';
    let apiPrefix = str(f, 'api-prefix') ?? '/';
    if (!apiPrefix.endsWith('/')) apiPrefix += '/';
    const host = env.host ? env.cluster.host(env.host) : undefined;
    const bound = host ? [...userSockets(host), ...nodeSockets(env.cluster, host).filter((s) => s.proto === 'tcp').map((s) => ({ address: s.addr === '*' ? '::' : s.addr, port: s.port }))] : [];
    if (address !== '' && !/^[\d.]+$/.test(address) && !address.includes(':') && address !== 'localhost') throw new KubectlError(`listen tcp: lookup ${address}: no such host`);
    // Go's net.Listen("tcp", "0.0.0.0:P") opens a dual-stack socket, which reports itself as [::]:P
    const bindAddress = address === 'localhost' ? '127.0.0.1' : address === '0.0.0.0' || address === '' ? '::' : address;
    let listenPort = port;
    if (listenPort === 0) {
      const size = 60999 - 32768 + 1;
      const start = env.cluster.random.int(size);
      for (let i = 0; i < size; i++) {
        const p = 32768 + ((start + i) % size);
        if (!bound.some((s) => s.port === p)) {
          listenPort = p;
          break;
        }
      }
    }
    if (bound.some((s) => s.port === listenPort && collides(s.address, bindAddress))) throw new KubectlError(`listen tcp ${joinHostPort(address, listenPort)}: bind: address already in use`);
    const stdout = `Starting to serve on ${joinHostPort(bindAddress, listenPort)}\n`;
    if (!env.background || !host) {
      return { stdout, stderr: `${stderr}cka-lab: kubectl proxy serves until Ctrl-C, which this terminal cannot send while it waits: run it in the background (append &), use it, then end it with kill %1\n`, exitCode: 0 };
    }
    const filter = bool(f, 'disable-filter')
      ? undefined
      : {
          acceptPaths: str(f, 'accept-paths') ?? '^.*',
          rejectPaths: str(f, 'reject-paths') ?? '^/api/.*/pods/.*/exec,^/api/.*/pods/.*/attach',
          acceptHosts: str(f, 'accept-hosts') ?? '^localhost$,^127\\.0\\.0\\.1$,^\\[::1\\]$',
          rejectMethods: str(f, 'reject-methods') ?? '^$',
        };
    bindSocket(host, {
      address: bindAddress,
      port: listenPort,
      pid: env.background.pid,
      comm: 'kubectl',
      cmdline: env.background.argv.join(' '),
      started: env.cluster.now(),
      proxy: {
        apiPrefix,
        ...(filter ? { filter } : {}),
        credentials: client?.credentials ?? {},
        ...(client?.impersonate ? { impersonate: client.impersonate } : {}),
      },
    });
    return { stdout, stderr, exitCode: 0, keeps: { kind: 'proxy', host: host.name } };
  },
};
