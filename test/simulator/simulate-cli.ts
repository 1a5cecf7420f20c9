// `damlink simulate` alone, for the CLI tests: the command as daemon/cli.ts wires it, without loading
// every other command (a broken neighbour must not fail the simulator's tests).
import { newProgram, runProgram } from '../../daemon/commands/program.ts';
import { registerSimulate } from '../../daemon/commands/simulate.ts';

const program = newProgram();
registerSimulate(program);
process.exitCode = await runProgram(program, process.argv.slice(2));
