/**
 * `kubectl proxy`: the command's declaration (flags, usage, help text).
 * Recorded from kubectl v1.35.2 by scripts/record-help.mjs: edit there, or by hand and re-check with
 * the help goldens (spec/help.test.ts).
 */
import type { CommandSpec } from './types.js';

export const proxySpec: CommandSpec = {
  name: "proxy",
  short: "Run a proxy to the Kubernetes API server",
  long: `Creates a proxy server or application-level gateway between localhost and the Kubernetes API server. It also allows serving static content over specified HTTP path. All incoming data enters through one port and gets forwarded to the remote Kubernetes API server port, except for the path matching the static content path.`,
  example: `  # To proxy all of the Kubernetes API and nothing else
  kubectl proxy --api-prefix=/
  
  # To proxy only part of the Kubernetes API and also some static files
  # You can get pods info with 'curl localhost:8001/api/v1/pods'
  kubectl proxy --www=/my/files --www-prefix=/static/ --api-prefix=/api/
  
  # To proxy the entire Kubernetes API at a different root
  # You can get pods info with 'curl localhost:8001/custom/api/v1/pods'
  kubectl proxy --api-prefix=/custom/
  
  # Run a proxy to the Kubernetes API server on port 8011, serving static content from ./local/www/
  kubectl proxy --port=8011 --www=./local/www/
  
  # Run a proxy to the Kubernetes API server on an arbitrary local port
  # The chosen port for the server will be output to stdout
  kubectl proxy --port=0
  
  # Run a proxy to the Kubernetes API server, changing the API prefix to k8s-api
  # This makes e.g. the pods API available at localhost:8001/k8s-api/v1/pods/
  kubectl proxy --api-prefix=/k8s-api`,
  usage: "kubectl proxy [--port=PORT] [--www=static-dir] [--www-prefix=prefix] [--api-prefix=prefix] [options]",
  flags: [
    { name: "accept-hosts", type: "string", defValue: "'^localhost$,^127\\.0\\.0\\.1$,^\\[::1\\]$'", usage: "Regular expression for hosts that the proxy should accept." },
    { name: "accept-paths", type: "string", defValue: "'^.*'", usage: "Regular expression for paths that the proxy should accept." },
    { name: "address", type: "string", defValue: "'127.0.0.1'", usage: "The IP address on which to serve on." },
    { name: "api-prefix", type: "string", defValue: "'/'", usage: "Prefix to serve the proxied API under." },
    { name: "append-server-path", type: "bool", defValue: "false", usage: "If true, enables automatic path appending of the kube context server path to each request." },
    { name: "disable-filter", type: "bool", defValue: "false", usage: "If true, disable request filtering in the proxy. This is dangerous, and can leave you vulnerable to XSRF attacks, when used with an accessible port." },
    { name: "keepalive", type: "string", defValue: "0s", usage: "keepalive specifies the keep-alive period for an active network connection. Set to 0 to disable keepalive." },
    { name: "port", short: "p", type: "int", defValue: "8001", usage: "The port on which to run the proxy. Set to 0 to pick a random port." },
    { name: "reject-methods", type: "string", defValue: "'^$'", usage: "Regular expression for HTTP methods that the proxy should reject (example --reject-methods='POST,PUT,PATCH'). " },
    { name: "reject-paths", type: "string", defValue: "'^/api/.*/pods/.*/exec,^/api/.*/pods/.*/attach'", usage: "Regular expression for paths that the proxy should reject. Paths specified here will be rejected even accepted by --accept-paths." },
    { name: "unix-socket", short: "u", type: "string", defValue: "''", usage: "Unix socket on which to run the proxy." },
    { name: "www", short: "w", type: "string", defValue: "''", usage: "Also serve static files from the given directory under the specified prefix." },
    { name: "www-prefix", short: "P", type: "string", defValue: "'/static/'", usage: "Prefix to serve static files under, if static file directory is specified." },
  ],
};
