/**
 * The cases of a shell recording made by src/shell/testdata/record-child-shells.sh: `$ CASE` (one
 * line; its newlines are written $'\n'), then the real shell's merged stdout and stderr and
 * `[exit N]`.
 */
export function recordedShellCases(text: string): Array<{ cmd: string; expected: string }> {
  const out: Array<{ cmd: string; expected: string }> = [];
  for (const block of text.split(/^\$ /m).slice(1)) {
    const nl = block.indexOf('\n');
    out.push({ cmd: block.slice(0, nl), expected: block.slice(nl + 1) });
  }
  return out;
}
