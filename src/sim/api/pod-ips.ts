/**
 * A pod's address of one family: status.podIP when it is of that family, else the matching entry
 * of status.podIPs (a dual-stack pod has one of each; utils.go getEndpointAddresses picks them so).
 */
import type { Pod } from './types.js';
import { ipFamilyOf, type IPFamily } from '../../util/ip.js';

export function podIPOf(p: Pod, family: IPFamily): string | undefined {
  const primary = p.status?.podIP;
  if (primary && ipFamilyOf(primary) === family) return primary;
  return (p.status?.podIPs ?? []).map((x) => x.ip).find((ip) => ipFamilyOf(ip) === family);
}
