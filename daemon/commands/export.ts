// `damlink export`: a round's games as PDN, or the raw board events as JSONL (dispute, bug report),
// rebuilt from the journal — works next to a running daemon. `--json`: the round as one JSON document
// of game snapshots (the API's shape); the events are JSON lines already.
import { tableGameOf } from '../../src/broadcast/index.ts';
import { writeFileSync } from 'node:fs';
import { resolve } from 'node:path';
import type { Command } from 'commander';
import { loadConfig } from '../config/index.ts';
import { playedWith, replayRound, replaySettings } from '../board/index.ts';
import type { ReplaySettings } from '../../src/game/board-game.ts';
import { Journal } from '../journal/index.ts';
import { gamesToPdn } from '../../src/game/index.ts';
import { createTracker } from '../../src/tracker/index.ts';
import { wholeNumber } from './options.ts';
import { usageError, workFailed } from '../failure.ts';
import { progress } from './progress.ts';
import { searchMemoOf } from '../board/search-memo.ts';

interface ExportFlags {
  round: number;
  board?: number;
  events?: boolean;
  dataDir?: string;
  config?: string;
  out?: string;
  json?: boolean;
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
    .option('--json', 'the games as one JSON document {round, games: [snapshot…]} (--events: JSON lines)')
    .action(exportRound);
}

function exportRound(flags: ExportFlags): void {
  const config = loadConfig({ file: flags.config, env: process.env, flags: { dataDir: flags.dataDir } });
  if (!config.ok) throw usageError(...config.error);
  const path = resolve(config.value.dataDir, 'journal.sqlite');
  let journal: Journal;
  try {
    journal = Journal.open(path, { readonly: true });
  } catch (e) {
    throw workFailed(`cannot open the journal ${path}: ${(e as Error).message}`);
  }
  try {
    const all = journal.boards(flags.round);
    const boards = flags.board === undefined ? all : all.filter((b) => b === flags.board);
    if (boards.length === 0) {
      throw workFailed(
        `nothing journaled for round ${flags.round}${flags.board ? `, board ${flags.board}` : ''}`,
      );
    }
    const cfg = config.value;
    // The round's own rules, as the daemon journaled them, win over today's config.
    const searchMemo = searchMemoOf(journal.searchRows());
    const settings = playedWith(
      journal,
      flags.round,
      replaySettings(cfg, (o) => createTracker({ ...o, searchMemo })),
    );
    const text = flags.events
      ? eventLines(journal, flags.round, boards, flags.board === undefined)
      : roundText(journal, flags, settings, boards);
    if (flags.out) writeFileSync(flags.out, text);
    else process.stdout.write(text);
  } finally {
    journal.close();
  }
}

/** The round's games as PDN, or as one JSON document with --json; replayed board by board for the progress bar. */
function roundText(journal: Journal, flags: ExportFlags, settings: ReplaySettings, boards: number[]): string {
  const bar = progress(`export round ${flags.round}`, boards.length);
  const games = [...boards]
    .sort((a, b) => a - b)
    .map((board) => {
      const [game] = replayRound(journal, flags.round, settings, [board]);
      bar.tick();
      return game.record.snapshot();
    });
  bar.stop();
  // The round's game of each board is its table's (kept aside when the pieces were set up again
  // for another game), not the one the board went on to play.
  return flags.json
    ? `${JSON.stringify({ round: flags.round, games })}\n`
    : gamesToPdn(games.map(tableGameOf));
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
