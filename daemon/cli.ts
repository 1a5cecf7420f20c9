// The `damlink` command line. Each command lives in daemon/commands/<name>.ts and registers itself;
// daemon/commands/program.ts holds the manners they share (exit codes, one-line errors).
import type { Command } from 'commander';
import { registerCalibrate } from './commands/calibrate.ts';
import { registerCapture } from './commands/capture.ts';
import { registerConfig } from './commands/config.ts';
import { registerDecode } from './commands/decode.ts';
import { registerDoctor } from './commands/doctor.ts';
import { registerExport } from './commands/export.ts';
import { registerGateway } from './commands/gateway.ts';
import { registerMoves } from './commands/moves.ts';
import { registerPdn } from './commands/pdn.ts';
import { registerPerft } from './commands/perft.ts';
import { registerPorts } from './commands/ports.ts';
import { newProgram, runProgram } from './commands/program.ts';
import { registerReplay } from './commands/replay.ts';
import { registerRun } from './commands/run.ts';
import { registerSimulate } from './commands/simulate.ts';
import { registerStandings } from './commands/standings.ts';
import { registerToken } from './commands/token.ts';

const COMMANDS: ((program: Command) => void)[] = [
  registerRun,
  registerSimulate,
  registerGateway,
  registerReplay,
  registerDecode,
  registerExport,
  registerPerft,
  registerMoves,
  registerPdn,
  registerPorts,
  registerCalibrate,
  registerCapture,
  registerDoctor,
  registerConfig,
  registerStandings,
  registerToken,
];

// `damlink export --events | head -1`: the reader has gone, so stop quietly.
process.stdout.on('error', (e: NodeJS.ErrnoException) => {
  if (e.code === 'EPIPE') process.exit(0);
  throw e;
});

const program = newProgram()
  .description('Connects electronic draughts boards to live broadcasts and arbiters.')
  .version('0.1.0');
for (const register of COMMANDS) register(program);

process.exitCode = await runProgram(program, process.argv.slice(2));
