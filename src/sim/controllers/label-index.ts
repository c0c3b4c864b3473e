/**
 * The pods of a namespace that a Service's selector matches, through an index of the namespace's
 * pods by label: the Endpoints and EndpointSlice controllers asked it of every pod of the
 * namespace for every Service at each sync (an applied file of 333 Services and 333 Deployments:
 * 111,000 selector matches per controller and settle round). Upstream's endpoints controllers
 * list the pods by the Service's selector from an informer cache
 * (pkg/controller/endpoint/endpoints_controller.go podLister.Pods(ns).List(selector)).
 *
 * Exact: the pods a non-empty selector map matches all carry its first pair, so matching the
 * pods with that pair (in store order) gives what matching every pod of the namespace gave, in
 * the same order. The index is built from `store.list('Pod', namespace)` and kept while the
 * namespace's pods are unchanged (namespace-cache.ts).
 */
import type { Labels, Pod } from '../api/types.js';
import type { Store } from '../api/store.js';
import { matchMap } from '../api/selectors.js';
import { NamespaceCache } from './namespace-cache.js';

/** A namespace's pods by label key, then value, each list in store order. */
type PodLabelIndex = Map<string, Map<string, Pod[]>>;

const INDEXES = new NamespaceCache<PodLabelIndex>((pods) => {
  const byLabel: PodLabelIndex = new Map();
  for (const p of pods as readonly Pod[]) {
    const labels = p.metadata.labels;
    if (!labels) continue;
    for (const [k, v] of Object.entries(labels)) {
      let byValue = byLabel.get(k);
      if (!byValue) byLabel.set(k, (byValue = new Map()));
      const list = byValue.get(v);
      if (list) list.push(p);
      else byValue.set(v, [p]);
    }
  }
  return byLabel;
});

/** The pods of `namespace` whose labels `selector` (a non-empty Service selector) matches, in store order. */
export function podsSelected(store: Store, namespace: string, selector: Labels): Pod[] {
  const first = Object.keys(selector)[0];
  if (first === undefined) throw new Error('podsSelected: an empty selector (the callers leave such Services out)');
  const candidates = INDEXES.get(store, 'Pod', namespace).get(first)?.get(selector[first]!) ?? [];
  return candidates.filter((p) => matchMap(selector, p.metadata.labels));
}
