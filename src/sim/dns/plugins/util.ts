/** Small helpers shared by plugin setups (Go net.SplitHostPort wording, duration parsing). */
import { CorefileError } from '../corefile/dispenser.js';

/** Go net.SplitHostPort validation, returning its error text or undefined. */
export function splitHostPortError(addr: string): string | undefined {
  const colon = addr.lastIndexOf(':');
  if (colon < 0) return `address ${addr}: missing port in address`;
  const host = addr.slice(0, colon);
  if (host.includes(':') && !(host.startsWith('[') && host.endsWith(']'))) return `address ${addr}: too many colons in address`;
  return undefined;
}

/** time.ParseDuration error text. */
export function durationError(s: string): CorefileError {
  return new CorefileError(`time: invalid duration "${s}"`);
}

/** Go `%v` of a time.Duration for whole seconds / minutes (2s, 1m0s, 1h0m0s). */
export function goDurationString(ms: number): string {
  if (ms === 0) return '0s';
  if (ms < 1000) return `${ms}ms`;
  const total = ms / 1000;
  const h = Math.floor(total / 3600);
  const m = Math.floor((total % 3600) / 60);
  const sec = total % 60;
  if (h > 0) return `${h}h${m}m${sec}s`;
  if (m > 0) return `${m}m${sec}s`;
  return `${sec}s`;
}
