/**
 * kubernetes (plugin/kubernetes v1.11.3: setup.go, parse.go, kubernetes.go, handler.go, reverse.go,
 * ns.go and plugin/backend_lookup.go): the cluster.local schema of kubernetes/dns
 * docs/specification.md — Service A/AAAA, headless endpoints, endpoint hostnames, ExternalName
 * CNAME (+ upstream lookup through this server), SRV, PTR, pod records, dns-version TXT, apex
 * SOA/NS; NXDOMAIN/NODATA with the zone SOA; fallthrough.
 */
import type { EndpointSlice, Service } from '../../api/types.js';
import type { ClusterView } from '../cluster-view.js';
import { addressFromReverse, parseIPv4, parseIPv6, replyTo, type QType, type RR } from '../message.js';
import {
  ERR_ONCE,
  type ExternalService,
  type Externaler,
  fallZones,
  matchZone,
  nextOrFailure,
  normalizeZone,
  type PluginDef,
  type Request,
  type SetupContext,
} from '../plugin.js';
import { CorefileError } from '../corefile/dispenser.js';
import { parseResolvConf } from '../resolv-conf.js';
import { matchRequirements, parseLabelSelector, SelectorParseError, type Requirement } from '../../api/selectors.js';

type PodMode = 'disabled' | 'insecure' | 'verified';

export interface KubernetesConfig {
  zones: string[];
  primaryZone: string;
  podMode: PodMode;
  namespaces: string[];
  ttl: number;
  fall: string[];
  endpointPodNames: boolean;
  ignoreEmptyService: boolean;
  noEndpoints: boolean;
  /** `labels`: the informers list only Services, EndpointSlices and Pods that match (controller.go). */
  labels?: Requirement[];
  /** `namespace_labels`: only namespaces that match exist for the plugin. */
  namespaceLabels?: Requirement[];
}

/** controller.go list functions with opts.LabelSelector: what the informers hold under `labels`/`namespace_labels`. */
function selectedView(view: ClusterView, cfg: KubernetesConfig): ClusterView {
  const sel = cfg.labels;
  const nsSel = cfg.namespaceLabels;
  if (!sel && !nsSel) return view;
  const keep = <T extends { metadata: { labels?: Record<string, string> } }>(xs: T[]): T[] => (sel ? xs.filter((x) => matchRequirements(sel, x.metadata.labels)) : xs);
  return {
    ...view,
    services: () => keep(view.services()),
    endpointSlices: () => keep(view.endpointSlices()),
    pods: () => keep(view.pods()),
    namespaces: () => (nsSel ? view.namespaces().filter((n) => matchRequirements(nsSel, view.namespaceLabels?.(n))) : view.namespaces()),
  };
}

/** meta.ParseToLabelSelector, with setup.go's wording around its error. */
function parseSelectorArg(args: string[], what: 'label' | 'namespace_label'): Requirement[] {
  const text = args.join(' ');
  try {
    return parseLabelSelector(text);
  } catch (e) {
    if (!(e instanceof SelectorParseError)) throw e;
    throw new CorefileError(`unable to parse ${what} selector value: '${text}': couldn't parse the selector string "${text}": ${e.message}`);
  }
}

/** msg.Service of CoreDNS: a host (IP or name) with port, ttl and the path its SRV target is built from. */
interface Backend {
  host: string;
  port: number;
  ttl: number;
  /** Labels left of the zone, e.g. ['web','default','svc'] or ['db-0','db','prod','svc']. */
  path: string[];
}

class NameError extends Error {}
/**
 * The one NXDOMAIN signal (errNoItems / errNsNotExposed of the backend): thrown only to unwind to
 * `serve` (or a caller that tries), where nothing reads it but its class, so one instance made
 * once serves every query; a new Error per NXDOMAIN spent most of a miss capturing its stack.
 */
const NXDOMAIN = new NameError('NXDOMAIN');
const NX = (): NameError => NXDOMAIN;

interface RecordRequest {
  podOrSvc: string;
  namespace: string;
  service: string;
  endpoint: string;
  port: string;
  protocol: string;
}

