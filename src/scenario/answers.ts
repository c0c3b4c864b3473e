/**
 * Typed answers (`answer <text>` in the shell, for tasks such as "find the Service CIDR"). They
 * are kept in the cluster's state (its 'scenario.answers' field), so they travel with the session's JSON (quit, crash,
 * resume) and with every clone the grader makes, without appearing on any host's filesystem.
 */
import type { Session } from '../shell/session.js';
import type { Cluster } from '../sim/cluster.js';

const KEY = 'scenario.answers' as const;

export function recordAnswer(session: Session, text: string, key = 'default'): void {
  const st = (session.cluster.state[KEY] ??= {});
  st[key] = text.trim();
}

export function readAnswers(cluster: Cluster): Record<string, string> {
  const st = cluster.state[KEY];
  return st && typeof st === 'object' ? { ...st } : {};
}
