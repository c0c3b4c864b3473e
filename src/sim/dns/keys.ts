/**
 * Server block keys → (transport, zones, port), as core/dnsserver/register.go InspectServerBlocks
 * with plugin/normalize.go SplitHostPort: `[SCHEME://]ZONE[:PORT]`, a CIDR zone expands to its
 * reverse zones. Errors carry CoreDNS's wording.
 */
import { parseIPv4 } from './message.js';

export interface ZoneAddr {
  transport: 'dns' | 'tls' | 'grpc' | 'https' | 'quic';
  zone: string;
  port: string;
}

const DEFAULT_PORT: Record<ZoneAddr['transport'], string> = { dns: '53', tls: '853', grpc: '443', https: '443', quic: '853' };

export function zoneAddrString(z: ZoneAddr): string {
  return `${z.transport}://${z.zone}:${z.port}`;
}

/** miekg/dns IsDomainName, reduced: labels 1..63, total ≤ 255, no empty label except the root. */
export function isDomainName(s: string): boolean {
  if (s === '.' ) return true;
  if (s.length === 0 || s.length > 255) return false;
  const body = s.endsWith('.') ? s.slice(0, -1) : s;
  if (body.length === 0) return false;
  return body.split('.').every((l) => l.length > 0 && l.length <= 63);
}

export function splitKey(key: string, defaultPort = '53'): { ok: true; addrs: ZoneAddr[] } | { ok: false; error: string } {
  let transport: ZoneAddr['transport'] = 'dns';
  let rest = key;
  const m = /^(dns|tls|grpc|https|quic):\/\//.exec(key);
  if (m) {
    transport = m[1] as ZoneAddr['transport'];
    rest = key.slice(m[0].length);
  }
  const colon = rest.lastIndexOf(':');
  if (colon !== -1 && colon === rest.length - 1) return { ok: false, error: `expecting data after last colon: "${rest}"` };
  let port = '';
  if (colon !== -1 && /^[+-]?\d+$/.test(rest.slice(colon + 1))) {
    port = String(Number.parseInt(rest.slice(colon + 1), 10));
    rest = rest.slice(0, colon);
  }
  if (rest.length > 255) return { ok: false, error: `specified zone is too long: ${rest.length} > 255` };
  if (!isDomainName(rest)) return { ok: false, error: `zone is not a valid domain name: ${rest}` };
  if (port === '') port = transport === 'dns' ? defaultPort : DEFAULT_PORT[transport];
  const cidr = /^([\d.]+)\/(\d+)$/.exec(rest);
  const zones: string[] = [];
  if (cidr && parseIPv4(cidr[1] ?? '')) {
    const octets = parseIPv4(cidr[1] ?? '') ?? [];
    const bits = Number(cidr[2]);
    if (bits > 32) return { ok: true, addrs: [{ transport, zone: fqdnLower(rest), port }] };
    const whole = Math.floor(bits / 8);
    const extra = bits % 8;
    const fixed = octets.slice(0, whole);
    if (extra === 0) zones.push(`${[...fixed].reverse().join('.')}${fixed.length ? '.' : ''}in-addr.arpa.`);
    else {
      const o = octets[whole] ?? 0;
      const size = 1 << (8 - extra);
      const start = o & ~(size - 1) & 0xff;
      for (let v = start; v < start + size; v++) zones.push(`${[...fixed, v].reverse().join('.')}.in-addr.arpa.`);
    }
  } else zones.push(fqdnLower(rest));
  return { ok: true, addrs: zones.map((zone) => ({ transport, zone, port })) };
}

function fqdnLower(s: string): string {
  const l = s.toLowerCase();
  return l.endsWith('.') ? l : `${l}.`;
}
