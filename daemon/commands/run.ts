import type { Command } from 'commander';

// Owned by the issue that builds `damlink run`; replace this body with the real command.
export function registerRun(program: Command): void {
  program
    .command('run')
    .description('(not built yet)')
    .action(() => {
      console.error('damlink run: not built yet');
      process.exitCode = 2;
    });
}