function isReverse(name: string): boolean {
  const n = name.toLowerCase();
  return n.endsWith('in-addr.arpa.') || n.endsWith('ip6.arpa.');
}

/** msg.Service.HostType: an IP is an A or AAAA target, anything else a CNAME. */
export function hostType(host: string): 'A' | 'AAAA' | 'CNAME' {
  if (parseIPv4(host)) return 'A';
  if (parseIPv6(host)) return 'AAAA';
  return 'CNAME';
}

function eq(a: string, b: string): boolean {
  return a.toLowerCase() === b.toLowerCase();
}

/** parse.go parseRequest over the labels left of the zone. */
function parseRequest(base: string[]): RecordRequest {
  const r: RecordRequest = { podOrSvc: '', namespace: '', service: '', endpoint: '', port: '', protocol: '' };
  if (base.length === 0 || (base.length === 1 && (eq(base[0] ?? '', 'svc') || eq(base[0] ?? '', 'pod')))) return r;
  let last = base.length - 1;
  r.podOrSvc = (base[last] ?? '').toLowerCase();
  if (r.podOrSvc !== 'pod' && r.podOrSvc !== 'svc') throw NX();
  if (--last < 0) return r;
  r.namespace = base[last] ?? '';
  if (--last < 0) return r;
  r.service = base[last] ?? '';
  if (--last < 0) return r;
  const strip = (s: string): string => (s.startsWith('_') ? s.slice(1) : s);
  if (last === 0) r.endpoint = base[0] ?? '';
  else if (last === 1) {
    r.protocol = strip(base[1] ?? '');
    r.port = strip(base[0] ?? '');
  } else throw NX();
  return r;
}

export function endpointHostname(addr: string, hostname: string | undefined, podName: string | undefined, podNames: boolean): string {
  if (hostname) return hostname;
  if (podNames && podName && podName.length < 64) return podName;
  if (addr.includes('.')) return addr.replace(/\./g, '-');
  if (addr.includes(':')) {
    const h = addr.replace(/:/g, '-');
    return h.endsWith('-') ? `${h}0` : h;
  }
  return '';
}

interface ReadyAddr {
  ip: string;
  hostname: string;
  ports: { name: string; port: number; protocol: string }[];
}

function sliceReady(slices: EndpointSlice[], cfg: KubernetesConfig): ReadyAddr[] {
  const out: ReadyAddr[] = [];
  for (const s of slices) {
    if (s.addressType === 'FQDN') continue;
    const ports: { name: string; port: number; protocol: string }[] = (s.ports ?? []).map((p) => ({ name: p.name ?? "", port: p.port ?? -1, protocol: p.protocol ?? "TCP" }));
    if (ports.length === 0) ports.push({ name: '', port: -1, protocol: '' });
    for (const ep of s.endpoints ?? []) {
      if (ep.conditions?.ready === false) continue;
      for (const ip of ep.addresses) {
        out.push({ ip, hostname: endpointHostname(ip, ep.hostname, ep.targetRef?.name, cfg.endpointPodNames), ports });
      }
    }
  }
  return out;
}

/** object/service.go toService: spec.externalIPs, then each LoadBalancer ingress IP (or its hostname). */
export function serviceExternalIPs(s: Service): string[] {
  return [...(s.spec.externalIPs ?? []), ...(s.status?.loadBalancer?.ingress ?? []).map((i) => (i.ip ? i.ip : (i.hostname ?? '')))];
}

function isHeadless(s: Service): boolean {
  return s.spec.clusterIP === 'None';
}

function clusterIPs(s: Service): string[] {
  const ips = s.spec.clusterIPs ?? (s.spec.clusterIP ? [s.spec.clusterIP] : []);
  return ips.filter((ip) => ip !== 'None' && ip !== '');
}

class Backend8s {
  constructor(
    private cfg: KubernetesConfig,
    private view: ClusterView,
    private ctx: SetupContext,
  ) {}

  namespaceExposed(ns: string): boolean {
    if (this.cfg.namespaces.length > 0 && !this.cfg.namespaces.includes(ns)) return false;
    return this.view.namespaces().includes(ns);
  }

