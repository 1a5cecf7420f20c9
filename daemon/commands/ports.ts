import type { Command } from 'commander';

// Owned by the issue that builds `damlink ports`; replace this body with the real command.
export function registerPorts(program: Command): void {
  program
    .command('ports')
    .description('(not built yet)')
    .action(() => {
      console.error('damlink ports: not built yet');
      process.exitCode = 2;
    });
}
