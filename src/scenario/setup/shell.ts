/** Running shell lines on a session for setup steps and checks: `ssh` to a host first when asked. */
import type { Session } from '../../shell/session.js';

export class SetupError extends Error {}

export interface LineResult {
  transcript: string[];
  stdout: string;
  stderr: string;
  exitCode: number;
}

/**
 * Run `line` on the workstation or, after `ssh host`, on a host, and come back. Used by setup
 * (where a failing line is an authoring error) with `check` true. `comeBack` false stays on the
 * host: for a session thrown away after the line (a grader's copy), where the `exit` would change
 * nothing anyone reads.
 */
export async function runLine(session: Session, line: string, host?: string, check = true, comeBack = true): Promise<LineResult> {
  const ws = session.cluster.meta.workstation;
  const transcript: string[] = [];
  const remote = host !== undefined && host !== ws;
  if (remote) {
    const r = await session.exec(`ssh ${host}`);
    transcript.push(`$ ssh ${host}`);
    if (r.exitCode !== 0) {
      if (check) throw new SetupError(`ssh ${host}: ${r.stderr.trim()}`);
      return { transcript, stdout: r.stdout, stderr: r.stderr, exitCode: r.exitCode };
    }
  }
  const r = await session.exec(line);
  transcript.push(`$ ${line}`);
  if (remote && comeBack) await session.exec('exit');
  if (check && r.exitCode !== 0) throw new SetupError(`\`${line}\`${remote ? ` on ${host}` : ''} exited ${r.exitCode}: ${(r.stderr || r.stdout).trim()}`);
  return { transcript, stdout: r.stdout, stderr: r.stderr, exitCode: r.exitCode };
}