  private slicesFor(svc: Service): EndpointSlice[] {
    return this.view
      .endpointSlices()
      .filter((e) => e.metadata.namespace === svc.metadata.namespace && e.metadata.labels?.['kubernetes.io/service-name'] === svc.metadata.name);
  }

  findServices(r: RecordRequest): Backend[] {
    if (!this.namespaceExposed(r.namespace)) throw NX();
    if (r.service === '') return [];
    let found = false;
    const out: Backend[] = [];
    const ttl = this.cfg.ttl;
    for (const svc of this.view.services()) {
      if (!eq(svc.metadata.namespace ?? 'default', r.namespace) || !eq(svc.metadata.name, r.service)) continue;
      const ns = svc.metadata.namespace ?? 'default';
      const name = svc.metadata.name;
      if (this.cfg.ignoreEmptyService && svc.spec.type !== 'ExternalName' && !isHeadless(svc)) {
        if (sliceReady(this.slicesFor(svc), this.cfg).length === 0) continue;
      }
      if (svc.spec.type === 'ExternalName') {
        if (r.endpoint !== '' || r.port !== '' || r.protocol !== '') continue;
        const host = svc.spec.externalName ?? '';
        if (hostType(host) === 'CNAME') {
          out.push({ host, port: 0, ttl, path: [name, ns, 'svc'] });
          found = true;
        }
        continue;
      }
      if (isHeadless(svc) || r.endpoint !== '') {
        if (this.cfg.noEndpoints) continue;
        for (const a of sliceReady(this.slicesFor(svc), this.cfg)) {
          if (r.endpoint !== '' && !eq(r.endpoint, a.hostname)) continue;
          for (const p of a.ports) {
            if (!matchPort(r, p.name, p.protocol)) continue;
            out.push({ host: a.ip, port: p.port, ttl, path: [a.hostname, name, ns, 'svc'] });
            found = true;
          }
        }
        continue;
      }
      const ports: { name: string; port: number; protocol: string }[] = (svc.spec.ports ?? []).map((p) => ({ name: p.name ?? "", port: p.port, protocol: p.protocol ?? "TCP" }));
      if (ports.length === 0) ports.push({ name: '', port: -1, protocol: '' });
      for (const p of ports) {
        if (!matchPort(r, p.name, p.protocol)) continue;
        found = true;
        for (const ip of clusterIPs(svc)) out.push({ host: ip, port: p.port, ttl, path: [name, ns, 'svc'] });
      }
    }
    if (!found) throw NX();
    return out;
  }

  findPods(r: RecordRequest): Backend[] {
    if (this.cfg.podMode === 'disabled') throw NX();
    if (!this.namespaceExposed(r.namespace)) throw NX();
    const podname = r.service;
    if (podname === '') return [];
    const ip = (podname.match(/-/g) ?? []).length === 3 && !podname.includes('--') ? podname.replace(/-/g, '.') : podname.replace(/-/g, ':');
    const path = [podname, r.namespace, 'pod'];
    if (this.cfg.podMode === 'insecure') {
      if (!parseIPv4(ip) && !parseIPv6(ip)) throw NX();
      return [{ host: ip, port: 0, ttl: this.cfg.ttl, path }];
    }
    const pods = this.view.pods().filter((p) => p.status?.podIP === ip && eq(p.metadata.namespace ?? 'default', r.namespace));
    if (pods.length === 0) throw NX();
    return pods.map(() => ({ host: ip, port: 0, ttl: this.cfg.ttl, path }));
  }

  /** kubernetes.go Records. */
  records(qname: string, zone: string): Backend[] {
    // state.Name(): the lower-cased qname; only the zone keeps the query's case.
    const name = qname.toLowerCase();
    const base = labelsLeft(name, zone);
    const r = parseRequest(base);
    if (r.podOrSvc === '') return [];
    if (isReverse(name)) throw NX();
    if (!this.namespaceExposed(r.namespace)) throw NX();
    return r.podOrSvc === 'pod' ? this.findPods(r) : this.findServices(r);
  }

