/**
 * Which of go-yaml's (v2, as sigs.k8s.io/yaml uses it) block-structure errors a badly indented
 * document gets, and on which line (go-yaml prints the problem mark's 0-based line: the line
 * before the offending one, counted from 1). Walks the block indentation as go-yaml's scanner does
 * (unroll_indent pops every block deeper than the token's column; roll_indent opens one) and asks
 * what the parser expects there (parserc.go yaml_parser_parse_block_mapping_key: "did not find
 * expected key"; yaml_parser_parse_block_sequence_entry: "did not find expected '-' indicator").
 * Only block mappings and sequences of plain keys are followed; flow collections, block scalars
 * and quoted multi-line keys end the walk with no answer (the caller keeps its own wording).
 */
export interface GoYamlIndentError {
  line: number;
  problem: string;
}

interface Block {
  col: number;
  seq: boolean;
  /** A sequence at the column of its parent mapping's keys (`key:\n- a`). */
  indentless: boolean;
}

const KEY = /^(?:[^\s#'"{[\]},&*!|>%@`-][^:#]*|-[^\s:#][^:#]*)\s*:(?:\s|$)/;

/**
 * What the parser wanted where a dedented line stopped: an indented block sequence its next `-`
 * (yaml_parser_parse_block_sequence_entry); an indentless one ends without error at any other
 * token (yaml_parser_parse_indentless_sequence_entry), leaving its mapping to want a key, as a
 * mapping does (kubectl v1.35.2: `  - name: c` then `   image: nginx` under `  containers:` is
 * `did not find expected key`).
 */
const expected = (top: Block): string => (top.seq && !top.indentless ? "did not find expected '-' indicator" : 'did not find expected key');

export function goYamlIndentError(text: string): GoYamlIndentError | undefined {
  const lines = text.split('\n');
  const stack: Block[] = [];
  let openValue = false; // the previous line ended with `key:` or `-` (a value may follow, deeper)
  for (let i = 0; i < lines.length; i++) {
    const raw = lines[i]!;
    const body = raw.trimStart();
    if (body === '' || body.startsWith('#') || body === '---' || body.startsWith('--- ')) continue;
    if (/^[|>]|:\s*[|>][-+0-9]*\s*(?:#.*)?$|^[{[]|:\s*[{[]/.test(body)) return undefined;
    let col = raw.length - body.length;
    let rest = body;
    const wasOpen = openValue;
    // the leading `- ` entries of this line, then an optional key
    const entries: number[] = [];
    while (/^-(?:\s|$)/.test(rest)) {
      entries.push(col);
      const after = rest.slice(1);
      const pad = after.length - after.trimStart().length;
      col += 1 + pad;
      rest = after.trimStart();
    }
    const isKey = KEY.test(rest);
    const first = entries.length > 0 ? entries[0]! : col;
    const dedent = stack.length > 0 && stack[stack.length - 1]!.col > first;
    while (stack.length > 0 && stack[stack.length - 1]!.col > first) stack.pop();
    let top = stack[stack.length - 1];
    if (entries.length > 0) {
      if (top && top.col === first && !top.seq) {
        if (!wasOpen) return { line: i, problem: 'did not find expected key' };
        stack.push({ col: first, seq: true, indentless: true });
      } else if (!top || top.col < first) {
        if (dedent && top) return { line: i, problem: expected(top) };
        stack.push({ col: first, seq: true, indentless: false });
      }
      for (const c of entries.slice(1)) stack.push({ col: c, seq: true, indentless: false });
      if (isKey) stack.push({ col, seq: false, indentless: false });
    } else if (isKey) {
      if (top && top.col === first && top.seq) {
        if (!top.indentless) return { line: i, problem: "did not find expected '-' indicator" };
        stack.pop();
        top = stack[stack.length - 1];
      }
      if (top && top.col < first) {
        if (dedent) return { line: i, problem: expected(top) };
        if (!wasOpen) return undefined;
        stack.push({ col: first, seq: false, indentless: false });
      } else if (!top) stack.push({ col: first, seq: false, indentless: false });
    } else {
      // a plain scalar line: a continuation or a bare value; nothing this walk can judge
      openValue = false;
      continue;
    }
    openValue = rest === '' || /:\s*(?:#.*)?$/.test(rest);
  }
  return undefined;
}
