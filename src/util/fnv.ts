/** FNV-1a 32-bit, the hash family controller.ComputeHash uses (and a cheap fingerprint of a string). */
export function fnv32a(s: string): number {
  let h = 0x811c9dc5;
  for (let i = 0; i < s.length; i++) h = Math.imul(h ^ s.charCodeAt(i), 0x01000193) >>> 0;
  return h >>> 0;
}