  /** ns.go nsAddrs: the Service whose endpoints hold CoreDNS's own IP, else ns.dns.<zone> with that IP. */
  nsAddrs(zone: string): { name: string; ip: string }[] {
    const own = this.ctx.podIp;
    for (const svc of this.view.services()) {
      const ready = sliceReady(this.slicesFor(svc), this.cfg);
      if (!ready.some((a) => a.ip === own)) continue;
      const ips = isHeadless(svc) ? [own] : clusterIPs(svc);
      return ips.map((ip) => ({ name: `${svc.metadata.name}.${svc.metadata.namespace ?? 'default'}.svc.${zone}`, ip }));
    }
    return [{ name: `ns.dns.${zone}`, ip: own }];
  }

  services(qname: string, qtype: QType, zone: string): Backend[] {
    if (qtype === 'TXT') {
      const base = labelsLeft(qname.toLowerCase(), zone);
      if (base.length === 1 && base[0] === 'dns-version') return [{ host: '1.1.0', port: 0, ttl: 28800, path: [] }];
      let s: Backend[] = [];
      try {
        s = this.records(qname, zone);
      } catch {
        s = [];
      }
      if (s.length > 0) return [];
      throw NX();
    }
    if (eq(qname, `ns.dns.${zone}`)) {
      return this.nsAddrs(zone)
        .filter((a) => hostType(a.ip) === qtype)
        .map((a) => ({ host: a.ip, port: 0, ttl: this.cfg.ttl, path: [] }));
    }
    const s = this.records(qname, zone);
    if (qtype !== 'SRV') return s;
    return s.filter((b) => hostType(b.host) !== 'CNAME');
  }

  /**
   * external.go External: Services by external IP (spec.externalIPs, LoadBalancer ingress) below a
   * k8s_external zone as service.namespace.<zone>, endpoint.service.namespace.<zone> or
   * _port._proto.service.namespace.<zone>; with `headless`, a headless Service's ready endpoints.
   */
  external(qname: string, qtype: QType, zone: string, headless: boolean): { services: ExternalService[]; rcode: 'NOERROR' | 'NXDOMAIN' | 'SERVFAIL' } {
    const name = qname.toLowerCase();
    if (qtype === 'PTR') {
      const ip = addressFromReverse(name);
      if (ip !== undefined) {
        const services: ExternalService[] = [];
        for (const svc of this.view.services()) {
          const ns = svc.metadata.namespace ?? 'default';
          if (!serviceExternalIPs(svc).includes(ip)) continue;
          if (this.cfg.namespaces.length > 0 && !this.namespaceExposed(ns)) continue;
          services.push({ host: `${svc.metadata.name}.${ns}`, port: 0, key: [] });
        }
        return { services, rcode: services.length === 0 ? 'NXDOMAIN' : 'NOERROR' };
      }
    }
    const segs = labelsLeft(name, zone.toLowerCase());
    let last = segs.length - 1;
    if (last < 0) return { services: [], rcode: 'SERVFAIL' };
    const namespace = segs[last] ?? '';
    if (!this.namespaceExposed(namespace)) return { services: [], rcode: 'NXDOMAIN' };
    last--;
    if (last < 0) return { services: [], rcode: 'NOERROR' };
    const service = segs[last] ?? '';
    last--;
    const strip = (x: string): string => (x.startsWith('_') ? x.slice(1) : x);
    const r: RecordRequest = { podOrSvc: 'svc', namespace, service, endpoint: '', port: '', protocol: '' };
    if (last === 0) {
      r.endpoint = strip(segs[0] ?? '');
      last--;
    } else if (last === 1) {
      r.protocol = strip(segs[1] ?? '');
      r.port = strip(segs[0] ?? '');
      last -= 2;
    }
    if (last !== -1) return { services: [], rcode: 'NXDOMAIN' };
    const services: ExternalService[] = [];
    let rcode: 'NOERROR' | 'NXDOMAIN' = 'NXDOMAIN';
    for (const svc of this.view.services()) {
      const ns = svc.metadata.namespace ?? 'default';
      if (ns !== namespace || svc.metadata.name !== service) continue;
      const extIPs = serviceExternalIPs(svc);
      if (headless && extIPs.length === 0 && (isHeadless(svc) || r.endpoint !== '')) {
        for (const a of sliceReady(this.slicesFor(svc), this.cfg)) {
          if (r.endpoint !== '' && !eq(r.endpoint, a.hostname)) continue;
          for (const p of a.ports) {
            if (!matchPort(r, p.name, p.protocol)) continue;
            rcode = 'NOERROR';
            services.push({ host: a.ip, port: p.port, key: [a.hostname, svc.metadata.name, ns] });
          }
        }
        continue;
      }
      const ports: { name: string; port: number; protocol: string }[] = (svc.spec.ports ?? []).map((p) => ({ name: p.name ?? '', port: p.port, protocol: p.protocol ?? 'TCP' }));
      if (ports.length === 0) ports.push({ name: '', port: -1, protocol: '' });
      for (const ip of extIPs)
        for (const p of ports) {
          if (!matchPort(r, p.name, p.protocol)) continue;
          rcode = 'NOERROR';
          services.push({ host: ip, port: p.port, key: [svc.metadata.name, ns] });
        }
    }
    if (qtype === 'PTR') return { services: [], rcode };
    return { services, rcode };
  }

