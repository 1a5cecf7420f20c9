import type { Command } from 'commander';

// Owned by the issue that builds `damlink export`; replace this body with the real command.
export function registerExport(program: Command): void {
  program
    .command('export')
    .description('(not built yet)')
    .action(() => {
      console.error('damlink export: not built yet');
      process.exitCode = 2;
    });
}
