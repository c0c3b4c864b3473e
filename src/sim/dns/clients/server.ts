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

/** A busybox server argument split into host and port, or libbb's error text. */
export type BusyboxServerArg = { ok: true; host: string; port: number } | { ok: false; error: string };

/**
 * busybox's `HOST[:PORT]` / `[IPV6]:PORT` parsing (libbb/xconnect.c str2sockaddr, 1_28_4 and
 * 1_36_1 alike): the text after the last `:` is the port when the host part has no other `:`
 * (so `::1` is an address, not a port spec); a bad port is `bad port 'SPEC'`, a `[` without a
 * closing `]:`/`]` is `bad address 'ARG'` (both bb_error_msg, then xfunc_die: exit 1).
 */
export function busyboxServerArg(prog: string, arg: string, defaultPort = 53): BusyboxServerArg {
  let host = arg;
  let spec: string | undefined;
  if (arg.startsWith('[')) {
    const close = arg.indexOf(']');
    const after = close < 0 ? undefined : arg[close + 1];
    if (close < 0 || (after !== ':' && after !== undefined)) return { ok: false, error: `${prog}: bad address '${arg}'\n` };
    host = arg.slice(1, close);
    if (after === ':') spec = arg.slice(close + 2);
  } else {
    const last = arg.lastIndexOf(':');
    if (last >= 0 && arg.indexOf(':') === last) {
      host = arg.slice(0, last);
      spec = arg.slice(last + 1);
    }
  }
  if (spec === undefined) return { ok: true, host, port: defaultPort };
  // bb_strtou: decimal digits only, nothing after them, at most 0xffff here
  if (!/^\d+$/.test(spec) || Number(spec) > 0xffff) return { ok: false, error: `${prog}: bad port '${spec}'\n` };
  return { ok: true, host, port: Number(spec) };
}
