/**
 * Stable per-host identifiers: systemd's /etc/machine-id shape (32 hex digits), dashed as a UUID
 * for boot IDs and system UUIDs. The Node object (nodeInfo), hostnamectl and the fixture builder
 * derive them from the same seeds, so they agree.
 */
export function machineId(seed: string, uuid: boolean): string {
  let hex = '';
  for (let k = 0; hex.length < 32; k++) {
    let h = 0x811c9dc5 ^ k;
    for (const ch of seed) h = Math.imul(h ^ ch.charCodeAt(0), 0x01000193) >>> 0;
    hex += h.toString(16).padStart(8, '0');
  }
  hex = hex.slice(0, 32);
  return uuid ? `${hex.slice(0, 8)}-${hex.slice(8, 12)}-${hex.slice(12, 16)}-${hex.slice(16, 20)}-${hex.slice(20)}` : hex;
}

/** The seed of a host's current boot ID: a new one after each reboot, as the kernel draws one per boot. */
export function bootIdSeed(name: string, reboots: number | undefined): string {
  return reboots ? `${name}/boot/${reboots}` : `${name}/boot`;
}
