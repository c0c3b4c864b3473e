/**
 * Whether two lists hold the very same items (`===`) in the same order: the check behind every
 * memo kept by the frozen objects or the strings a computation read (a sync's inputs, a
 * controller's watch list, a volume's sources).
 */
export function sameItems(a: readonly unknown[], b: readonly unknown[]): boolean {
  if (a === b) return true;
  if (a.length !== b.length) return false;
  for (let i = 0; i < a.length; i++) if (a[i] !== b[i]) return false;
  return true;
}
