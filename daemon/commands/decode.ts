import type { Command } from 'commander';

// Owned by the issue that builds `damlink decode`; replace this body with the real command.
export function registerDecode(program: Command): void {
  program
    .command('decode')
    .description('(not built yet)')
    .action(() => {
      console.error('damlink decode: not built yet');
      process.exitCode = 2;
    });
}