  /** ns.go nsAddrs(external=true): external IPs (or, headless, endpoint IPs) of the Services fronting CoreDNS. */
  externalAddress(headless: boolean): string[] {
    const own = this.ctx.podIp;
    const ips: string[] = [];
    let found = false;
    for (const svc of this.view.services()) {
      const ready = sliceReady(this.slicesFor(svc), this.cfg);
      if (!ready.some((a) => a.ip === own)) continue;
      found = true;
      if (headless && isHeadless(svc)) ips.push(...ready.map((a) => a.ip));
      else ips.push(...serviceExternalIPs(svc));
    }
    return found ? ips : [own];
  }

  /**
   * autopath.go AutoPath: with `pods verified`, the search path of the pod whose IP sent the query
   * (<ns>.svc.<zone>, svc.<zone>, <zone>, then CoreDNS's own resolv.conf search list, then '').
   */
  autoPath(qname: string, clientIp: string, resolvSearch: string[]): string[] | undefined {
    const zone = matchZone(this.cfg.zones, qname);
    if (zone === undefined || this.cfg.podMode !== 'verified') return undefined;
    const pod = this.view.pods().find((p) => p.status?.podIP === clientIp);
    if (!pod) return undefined;
    const ns = pod.metadata.namespace ?? 'default';
    const head = zone === '.' ? [`${ns}.svc.`, 'svc.', '.'] : [`${ns}.svc.${zone}`, `svc.${zone}`, zone];
    return [...head, ...resolvSearch, ''];
  }

  reverse(qname: string, zone: string): Backend[] {
    const ip = addressFromReverse(qname);
    if (ip === undefined) {
      this.records(qname, zone);
      return [];
    }
    for (const svc of this.view.services()) {
      if (!clusterIPs(svc).includes(ip)) continue;
      if (this.cfg.namespaces.length > 0 && !this.namespaceExposed(svc.metadata.namespace ?? 'default')) continue;
      return [{ host: `${svc.metadata.name}.${svc.metadata.namespace ?? 'default'}.svc.${this.cfg.primaryZone}`, port: 0, ttl: this.cfg.ttl, path: [] }];
    }
    // reverse.go serviceRecordForIP: endpoints are indexed by their own service-name label
    // (object.EndpointsKey), so an EndpointSlice answers even when its Service object is absent.
    const out: Backend[] = [];
    for (const slice of this.view.endpointSlices()) {
      const ns = slice.metadata.namespace ?? 'default';
      const svcName = slice.metadata.labels?.['kubernetes.io/service-name'] ?? '';
      if (svcName === '') continue;
      if (this.cfg.namespaces.length > 0 && !this.namespaceExposed(ns)) continue;
      for (const a of sliceReady([slice], this.cfg)) {
        if (a.ip !== ip) continue;
        const host = `${a.hostname}.${svcName}.${ns}.svc.${this.cfg.primaryZone}`;
        if (!out.some((b) => b.host === host)) out.push({ host, port: 0, ttl: this.cfg.ttl, path: [] });
      }
    }
    if (out.length === 0) throw NX();
    return out;
  }
}

function matchPort(r: RecordRequest, name: string, protocol: string): boolean {
  return (r.port === '' || eq(r.port, name)) && (r.protocol === '' || eq(r.protocol, protocol));
}

