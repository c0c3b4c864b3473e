/**
 * The REPL's persistent command history (`<data>/history`), one line per entry like bash's
 * ~/.bash_history, capped to the last `max` lines. Multi-line entries (here-documents) are stored
 * on one line with their newlines escaped so the file stays line-oriented.
 */
import { appendFileSync, chmodSync, mkdirSync, readFileSync } from 'node:fs';
import { dirname } from 'node:path';

export function readHistory(path: string, max = 1000): string[] {
  try {
    return readFileSync(path, 'utf8')
      .split('\n')
      .filter((l) => l !== '')
      .map((l) => l.replace(/\\(.)/g, (_, c: string) => (c === 'n' ? '\n' : c)))
      .slice(-max);
  } catch {
    return [];
  }
}

export function appendHistory(path: string, line: string): void {
  if (line.trim() === '') return;
  mkdirSync(dirname(path), { recursive: true });
  // commands may hold secrets (tokens, passwords): private like the sessions (0600)
  appendFileSync(path, `${line.replace(/\\/g, '\\\\').replace(/\n/g, '\\n')}\n`, { mode: 0o600 });
  chmodSync(path, 0o600);
}
