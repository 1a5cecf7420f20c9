// How a command stops: exit 0 on success, 1 when the work failed (an illegal PDN, a board that
// never answered), 2 on bad usage or configuration. What the commands and the parts they start
// (a tournament file, a config) throw; the CLI (commands/program.ts) prints it.

export const EXIT = { ok: 0, failed: 1, usage: 2 } as const;
export type ExitCode = (typeof EXIT)[keyof typeof EXIT];

/** Thrown by a command to stop with this exit code; each line goes to stderr as `damlink: <line>`. */
export class CommandFailure extends Error {
  constructor(
    readonly exitCode: ExitCode,
    readonly lines: readonly string[],
  ) {
    super(lines.join('; '));
  }
}

/** Bad usage or configuration (exit 2). */
export const usageError = (...lines: string[]): CommandFailure => new CommandFailure(EXIT.usage, lines);
/** The work itself failed (exit 1). */
export const workFailed = (...lines: string[]): CommandFailure => new CommandFailure(EXIT.failed, lines);
