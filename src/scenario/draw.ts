/**
 * Drawing exam tasks stratified by domain weight (CKA v1.35: Troubleshooting 30 %, Cluster
 * Architecture 25 %, Services & Networking 20 %, Workloads & Scheduling 15 %, Storage 10 %), from
 * what the library has: seats go to domains by largest remainder over the weights of the domains
 * present, a domain with too few tasks gives its surplus to the others, and tasks are drawn without
 * replacement. Tasks sharing a `family` are near-duplicates: an exam holds at most one of each
 * family (a domain's tasks are counted by family when seats are apportioned). Same Random state,
 * same exam.
 */
import type { Random } from '../util/random.js';
import { DOMAINS, type Domain } from './schema.js';

export type DomainWeights = Partial<Record<Domain, number>>;

/** Seats per domain for n tasks given how many each domain has. */
export function apportion(n: number, weights: DomainWeights, available: Partial<Record<Domain, number>>): Partial<Record<Domain, number>> {
  const seats: Partial<Record<Domain, number>> = {};
  let left = Math.min(n, Object.values(available).reduce((a, b) => a + (b ?? 0), 0));
  let open = (Object.keys(DOMAINS) as Domain[]).filter((d) => (available[d] ?? 0) > 0 && (weights[d] ?? 0) > 0);
  while (left > 0 && open.length > 0) {
    const total = open.reduce((a, d) => a + weights[d]!, 0);
    const exact = open.map((d) => ({ d, q: (left * weights[d]!) / total }));
    const give = new Map(exact.map(({ d, q }) => [d, Math.floor(q)]));
    let rest = left - [...give.values()].reduce((a, b) => a + b, 0);
    for (const { d } of [...exact].sort((a, b) => b.q - Math.floor(b.q) - (a.q - Math.floor(a.q)) || weights[b.d]! - weights[a.d]!)) {
      if (rest === 0) break;
      give.set(d, give.get(d)! + 1);
      rest--;
    }
    let placed = 0;
    for (const d of open) {
      const room = available[d]! - (seats[d] ?? 0);
      const g = Math.min(room, give.get(d)!);
      seats[d] = (seats[d] ?? 0) + g;
      placed += g;
    }
    left -= placed;
    open = open.filter((d) => (seats[d] ?? 0) < available[d]!);
    if (placed === 0) break;
  }
  return seats;
}

export interface Drawable {
  id: string;
  domain: Domain;
  family?: string | undefined;
}

/** A task's family key: its `family`, or its own id when it has none. */
function familyOf(s: Drawable): string {
  return s.family !== undefined ? `family:${s.family}` : `id:${s.id}`;
}

export function stratifiedDraw<T extends Drawable>(scenarios: readonly T[], n: number, weights: DomainWeights = DOMAINS, random: Random): T[] {
  const byDomain = new Map<Domain, T[]>();
  for (const s of scenarios) byDomain.set(s.domain, [...(byDomain.get(s.domain) ?? []), s]);
  const available = Object.fromEntries([...byDomain].map(([d, list]) => [d, new Set(list.map(familyOf)).size])) as Partial<Record<Domain, number>>;
  const seats = apportion(n, weights, available);
  const out: T[] = [];
  const taken = new Set<string>();
  for (const d of Object.keys(DOMAINS) as Domain[]) {
    const pool = [...(byDomain.get(d) ?? [])];
    let i = 0;
    for (let seat = 0; seat < (seats[d] ?? 0) && i < pool.length; ) {
      const j = i + random.int(pool.length - i);
      [pool[i], pool[j]] = [pool[j]!, pool[i]!];
      const pick = pool[i++]!;
      // a family drawn already (in this domain or another) is passed over
      if (taken.has(familyOf(pick))) continue;
      taken.add(familyOf(pick));
      out.push(pick);
      seat++;
    }
  }
  // seats a domain could not fill because its families were drawn elsewhere go to any task left
  const target = Object.values(seats).reduce((a, b) => a + (b ?? 0), 0);
  const rest = scenarios.filter((s) => !taken.has(familyOf(s)));
  for (let i = 0; out.length < target && i < rest.length; i++) {
    const j = i + random.int(rest.length - i);
    [rest[i], rest[j]] = [rest[j]!, rest[i]!];
    if (taken.has(familyOf(rest[i]!))) continue;
    taken.add(familyOf(rest[i]!));
    out.push(rest[i]!);
  }
  for (let i = out.length - 1; i > 0; i--) {
    const j = random.int(i + 1);
    [out[i], out[j]] = [out[j]!, out[i]!];
  }
  return out;
}
