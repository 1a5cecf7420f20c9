// The manners every command shares: exit 0 on success, 1 when the work failed (an illegal PDN, a
// board that never answered), 2 on bad usage or configuration — commander's own errors included —
// and every error as one `damlink: …` line on stderr, never a stack trace.
import { Command, CommanderError } from 'commander';
import { CommandFailure, EXIT, type ExitCode } from '../failure.ts';

const say = (line: string): void => console.error(`damlink: ${line}`);

/** Commander's `error: …` text (sometimes with a "Did you mean" line) as one line. */
const oneLine = (text: string): string =>
  text
    .replace(/^error:\s*/i, '')
    .replace(/\s*\n\s*/g, ' ')
    .trim();

/**
 * The root command, set up before any command is registered: subcommands copy these settings
 * when they are created.
 */
export function newProgram(): Command {
  return new Command()
    .name('damlink')
    .exitOverride()
    .configureOutput({ outputError: (text) => say(`${oneLine(text)} (see --help)`) });
}

/** Parses `args` (without node and script) and runs the command; resolves to the exit code. */
export async function runProgram(program: Command, args: readonly string[]): Promise<ExitCode> {
  try {
    await program.parseAsync([...args], { from: 'user' });
    return EXIT.ok;
  } catch (e) {
    // --help and --version stop through exitOverride too, with code 0.
    if (e instanceof CommanderError) return e.exitCode === 0 ? EXIT.ok : EXIT.usage;
    if (e instanceof CommandFailure) {
      for (const line of e.lines) say(line);
      return e.exitCode;
    }
    say(e instanceof Error ? e.message : String(e));
    return EXIT.failed;
  }
}
