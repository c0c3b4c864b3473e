/**
 * What kubectl prints when it cannot reach the API server (staging/src/k8s.io/kubectl/pkg/cmd/util
 * helpers.go StandardErrorMessage: "The connection to the server HOST was refused - did you
 * specify the right host or port?" for a refused connection, "Unable to connect to the server: "
 * and Go's error for anything else), preceded by one klog line per discovery request that failed
 * (client-go discovery/cached/memory memcache.go) when kubectl has no discovery cache for that
 * server. How many discovery requests a command makes before it gives up differs by command: the
 * counts below were recorded from kubectl v1.35.2 against a server that refuses connections, with
 * an empty cache directory. A command not listed makes none (`events`, `top`, `auth whoami`,
 * `get --raw`, `cp`, the `create` generators that POST directly). Not modelled: the other final
 * lines some commands print instead (`-f` files: `error: unable to recognize "x.yaml": Get …`; the
 * `create` generators: `error: failed to create deployment: Post …`).
 */
import { goQuote } from '../../util/go-quote.js';
import { klogLine } from '../../util/klog.js';
import type { DialContext } from '../../sim/api/errors.js';

/** The process id kubectl's klog lines carry (fixed, for deterministic output). */
export const KUBECTL_PID = 12345;

const DISCOVERY_ATTEMPTS: Readonly<Record<string, number>> = {
  get: 5,
  describe: 5,
  delete: 5,
  edit: 5,
  label: 5,
  annotate: 5,
  patch: 5,
  scale: 5,
  expose: 5,
  autoscale: 5,
  'rollout status': 5,
  'rollout restart': 5,
  'rollout undo': 5,
  'rollout history': 5,
  'rollout pause': 5,
  'rollout resume': 5,
  'set resources': 5,
  'set env': 5,
  'set selector': 5,
  'set serviceaccount': 5,
  logs: 4,
  exec: 4,
  wait: 4,
  attach: 4,
  'port-forward': 4,
  debug: 4,
  cordon: 4,
  uncordon: 4,
  drain: 4,
  'set image': 4,
  'certificate approve': 4,
  'certificate deny': 4,
  explain: 2,
  'auth can-i': 2,
  taint: 2,
  'create role': 2,
  'create clusterrole': 2,
  'api-resources': 1,
  run: 1,
};

/** The klog lines a command prints before its connection error (none when discovery is cached or the command makes no discovery request). */
export function discoveryErrorLines(dial: DialContext | undefined, verbPath: string): string {
  if (!dial || dial.cached) return '';
  const n = DISCOVERY_ATTEMPTS[verbPath] ?? 0;
  const line = klogLine('E', dial.at, KUBECTL_PID, 'memcache.go:265', `"Unhandled Error" err=${goQuote(`couldn't get current server API group list: Get ${goQuote(dial.apiUrl)}: ${dial.detail}`)}`);
  return `${line}\n`.repeat(n);
}