/** Labels of `name` left of `zone` (dnsutil.TrimZone + SplitDomainName). */
function labelsLeft(name: string, zone: string): string[] {
  const n = name.endsWith('.') ? name : `${name}.`;
  if (zone === '.') return n === '.' ? [] : n.slice(0, -1).split('.');
  const base = n.slice(0, n.length - zone.length);
  if (base === '') return [];
  return base.replace(/\.$/, '').split('.');
}

function parseStanza(c: import('../corefile/dispenser.js').Dispenser, ctx: SetupContext): KubernetesConfig {
  const args = c.remainingArgs();
  const zones = args.length > 0 ? args.map(normalizeZone) : [...ctx.zones];
  const primary = zones.find((z) => !isReverse(z));
  if (primary === undefined) throw new CorefileError('non-reverse zone name must be used');
  const cfg: KubernetesConfig = {
    zones,
    primaryZone: primary,
    podMode: 'disabled',
    namespaces: [],
    ttl: 5,
    fall: [],
    endpointPodNames: false,
    ignoreEmptyService: false,
    noEndpoints: false,
  };
  let nsLabels = false;
  while (c.nextBlock()) {
    const v = c.val();
    switch (v) {
      case 'endpoint_pod_names':
        if (c.remainingArgs().length > 0) throw c.argErr();
        cfg.endpointPodNames = true;
        break;
      case 'pods': {
        const a = c.remainingArgs();
        if (a.length !== 1) throw c.argErr();
        const m = a[0] ?? '';
        if (m !== 'disabled' && m !== 'insecure' && m !== 'verified')
          throw new CorefileError(`wrong value for pods: ${m},  must be one of: disabled, verified, insecure`);
        cfg.podMode = m;
        break;
      }
      case 'namespaces': {
        const a = c.remainingArgs();
        if (a.length === 0) throw c.argErr();
        cfg.namespaces.push(...a);
        break;
      }
      case 'endpoint': {
        const a = c.remainingArgs();
        if (a.length === 0) throw c.argErr();
        if (a.length > 1) ctx.log(`[WARNING] plugin/kubernetes: Multiple endpoints have been deprecated, only the first specified endpoint '${a[0] ?? ''}' is used`);
        break;
      }
      case 'tls':
        if (c.remainingArgs().length !== 3) throw c.argErr();
        break;
      case 'labels':
      case 'namespace_labels': {
        const a = c.remainingArgs();
        if (a.length === 0) throw c.argErr();
        if (v === 'namespace_labels') {
          nsLabels = true;
          cfg.namespaceLabels = parseSelectorArg(a, 'namespace_label');
        } else cfg.labels = parseSelectorArg(a, 'label');
        break;
      }
      case 'fallthrough':
        cfg.fall = fallZones(c.remainingArgs());
        break;
      case 'ttl': {
        const a = c.remainingArgs();
        if (a.length === 0) throw c.argErr();
        const s = a[0] ?? '';
        if (!/^[+-]?\d+$/.test(s)) throw new CorefileError(`strconv.Atoi: parsing "${s}": invalid syntax`);
        const t = Number(s);
        if (t < 0 || t > 3600) throw c.err(`ttl must be in range [0, 3600]: ${t}`);
        cfg.ttl = t;
        break;
      }
      case 'noendpoints':
        if (c.remainingArgs().length !== 0) throw c.argErr();
        cfg.noEndpoints = true;
        break;
      case 'ignore': {
        const a = c.remainingArgs();
        if (a.length > 0) {
          if (a[0] === 'empty_service') cfg.ignoreEmptyService = true;
          else throw new CorefileError(`unable to parse ignore value: '${a[0] ?? ''}'`);
        }
        break;
      }
      case 'kubeconfig': {
        const a = c.remainingArgs();
        if (a.length !== 1 && a.length !== 2) throw c.argErr();
        break;
      }
      default:
        throw c.err(`unknown property '${v}'`);
    }
  }
  if (cfg.namespaces.length > 0 && nsLabels) throw c.err('namespaces and namespace_labels cannot both be set');
  return cfg;
}

