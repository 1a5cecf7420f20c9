import type { Command } from 'commander';

// Owned by the issue that builds `damlink simulate`; replace this body with the real command.
export function registerSimulate(program: Command): void {
  program
    .command('simulate')
    .description('(not built yet)')
    .action(() => {
      console.error('damlink simulate: not built yet');
      process.exitCode = 2;
    });
}
