/**
 * kubectl's stdout and stderr in the order it writes them. A server's warnings are written by
 * client-go's warning handler the moment a response arrives (client-go rest/request.go
 * transformResponse → handleWarnings; kubectl installs a deduplicating WarningWriter on ErrOut in
 * pkg/cmd/cmd.go), so `Warning: …` comes before the `pod/x created` the printer writes after the
 * request returned; the errors of a `-f` run are aggregated and printed at the end (create.go,
 * apply.go, replace.go return the visitor's aggregate to CheckErr). On a terminal, or with `2>&1`,
 * the shell replays this order (ShellResult.chunks).
 */
import type { ShellResult } from '../commands/types.js';

type Chunk = { stream: 'stdout' | 'stderr'; text: string };

export class Streams {
  private readonly chunks: Chunk[] = [];

  out(text: string): void {
    if (text) this.chunks.push({ stream: 'stdout', text });
  }

  err(text: string): void {
    if (text) this.chunks.push({ stream: 'stderr', text });
  }

  /**
   * Write what is held so far now, through the shell's `emit` (ShellContext.emit), and let it go:
   * the real tool has written it before it waits, so a background job that wakes during the
   * wait prints after it. Without `emit` (a one-shot call) the text stays for the result.
   */
  flush(emit: ((stream: Chunk['stream'], text: string) => void) | undefined): void {
    if (!emit) return;
    for (const c of this.chunks.splice(0)) emit(c.stream, c.text);
  }

  get stdout(): string {
    return this.join('stdout');
  }

  get stderr(): string {
    return this.join('stderr');
  }

  result(exitCode: number): ShellResult {
    return { stdout: this.stdout, stderr: this.stderr, exitCode, chunks: [...this.chunks] };
  }

  private join(stream: Chunk['stream']): string {
    return this.chunks
      .filter((c) => c.stream === stream)
      .map((c) => c.text)
      .join('');
  }
}