function srvTarget(b: Backend, zone: string): string {
  return `${b.path.join('.')}.${zone}`;
}

export const kubernetesPlugin: PluginDef = {
  name: 'kubernetes',
  setup(c, ctx) {
    let cfg: KubernetesConfig | undefined;
    let i = 0;
    while (c.next()) {
      if (i++ > 0) throw new CorefileError(ERR_ONCE);
      cfg = parseStanza(c, ctx);
    }
    const config = cfg as KubernetesConfig;
    const k = new Backend8s(config, selectedView(ctx.view, config), ctx);
    const synced = (): boolean => ctx.view.synced?.() ?? true;

    /**
     * backend_lookup.go A/AAAA: addresses, following CNAMEs inside the zone and asking upstream for
     * the rest. `tc` is set when an upstream answer came back truncated (it cut the answer to the
     * client's size), so the whole reply says TC and the client retries over TCP.
     */
    const addresses = (qname: string, qtype: 'A' | 'AAAA', zone: string, req: Request, prev: RR[], tc: { set: boolean }): RR[] => {
      const records: RR[] = [];
      const services = eq(qname, zone) ? apex(qname, qtype, zone) : k.services(qname, qtype, zone);
      const dup = new Set<string>();
      for (const s of services) {
        const t = hostType(s.host);
        if (t === 'CNAME') {
          const target = s.host.endsWith('.') ? s.host : `${s.host}.`;
          if (eq(target, qname) || prev.length > 7) continue;
          const cname: RR = { name: qname, ttl: s.ttl, class: 'IN', type: 'CNAME', target };
          if (prev.some((p) => p.type === 'CNAME' && eq(p.name, qname) && eq(p.target, target))) continue;
          if (matchZone([zone], target) !== undefined && zone !== '.') {
            try {
              const next = addresses(target, qtype, zone, req, [...prev, cname], tc);
              if (next.length > 0) records.push(cname, ...next);
            } catch {
              // a target that does not exist adds nothing
            }
            continue;
          }
          const m = req.lookup(target, qtype);
          if (m.flags.tc) tc.set = true;
          records.push(cname, ...m.answer);
          continue;
        }
        if (t === qtype && !dup.has(s.host)) {
          dup.add(s.host);
          records.push(
            t === 'A'
              ? { name: qname, ttl: s.ttl, class: 'IN', type: 'A', address: s.host }
              : { name: qname, ttl: s.ttl, class: 'IN', type: 'AAAA', address: s.host },
          );
        }
      }
      return records;
    };

    // backend_lookup.go checkForApex: the apex is looked up as apex.dns.<zone> first (always invalid here).
    const apex = (qname: string, qtype: QType, zone: string): Backend[] => k.services(qname, qtype, zone);

    const soa = (zone: string): RR => ({
      name: zone,
      ttl: Math.min(config.ttl, 300),
      class: 'IN',
      type: 'SOA',
      mname: `ns.dns.${zone}`,
      rname: `hostmaster.${zone}`,
      serial: Math.floor(ctx.view.lastChangeMs() / 1000) >>> 0,
      refresh: 7200,
      retry: 1800,
      expire: 86400,
      minimum: config.ttl,
    });

    // setup.go searchFromResolvConf: CoreDNS's own /etc/resolv.conf search list, for autopath.
    const resolvSearch = parseResolvConf(ctx.readFile('/etc/resolv.conf') ?? '').searches.map(normalizeZone);
    const externaler: Externaler = {
      external: (qname, qtype, zone, headless) => k.external(qname, qtype, zone, headless),
      externalAddress: (headless) => k.externalAddress(headless),
      externalSerial: () => Math.floor(ctx.view.lastChangeMs() / 1000) >>> 0,
      ttl: () => config.ttl,
    };

    return {
      name: 'kubernetes',
      externaler,
      autoPath: (qname, clientIp) => k.autoPath(qname, clientIp, resolvSearch),
      ready: synced,
      serve(req, next) {
        const q = req.msg.question[0];
        if (!q) return nextOrFailure('kubernetes', next, req);
        const qname = q.name.endsWith('.') ? q.name : `${q.name}.`;
        const matched = matchZone(config.zones, qname);
        if (matched === undefined) return nextOrFailure('kubernetes', next, req);
        const zone = matched === '.' ? '.' : qname.slice(qname.length - matched.length);
        let records: RR[] = [];
        let extra: RR[] = [];
        let nameError = false;
        const tc = { set: false };
        try {
          switch (q.type) {
            case 'AXFR':
            case 'IXFR':
              return { rcode: 'REFUSED' };
            case 'A':
            case 'AAAA':
              records = addresses(qname, q.type, zone, req, [], tc);
              break;
            case 'TXT': {
              for (const s of k.services(qname, 'TXT', zone)) {
                if (s.path.length === 0) records.push({ name: qname, ttl: s.ttl, class: 'IN', type: 'TXT', texts: [s.host] });
                else if (hostType(s.host) === 'CNAME') records.push({ name: qname, ttl: s.ttl, class: 'IN', type: 'CNAME', target: s.host.endsWith('.') ? s.host : `${s.host}.` });
              }
              break;
            }
            case 'CNAME': {
              const s = k.services(qname, 'CNAME', zone)[0];
              if (s && hostType(s.host) === 'CNAME') records.push({ name: qname, ttl: s.ttl, class: 'IN', type: 'CNAME', target: s.host.endsWith('.') ? s.host : `${s.host}.` });
              break;
            }
            case 'PTR':
              records = k.reverse(qname, zone).map((b) => ({ name: qname, ttl: b.ttl, class: 'IN', type: 'PTR', target: b.host }));
              break;
            case 'SRV': {
              const services = k.services(qname, 'SRV', zone);
              const n = services.length;
              const weight = Math.max(1, Math.floor(100 / n));
              const seenSrv = new Set<string>();
              const seenAddr = new Set<string>();
              for (const s of services) {
                if (s.port === -1) continue;
                const target = srvTarget(s, zone);
                const t = hostType(s.host);
                if (!seenSrv.has(`${target}|${s.port}`)) {
                  seenSrv.add(`${target}|${s.port}`);
                  records.push({ name: qname, ttl: s.ttl, class: 'IN', type: 'SRV', priority: 0, weight, port: s.port, target });
                }
                if (!seenAddr.has(`${target}|${s.host}`)) {
                  seenAddr.add(`${target}|${s.host}`);
                  extra.push(
                    t === 'A'
                      ? { name: target, ttl: s.ttl, class: 'IN', type: 'A', address: s.host }
                      : { name: target, ttl: s.ttl, class: 'IN', type: 'AAAA', address: s.host },
                  );
                }
              }
              break;
            }
            case 'SOA':
              if (qname === zone) records = [soa(zone)];
              break;
            case 'NS':
              if (qname === zone) {
                for (const a of k.nsAddrs(zone)) {
                  records.push({ name: qname, ttl: config.ttl, class: 'IN', type: 'NS', target: a.name });
                  extra.push(
                    hostType(a.ip) === 'A'
                      ? { name: a.name, ttl: config.ttl, class: 'IN', type: 'A', address: a.ip }
                      : { name: a.name, ttl: config.ttl, class: 'IN', type: 'AAAA', address: a.ip },
                  );
                }
                break;
              }
              addresses(qname, 'A', zone, req, [], tc);
              break;
            default:
              addresses(qname, 'A', zone, req, [], tc);
          }
        } catch (e) {
          if (!(e instanceof NameError)) throw e;
          nameError = true;
          records = [];
          extra = [];
        }
        if (nameError) {
          if (matchZone(config.fall, qname) !== undefined) return nextOrFailure('kubernetes', next, req);
          const reply = replyTo(req.msg, synced() ? 'NXDOMAIN' : 'SERVFAIL');
          reply.flags.aa = true;
          reply.authority = [soa(zone)];
          return { rcode: reply.rcode, reply };
        }
        const reply = replyTo(req.msg);
        reply.flags.aa = true;
        reply.flags.tc = tc.set;
        if (records.length === 0) {
          reply.authority = [soa(zone)];
          return { rcode: 'NOERROR', reply };
        }
        reply.answer = records;
        reply.additional = extra;
        return { rcode: 'NOERROR', reply };
      },
    };
  },
};
