/**
 * API Priority and Fairness' configuration controller, which runs inside kube-apiserver
 * (k8s.io/apiserver pkg/util/flowcontrol/apf_controller.go): on every FlowSchema it keeps the
 * Dangling condition, False/Found while the PriorityLevelConfiguration it names exists and
 * True/NotFound otherwise (presyncFlowSchemaStatus); the transition time moves only when the
 * status does. `kubectl get flowschemas` prints that status as MISSINGPL.
 */
import type { Cluster, Controller } from '../cluster.js';
import type { KObject } from '../api/types.js';
import { clone } from '../api/store.js';
import { danglingCondition } from '../api/flowcontrol-bootstrap.js';

interface Condition {
  type: string;
  status: string;
  reason?: string;
  message?: string;
  lastTransitionTime?: string;
}

interface FlowSchema extends KObject {
  spec?: { priorityLevelConfiguration?: { name?: string } };
  status?: { conditions?: Condition[] };
}

export const apfConfigController: Controller = {
  name: 'apf-config',
  watches: ['FlowSchema', 'PriorityLevelConfiguration'],
  reconcile(c: Cluster): void {
    const levels = new Set(c.store.list('PriorityLevelConfiguration').map((o) => o.metadata.name));
    for (const fs of c.store.list<FlowSchema>('FlowSchema')) {
      if (fs.metadata.deletionTimestamp) continue;
      const want = danglingCondition(fs, levels.has(fs.spec?.priorityLevelConfiguration?.name ?? ''), c.timestamp()) as unknown as Condition;
      const conds = fs.status?.conditions ?? [];
      const i = conds.findIndex((x) => x.type === 'Dangling');
      const cur = conds[i];
      if (cur && cur.status === want.status && cur.reason === want.reason && cur.message === want.message) continue;
      if (cur && cur.status === want.status && cur.lastTransitionTime) want.lastTransitionTime = cur.lastTransitionTime;
      const upd = clone(fs);
      const next = [...conds];
      if (i < 0) next.push(want);
      else next[i] = want;
      upd.status = { ...(upd.status ?? {}), conditions: next };
      c.write(upd);
    }
  },
};
