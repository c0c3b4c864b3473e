/**
 * `kubectl describe networkpolicy` (k8s.io/kubectl pkg/describe/describe.go describeNetworkPolicy,
 * describeNetworkPolicySpec, printNetworkPolicySpecIngressFrom, printNetworkPolicySpecEgressTo).
 * Only the header lines carry tabs; the spec is written with fixed indents, so `PodSelector: `
 * followed by a level-2 write leaves five spaces before the selector. A peer with both selectors
 * prints the namespace selector first; an ipBlock prints only when neither selector is set.
 * The describer takes no events.
 */
import type { NetworkPolicy, NetworkPolicyPeer, NetworkPolicyPort } from '../../../sim/api/types.js';
import { formatLabelSelector } from '../../printers/columns/cells.js';
import { goTimeString } from '../../printers/duration.js';
import { LEVEL_0, LEVEL_1, LEVEL_2, printAnnotationsMultiline, printLabelsMultiline, tabbedString, type PrefixWriter } from '../../printers/describe/writer.js';

const INDENT = '    ';

/** `%s` of the *intstr.IntOrString port: its value, `<nil>` when unset. */
function portText(p: NetworkPolicyPort): string {
  return p.port === undefined ? '<nil>' : String(p.port);
}

function printPorts(w: PrefixWriter, ports: readonly NetworkPolicyPort[] | undefined): void {
  if (!ports || ports.length === 0) {
    w.write(LEVEL_0, `${INDENT}To Port: <any> (traffic allowed to all ports)\n`);
    return;
  }
  for (const p of ports) {
    const proto = p.protocol ?? 'TCP';
    if (p.endPort === undefined) w.write(LEVEL_0, `${INDENT}To Port: ${portText(p)}/${proto}\n`);
    else w.write(LEVEL_0, `${INDENT}To Port Range: ${portText(p)}-${p.endPort}/${proto}\n`);
  }
}

function printPeers(w: PrefixWriter, title: 'From' | 'To', peers: readonly NetworkPolicyPeer[] | undefined): void {
  if (!peers || peers.length === 0) {
    const what = title === 'From' ? 'source' : 'destination';
    w.write(LEVEL_0, `${INDENT}${title}: <any> (traffic not restricted by ${what})\n`);
    return;
  }
  for (const peer of peers) {
    w.write(LEVEL_0, `${INDENT}${title}:\n`);
    if (peer.podSelector && peer.namespaceSelector) {
      w.write(LEVEL_1, `${INDENT}NamespaceSelector: ${formatLabelSelector(peer.namespaceSelector)}\n`);
      w.write(LEVEL_1, `${INDENT}PodSelector: ${formatLabelSelector(peer.podSelector)}\n`);
    } else if (peer.podSelector) {
      w.write(LEVEL_1, `${INDENT}PodSelector: ${formatLabelSelector(peer.podSelector)}\n`);
    } else if (peer.namespaceSelector) {
      w.write(LEVEL_1, `${INDENT}NamespaceSelector: ${formatLabelSelector(peer.namespaceSelector)}\n`);
    } else if (peer.ipBlock) {
      w.write(LEVEL_1, `${INDENT}IPBlock:\n`);
      w.write(LEVEL_2, `${INDENT}CIDR: ${peer.ipBlock.cidr}\n`);
      w.write(LEVEL_2, `${INDENT}Except: ${(peer.ipBlock.except ?? []).join(', ')}\n`);
    }
  }
}

type Rule = { ports?: NetworkPolicyPort[]; from?: NetworkPolicyPeer[]; to?: NetworkPolicyPeer[] };

function printRules(w: PrefixWriter, rules: readonly Rule[] | undefined, direction: 'ingress' | 'egress'): void {
  if (!rules || rules.length === 0) {
    w.write(LEVEL_0, `${INDENT}<none> (Selected pods are isolated for ${direction} connectivity)\n`);
    return;
  }
  rules.forEach((rule, i) => {
    printPorts(w, rule.ports);
    if (direction === 'ingress') printPeers(w, 'From', rule.from);
    else printPeers(w, 'To', rule.to);
    if (i !== rules.length - 1) w.write(LEVEL_0, `${INDENT}----------\n`);
  });
}

export function describeNetworkPolicy(np: NetworkPolicy): string {
  return tabbedString((w) => {
    w.write(LEVEL_0, `Name:\t${np.metadata.name}\n`);
    w.write(LEVEL_0, `Namespace:\t${np.metadata.namespace ?? ''}\n`);
    w.write(LEVEL_0, `Created on:\t${goTimeString(np.metadata.creationTimestamp ?? '')}\n`);
    printLabelsMultiline(w, 'Labels', np.metadata.labels);
    printAnnotationsMultiline(w, 'Annotations', np.metadata.annotations);
    const spec = np.spec;
    w.write(LEVEL_0, 'Spec:\n');
    w.write(LEVEL_1, 'PodSelector: ');
    const sel = spec.podSelector ?? {};
    if (Object.keys(sel.matchLabels ?? {}).length === 0 && (sel.matchExpressions ?? []).length === 0)
      w.write(LEVEL_2, '<none> (Allowing the specific traffic to all pods in this namespace)\n');
    else w.write(LEVEL_2, `${formatLabelSelector(sel)}\n`);
    const types = spec.policyTypes ?? [];
    if (types.includes('Ingress')) {
      w.write(LEVEL_1, 'Allowing ingress traffic:\n');
      printRules(w, spec.ingress, 'ingress');
    } else w.write(LEVEL_1, 'Not affecting ingress traffic\n');
    if (types.includes('Egress')) {
      w.write(LEVEL_1, 'Allowing egress traffic:\n');
      printRules(w, spec.egress, 'egress');
    } else w.write(LEVEL_1, 'Not affecting egress traffic\n');
    w.write(LEVEL_1, `Policy Types: ${types.length ? types.join(', ') : '<none>'}\n`);
  });
}
