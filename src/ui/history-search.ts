/**
 * Ctrl-R, reverse incremental history search, as GNU readline does it in bash (readline's
 * isearch.c: rl_reverse_search_history / _rl_isearch_dispatch). The search is a small state
 * machine over the history (newest first, as node:readline keeps it); input.ts feeds it keys and
 * draws what it returns.
 *
 * What bash does and this follows:
 * - the prompt becomes "(reverse-i-search)`QUERY': " and the line shows the newest entry that
 *   contains QUERY, the cursor on the match; no match keeps the last one shown and says
 *   "(failed reverse-i-search)";
 * - typing extends QUERY and searches again from the entry shown; Ctrl-R again goes to the next
 *   older match (on an empty QUERY it reuses the last search's, `_rl_isearch_dispatch`'s
 *   "last isearch string"); Backspace shortens QUERY and looks again from the entry shown;
 * - Enter runs the line shown; Ctrl-G gives up and restores the line as it was; Ctrl-C gives up
 *   and cancels the line; Esc keeps the line shown for editing; any other editing or movement
 *   key keeps it and then acts on it (isearch's "other" characters).
 */

export interface SearchState {
  query: string;
  /** The history entry shown (index into the newest-first history), or -1 for the original line. */
  index: number;
  failed: boolean;
  /** The line and cursor before Ctrl-R, for Ctrl-G. */
  original: { line: string; cursor: number };
}

/** What a key does to the search: go on (redraw), or end it with the line to leave in the editor. */
export type SearchStep =
  | { kind: 'continue'; state: SearchState }
  /** End the search, leave `line`; `forward` also hands the key on to the line editor (Enter runs the line). */
  | { kind: 'exit'; line: string; cursor: number; forward: boolean };

export interface Key {
  sequence?: string;
  name?: string;
  ctrl?: boolean;
  meta?: boolean;
}

/** The newest entry at or after `from` (newest first) that contains `query`, or -1. */
export function searchBack(history: readonly string[], query: string, from: number): number {
  for (let i = Math.max(0, from); i < history.length; i++) if (history[i]!.includes(query)) return i;
  return -1;
}

export function startSearch(line: string, cursor: number): SearchState {
  return { query: '', index: -1, failed: false, original: { line, cursor } };
}

/** The line the search shows now. */
export function shownLine(s: SearchState, history: readonly string[]): string {
  return s.index >= 0 ? history[s.index]! : s.original.line;
}

/** The prompt bash shows while searching. */
export function searchPrompt(s: SearchState): string {
  return `(${s.failed ? 'failed ' : ''}reverse-i-search)\`${s.query}': `;
}

/** The cursor bash leaves on the line shown: at the start of the match. */
export function shownCursor(s: SearchState, history: readonly string[]): number {
  const line = shownLine(s, history);
  if (s.index < 0) return s.query === '' ? s.original.cursor : line.length;
  const at = line.indexOf(s.query);
  return at < 0 ? line.length : at;
}

/** Look for `query` from entry `from` on; a miss keeps the entry shown and marks the search failed. */
function lookFor(s: SearchState, history: readonly string[], query: string, from: number): SearchState {
  if (query === '') return { ...s, query, failed: false };
  const i = searchBack(history, query, from);
  return i < 0 ? { ...s, query, failed: true } : { ...s, query, index: i, failed: false };
}

/** One key while searching. `lastQuery` is the previous search's string (Ctrl-R Ctrl-R). */
export function searchKey(s: SearchState, key: Key, history: readonly string[], lastQuery: string): SearchStep {
  const exit = (forward: boolean): SearchStep => ({ kind: 'exit', line: shownLine(s, history), cursor: shownCursor(s, history), forward });
  if (key.ctrl && key.name === 'r') {
    if (s.query === '') return { kind: 'continue', state: lookFor(s, history, lastQuery, s.index + 1) };
    return { kind: 'continue', state: lookFor(s, history, s.query, s.index + 1) };
  }
  if (key.ctrl && key.name === 'g') return { kind: 'exit', line: s.original.line, cursor: s.original.cursor, forward: false };
  if (key.ctrl && key.name === 'c') return { kind: 'exit', line: shownLine(s, history), cursor: shownCursor(s, history), forward: true };
  if (key.name === 'return' || key.name === 'enter') return exit(true);
  if (key.name === 'escape') return exit(false);
  if (key.name === 'backspace' && !key.ctrl && !key.meta) {
    // the shorter string is looked for again from the entry shown, which still contains it
    const query = s.query.slice(0, -1);
    return { kind: 'continue', state: lookFor(s, history, query, Math.max(0, s.index)) };
  }
  const ch = key.sequence ?? '';
  const printable = !key.ctrl && !key.meta && ch.length === 1 && ch >= ' ' && ch !== '\x7f';
  if (printable) return { kind: 'continue', state: lookFor(s, history, s.query + ch, Math.max(0, s.index)) };
  // any other key ends the search on the line shown and then does what it does there
  return exit(true);
}
