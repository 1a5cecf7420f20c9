import type { Command } from 'commander';

// Owned by the issue that builds `damlink perft`; replace this body with the real command.
export function registerPerft(program: Command): void {
  program
    .command('perft')
    .description('(not built yet)')
    .action(() => {
      console.error('damlink perft: not built yet');
      process.exitCode = 2;
    });
}
