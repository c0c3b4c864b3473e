/**
 * Server arguments given by name. bind9's dig/host/nslookup (bin/dig/dighost.c set_nameserver /
 * getaddresses → lib/isc/getaddresses.c) and busybox nslookup (networking/nslookup.c add_ns →
 * libbb/xconnect.c xhost2sockaddr) both hand the argument to the system getaddrinfo first and then
 * send the query to the resulting address; the name is kept for display (`;; SERVER: ip#53(name)`,
 * `Server:\t\tname`).
 */
import { isIP } from '../message.js';
import type { ClientInput, ServerLookup } from './types.js';

/** Addresses for a server argument: an IP literal as is, otherwise through the container's resolver. */
export function lookupServer(input: ClientInput, name: string): ServerLookup {
  if (isIP(name) || !input.resolveServer) return { ok: true, addresses: [name], elapsedMs: 0 };
  return input.resolveServer(name);
}

/** bind9's fatal() for an unresolvable server: `PROG: couldn't get address for 'NAME': not found`. */
export function bind9ServerError(prog: string, name: string, error: string): string {
  return `${prog}: couldn't get address for '${name}': ${error}\n`;
}
