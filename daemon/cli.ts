// The `damlink` command line. Each command lives in daemon/commands/<name>.ts and registers itself.
import { Command } from 'commander';
import { registerDecode } from './commands/decode.ts';
import { registerExport } from './commands/export.ts';
import { registerMoves } from './commands/moves.ts';
import { registerPdn } from './commands/pdn.ts';
import { registerPerft } from './commands/perft.ts';
import { registerPorts } from './commands/ports.ts';
import { registerReplay } from './commands/replay.ts';
import { registerRun } from './commands/run.ts';
import { registerSimulate } from './commands/simulate.ts';

const program = new Command();
program
  .name('damlink')
  .description('Connects electronic draughts boards to live broadcasts and arbiters.')
  .version('0.1.0')
  .showHelpAfterError();

for (const register of [
  registerRun,
  registerSimulate,
  registerReplay,
  registerDecode,
  registerExport,
  registerPerft,
  registerMoves,
  registerPdn,
  registerPorts,
]) {
  register(program);
}

await program.parseAsync(process.argv);
