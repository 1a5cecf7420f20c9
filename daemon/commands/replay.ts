import type { Command } from 'commander';

// Owned by the issue that builds `damlink replay`; replace this body with the real command.
export function registerReplay(program: Command): void {
  program
    .command('replay')
    .description('(not built yet)')
    .action(() => {
      console.error('damlink replay: not built yet');
      process.exitCode = 2;
    });
}
