/**
 * DNS servers outside the cluster that a fixture declares (spec.externalDNS), e.g. a corporate
 * server authoritative for corp.internal. They sit on the node network like the gateway.
 */
import type { Cluster } from '../cluster.js';
import type { ExternalDnsServer } from '../dns/upstream-zone.js';

export function externalDnsServers(c: Cluster): ExternalDnsServer[] {
  return c.state.externalDNS ?? [];
}
