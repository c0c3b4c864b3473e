/**
 * The plugin execution order of CoreDNS 1.13.1 (`plugin.cfg` at tag v1.13.1 → core/dnsserver/zdirectives.go; nomad
 * is appended last there, after view): setup
 * functions run in this order and the first listed plugin sees a query first. The Corefile order
 * of directives never matters. Names not in this list are `Unknown directive '<name>'`.
 */
export const DIRECTIVES: readonly string[] = [
  'root', 'metadata', 'geoip', 'cancel', 'tls', 'quic', 'timeouts', 'multisocket', 'reload', 'nsid',
  'bufsize', 'bind', 'debug', 'trace', 'ready', 'health', 'pprof', 'prometheus', 'errors', 'log',
  'dnstap', 'local', 'dns64', 'acl', 'any', 'chaos', 'loadbalance', 'tsig', 'cache', 'rewrite',
  'header', 'dnssec', 'autopath', 'minimal', 'template', 'transfer', 'hosts', 'route53', 'azure',
  'clouddns', 'k8s_external', 'kubernetes', 'file', 'auto', 'secondary', 'etcd', 'loop',
  'forward', 'grpc', 'erratic', 'whoami', 'on', 'sign', 'view', 'nomad',
];

export const DIRECTIVE_SET: ReadonlySet<string> = new Set(DIRECTIVES);
