/**
 * A kube-proxy iptables proxier's life on one node, restore by restore: the random Service and
 * EndpointSlice edits of the memo tests (proxy-steps.ts), synced fully or partially as they say
 * (KEP-3453), each sync's `iptables-restore --noflush` input kept. scripts/record-nft-list.mjs
 * loads the node's starting rules into a real iptables-nft in a network namespace, feeds it the
 * same inputs and records whether each was taken and the final iptables-save;
 * src/sim/net/ipt-replay.test.ts checks the simulator against that.
 */
import { newIptablesState, type IptablesState } from '../sim/net/iptables.js';
import { applyRestore } from '../sim/net/restore.js';
import { renderSave } from '../sim/net/render.js';
import { ensureKubeletRules } from '../sim/net/kube-proxy/kubelet-rules.js';
import { syncProxyRules, type SyncResult } from '../sim/net/kube-proxy/sync.js';
import { MEMO_NODES, deepFreeze, editSteps } from './proxy-steps.js';

export interface IptReplay {
  /**
   * The node's rules after kube-proxy's first sync (what `iptables-restore` loads first): that sync
   * also creates the canary chains and the jump rules with single `iptables` calls (proxier.go
   * EnsureChain/EnsureRule, Monitor), which are not in a restore input; later syncs find them there.
   */
  start: string;
  /** Each later sync's restore input and whether the simulator took it. */
  restores: { text: string; ok: boolean }[];
  /** iptables-save at the end, without its `#` lines. */
  save: string;
}

/** iptables-save without the comment lines (the real one names its own version and the time). */
export function saveBody(text: string): string {
  return text
    .split('\n')
    .filter((l) => !l.startsWith('#'))
    .join('\n');
}

/**
 * `steps` syncs from `seed`; with `handEdits`, before every seventh sync someone flushes a
 * Service's KUBE-SVC chain with `iptables-restore --noflush` (as the troubleshooting task
 * kube-proxy-stale-service-chain does with `iptables -F`): partial syncs leave it, full ones mend it.
 */
export function iptReplay(seed: number, steps: number, handEdits = false): IptReplay {
  const st: IptablesState = newIptablesState();
  ensureKubeletRules(st);
  let start = '';
  const node = MEMO_NODES[0]!;
  let last: SyncResult | undefined;
  const restores: IptReplay['restores'] = [];
  editSteps(seed, steps).forEach((step, s) => {
    const svcChain = st.tables.nat?.chains.find((c) => c.name.startsWith('KUBE-SVC-') && c.rules.length > 0);
    if (handEdits && s > 0 && s % 7 === 6 && svcChain) {
      const text = `*nat\n:${svcChain.name} - [0:0]\nCOMMIT\n`;
      restores.push({ text, ok: applyRestore(st, text, { noflush: true }).exitCode === 0 });
    }
    const previous = step.full ? undefined : last?.fingerprints;
    const r = syncProxyRules(st, {
      services: step.services.map(deepFreeze),
      endpointSlices: step.slices.map(deepFreeze),
      node,
      config: { clusterCIDR: '10.244.0.0/16', randomFully: true },
      ...(previous ? { previous } : {}),
      staleCleanupDue: step.staleCleanupDue || s % 5 === 0,
    });
    if (s === 0) start = renderSave(st.tables, { now: 0 });
    else restores.push({ text: `${r.payload}\n`, ok: r.error === undefined });
    if (r.error === undefined) last = r;
  });
  return { start, restores, save: saveBody(renderSave(st.tables, { now: 0 })) };
}
