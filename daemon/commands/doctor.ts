// `damlink doctor`: is this machine ready for the hall? Serial and HID access, stable device names,
// every configured board answering, its clock, the data directory, the port — a line of advice per
// problem. Exit 1 when something fails (warnings alone: 0).
import type { Command } from 'commander';
import { loadProfiles } from '../calibration/profiles.ts';
import { type LoadedConfig, loadConfig } from '../config/index.ts';
import {
  checkDataDir,
  checkHidAccess,
  checkPort,
  checkSerialDevice,
  checkSerialSetup,
  type Finding,
  warn,
} from '../doctor/checks.ts';
import { checkPairingProgram } from '../doctor/pairing.ts';
import { probeBoard } from '../doctor/probe.ts';
import { wholeNumber } from './options.ts';
import { usageError, workFailed } from '../failure.ts';

interface DoctorFlags {
  config?: string;
  board: string[];
  dataDir?: string;
  host?: string;
  port?: number;
  answerMs: number;
  json?: boolean;
  pairingProgram?: string;
}

async function diagnose(config: LoadedConfig, answerMs: number): Promise<Finding[]> {
  const findings: Finding[] = [checkDataDir(config.dataDir), await checkPort(config.host, config.port)];
  for (const problem of loadProfiles(config.dataDir).problems)
    findings.push(warn('board profiles', problem, 'calibrate the board again: damlink calibrate --board …'));
  const serial = config.setups.filter((s) => s.source.kind === 'serial');
  if (serial.length > 0) findings.push(...checkSerialSetup());
  if (config.setups.some((s) => s.source.kind === 'hid')) findings.push(checkHidAccess());
  if (config.setups.length === 0)
    findings.push(warn('boards', 'none configured', 'give --board SOURCE or a config with boards:'));
  const program = config.tournament.pairingProgram;
  if (program !== undefined) findings.push(await checkPairingProgram(program));
  // One board after the other: a hall's boards share nothing, but a person reads the lines in order.
  for (const setup of config.setups) {
    const device = setup.source.kind === 'serial' ? checkSerialDevice(setup.source.path) : [];
    findings.push(...device);
    if (device.some((f) => f.status === 'fail')) continue;
    findings.push(...(await probeBoard(setup, answerMs)));
  }
  return findings;
}

const MARK = { ok: 'ok  ', warn: 'warn', fail: 'FAIL' } as const;

async function doctor(flags: DoctorFlags): Promise<void> {
  const loaded = loadConfig({
    file: flags.config,
    env: process.env,
    flags: {
      boards: flags.board,
      dataDir: flags.dataDir,
      host: flags.host,
      port: flags.port,
      pairingProgram: flags.pairingProgram,
    },
  });
  if (!loaded.ok) throw usageError(...loaded.error);
  const findings = await diagnose(loaded.value, flags.answerMs);
  if (flags.json) for (const f of findings) console.log(JSON.stringify(f));
  else
    for (const f of findings) {
      console.log(`${MARK[f.status]}  ${f.check}: ${f.detail}`);
      if (f.advice) console.log(`      → ${f.advice}`);
    }
  const failed = findings.filter((f) => f.status === 'fail').length;
  if (failed > 0) throw workFailed(`${failed} problem${failed === 1 ? '' : 's'} to fix before the round`);
}

export function registerDoctor(program: Command): void {
  program
    .command('doctor')
    .description(
      'Check the set-up: device access, board names, every board answering, its clock, data dir, port, the pairing program',
    )
    .option('-c, --config <file>', 'config file (YAML or JSON); DAMLINK_CONFIG also works')
    .option(
      '-b, --board <source>',
      'a board to check (repeat); default: the config’s boards',
      (v: string, all: string[]) => [...all, v],
      [] as string[],
    )
    .option('-d, --data-dir <dir>', 'data directory (default: the config, else ./data)')
    .option('--host <host>', 'address the daemon will serve on')
    .option('-p, --port <n>', 'port the daemon will serve on', wholeNumber('--port', 0, 65535))
    .option('--answer-ms <ms>', 'how long each board has to answer', wholeNumber('--answer-ms', 100), 3000)
    .option(
      '--pairing-program <command>',
      'a pairing program to try (default: the config’s tournament.pairingProgram)',
    )
    .option('--json', 'one JSON line per finding: {"check","status":"ok"|"warn"|"fail","detail","advice"}')
    .action(doctor);
}
