import type { Command } from 'commander';

// Owned by the issue that builds `damlink moves`; replace this body with the real command.
export function registerMoves(program: Command): void {
  program
    .command('moves')
    .description('(not built yet)')
    .action(() => {
      console.error('damlink moves: not built yet');
      process.exitCode = 2;
    });
}
