/**
 * Shared plumbing of the commands that open a shell session: the data directory, the session
 * store, the editor hook, and the choice between a terminal (readline) and plain stdin lines.
 */
import { join } from 'node:path';
import { dataDir } from '../app/paths.js';
import { SessionStore } from '../app/sessions.js';
import { makeEditor } from '../app/editor.js';
import { readHistory } from '../app/history-file.js';
import type { Session } from '../shell/session.js';
import { StreamLines, TtyLines, type LineSource } from '../ui/input.js';
import { complete } from '../ui/complete.js';
import type { CliIo } from './io.js';
import type { Editor } from '../shell/session.js';

export interface Env {
  io: CliIo;
  data: string;
  sessions: SessionStore;
  historyPath: string;
}

export function envOf(io: CliIo): Env {
  const data = dataDir(io.env);
  return { io, data, sessions: new SessionStore(data, io.realNow), historyPath: join(data, 'history') };
}

/**
 * The editor. Without a terminal only an explicitly configured $VISUAL/$EDITOR is used (a script
 * may set EDITOR to a non-interactive command); a default `vi` would wait on a terminal forever.
 */
export function editorFor(env: Env, lines: () => LineSource | undefined): Editor | undefined {
  if (!env.io.isTTY && !env.io.env['VISUAL'] && !env.io.env['EDITOR']) return undefined;
  return makeEditor(env.io.env, { suspend: () => lines()?.suspend(), resume: () => lines()?.resume() });
}

export function lineSource(env: Env, session: () => Session, metaCommands: readonly string[] = []): LineSource {
  if (!env.io.isTTY) return new StreamLines(env.io.stdin);
  return new TtyLines(env.io.stdin, env.io.stdout, {
    completer: (line) => complete(session(), line, metaCommands),
    history: readHistory(env.historyPath),
  });
}
