import type { Command } from 'commander';

// Owned by the issue that builds `damlink pdn`; replace this body with the real command.
export function registerPdn(program: Command): void {
  program
    .command('pdn')
    .description('(not built yet)')
    .action(() => {
      console.error('damlink pdn: not built yet');
      process.exitCode = 2;
    });
}
