// `damlink export`: a round's games as PDN, or the raw board events as JSONL (dispute, bug report),
// rebuilt from the journal — works next to a running daemon.
import { wholeNumber } from './options.ts';
import { writeFileSync } from 'node:fs';
import { resolve } from 'node:path';
import type { Command } from 'commander';
import { loadConfig } from '../config/index.ts';
import { playedWith, replayRound, replaySettings } from '../board/index.ts';
import { Journal } from '../journal/index.ts';
import { gamesToPdn } from '../../src/game/index.ts';
import { createTracker } from '../../src/tracker/index.ts';

interface ExportFlags {
  round: number;
  board?: number;
  events?: boolean;
  dataDir?: string;
  config?: string;
  out?: string;
}

export function registerExport(program: Command): void {
  program
    .command('export')
    .description(
      'Write a round from the journal: all games as PDN, or the raw board events as JSONL (--events).',
    )
    .requiredOption('-r, --round <n>', 'round number', wholeNumber('--round', 1))
    .option('-b, --board <n>', 'only this board', wholeNumber('--board', 1))
    .option('--events', 'the sensor events (one JSON object a line) instead of PDN')
    .option('-d, --data-dir <dir>', 'where the journal is (default: the config, else ./data)')
    .option('-c, --config <file>', 'config file (variant and draw rules of the round)')
    .option('-o, --out <file>', 'write to this file instead of stdout')
    .action((flags: ExportFlags) => {
      process.exitCode = exportRound(flags);
    });
}

function exportRound(flags: ExportFlags): number {
  const config = loadConfig({ file: flags.config, env: process.env, flags: { dataDir: flags.dataDir } });
  if (!config.ok) {
    console.error(`damlink export: invalid configuration\n${config.error.map((m) => `  ${m}`).join('\n')}`);
    return 2;
  }
  const path = resolve(config.value.dataDir, 'journal.sqlite');
  let journal: Journal;
  try {
    journal = Journal.open(path, { readonly: true });
  } catch (e) {
    console.error(`damlink export: cannot open the journal ${path}: ${(e as Error).message}`);
    return 1;
  }
  try {
    const all = journal.boards(flags.round);
    const boards = flags.board === undefined ? all : all.filter((b) => b === flags.board);
    if (boards.length === 0) {
      console.error(
        `damlink export: nothing journaled for round ${flags.round}${flags.board ? `, board ${flags.board}` : ''}`,
      );
      return 1;
    }
    const cfg = config.value;
    // The round's own rules, as the daemon journaled them, win over today's config.
    const settings = playedWith(journal, flags.round, replaySettings(cfg, createTracker));
    const text = flags.events
      ? eventLines(journal, flags.round, boards, flags.board === undefined)
      : gamesToPdn(replayRound(journal, flags.round, settings, boards).map((g) => g.record.snapshot()));
    if (flags.out) writeFileSync(flags.out, text);
    else process.stdout.write(text);
    return 0;
  } finally {
    journal.close();
  }
}

/** The sensor-event file contract (docs/design.md); `board` is added when several boards are mixed. */
function eventLines(journal: Journal, round: number, boards: number[], withBoard: boolean): string {
  const perBoard = new Map(boards.map((b) => [b, [] as string[]]));
  journal.forEachRoundInput(round, (board, input) => {
    if (input.kind !== 'event') return;
    perBoard.get(board)?.push(JSON.stringify(withBoard ? { board, ...input.event } : input.event));
  });
  const lines = [...perBoard.values()].flat();
  return lines.length ? `${lines.join('\n')}\n` : '';
}
