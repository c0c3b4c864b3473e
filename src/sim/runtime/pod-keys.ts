/**
 * The `<pod uid>/<name>` keys under which the kubelet keeps a pod's per-container and per-volume
 * state (volume states, back-off timers, probe workers), by the container or volume object they
 * name. The kubelet looks them up at every sync of every pod in tables of hundreds of entries;
 * a key built afresh each time is a new string to hash and find among the table's keys, while
 * the same string object, once used, is found at once. A stored pod's containers and volumes
 * are frozen and shared by every version of the pod and every copy of the state, so the key is
 * a function of the object (its `name` cannot change) and the uid, which is kept beside it and
 * compared. Objects that are not frozen (hand-built test pods) get a new string each time.
 */
const KEYS = new WeakMap<object, { uid: string; key: string }>();

let builds = 0;

/** How many keys have been built rather than found (tests). */
export function podKeyBuilds(): number {
  return builds;
}

export function podPartKey(uid: string, part: { readonly name: string }): string {
  const had = KEYS.get(part);
  if (had !== undefined && had.uid === uid) return had.key;
  builds++;
  const key = `${uid}/${part.name}`;
  if (Object.isFrozen(part)) KEYS.set(part, { uid, key });
  return key;
}
