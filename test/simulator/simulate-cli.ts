// `damlink simulate` alone, for the CLI tests: the command as daemon/cli.ts wires it, without loading
// every other command (a broken neighbour must not fail the simulator's tests).
import { Command } from 'commander';
import { registerSimulate } from '../../daemon/commands/simulate.ts';

const program = new Command().name('damlink').showHelpAfterError();
registerSimulate(program);
await program.parseAsync(process.argv);
