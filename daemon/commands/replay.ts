// `damlink replay --events FILE.jsonl [--fen START] [--variant …] [--occupancy-only]`: runs a sensor
// event file through the tracker and prints the reconstructed game as PDN, then one JSON line per
// alert `{"rule","ply","side","message","params"}` (`--json`: every game and alert as a JSON line).
// Bad lines are reported on stderr with their line number and skipped.
import { readFileSync } from 'node:fs';
import type { Command } from 'commander';
import { z } from 'zod';
import { type BoardEvent, PIECE_CODES } from '../../firmware-protocol/events.ts';
import { ClockWatch } from '../../src/clock/watch.ts';
import { parseTimeControl, type TimeControl } from '../../src/clock/time-control.ts';
import {
  colorOf,
  SIDES,
  type GameResult,
  parseFen,
  type Variant,
  writeFen,
  writePdnGame,
} from '../../src/engine/index.ts';
import { flagAlert, flagResult } from '../../src/game/flags.ts';
import { err, ok, type ParseError, type Result } from '../../src/result.ts';
import { createTracker } from '../../src/tracker/index.ts';
import type { Alert, TrackerOutput } from '../../src/tracker/types.ts';
import { variantOption, wholeNumber } from './options.ts';
import { SCAN_MS_MAX, SCAN_MS_MIN } from '../../firmware-protocol/events.ts';
import { usageError } from '../failure.ts';
import { progress } from './progress.ts';

const piece = z.enum(PIECE_CODES);
const side = z.enum(SIDES);
const t = z.number().finite();
const EventSchema = z.discriminatedUnion('type', [
  z.object({ t, type: z.literal('lift'), square: z.number().int() }),
  z.object({ t, type: z.literal('put'), square: z.number().int(), piece: piece.optional() }),
  z.object({ t, type: z.literal('snapshot'), board: z.string() }),
  z.object({
    t,
    type: z.literal('clock'),
    white: z.number(),
    black: z.number(),
    running: side.nullable(),
    flag: side.optional(),
  }),
  z.object({ t, type: z.literal('press'), side }),
  z.object({
    t,
    type: z.literal('hello'),
    serial: z.string(),
    protocol: z.string(),
    firmware: z.string().optional(),
    squares: z.union([z.literal(50), z.literal(32), z.literal(100), z.literal(64)]),
    senses: z.enum(['pieces', 'occupancy']),
    // A board that reports by scans says so: its changes are read as it sends them.
    scanMs: z.number().int().min(SCAN_MS_MIN).max(SCAN_MS_MAX).optional(),
  }),
  z.object({
    t,
    type: z.literal('fault'),
    code: z.string(),
    message: z.string(),
    offset: z.number().optional(),
    resync: z.boolean().optional(),
  }),
  z.object({ t, type: z.literal('tick'), steps: z.number().int().min(0).optional() }),
]);

/** One sensor event from one line of a `.jsonl` file. */
export function parseEventLine(text: string, line: number, file?: string): Result<BoardEvent> {
  let value: unknown;
  try {
    value = JSON.parse(text);
  } catch (e) {
    return err({ code: 'bad-json', message: `not JSON: ${(e as Error).message}`, line, file });
  }
  const parsed = EventSchema.safeParse(value);
  if (!parsed.success) {
    const issue = parsed.error.issues[0];
    const where = issue.path.length > 0 ? ` at "${issue.path.join('.')}"` : '';
    return err({ code: 'bad-event', message: `not a sensor event${where}: ${issue.message}`, line, file });
  }
  return ok(parsed.data as BoardEvent);
}

interface ReplayedGame {
  startFen: string;
  moves: string[];
  result: GameResult;
}

export interface Replay {
  games: ReplayedGame[];
  alerts: Alert[];
  errors: ParseError[];
}

/** Replays the text of an event file: every game the board showed, and every alert. */
export function replayEvents(
  text: string,
  opts: {
    variant: Variant;
    startFen?: string;
    occupancyOnly?: boolean;
    /** The board reported by scans of this period (ms), for files without its hello. */
    scanMs?: number;
    file?: string;
    /** The time control: damlink's own clock for boards without one, and which period is the last. */
    timeControl?: TimeControl;
    /** Write the result a fallen flag proposes (else the PDN keeps `*` for the arbiter). */
    autoResult?: boolean;
    /** Called after each line (progress of a long file). */
    onLine?: (done: number, lines: number) => void;
  },
): Result<Replay> {
  const start = opts.startFen ? parseFen(opts.startFen, { variant: opts.variant }) : undefined;
  if (start && !start.ok) return err({ ...start.error, message: `--fen: ${start.error.message}` });
  const tracker = createTracker({
    variant: opts.variant,
    start: start?.value,
    occupancyOnly: opts.occupancyOnly,
    scanMs: opts.scanMs,
  });
  let game: ReplayedGame = { startFen: writeFen(tracker.state.position), moves: [], result: '*' };
  const games = [game];
  const alerts: Alert[] = [];
  const errors: ParseError[] = [];
  const watch = new ClockWatch({ control: opts.timeControl });
  let lastPly = 0;
  const apply = (out: TrackerOutput) => {
    if (out.type === 'move') {
      // A 5.7 correction replays the move at its ply: what followed is replaced, not appended to.
      game.moves.splice(out.ply - 1, Infinity, out.pdn);
      lastPly = out.ply;
    } else if (out.type === 'takeback' || out.type === 'correction') {
      game.moves.length = out.ply;
      lastPly = out.ply;
    } else if (out.type === 'alert') alerts.push(out.alert);
    else if (out.type === 'result-gesture' && out.result) game.result = out.result;
    else if (out.type === 'new-game') {
      game = { startFen: out.fen, moves: [], result: '*' };
      games.push(game);
      lastPly = 0;
      watch.reset();
    }
  };
  // Fallen flags, from the clock readings (or damlink's own clock) against where the game stands.
  const watchClock = (event: BoardEvent) => {
    const turn = tracker.state.position.turn;
    const moves = { white: 0, black: 0 };
    for (const m of tracker.state.moves) moves[colorOf(m.piece)]++;
    for (const o of watch.push(event, { turn, nextPly: lastPly + 1, moves })) {
      if (o.type !== 'flag') continue;
      alerts.push(flagAlert(o.finding));
      const end = flagResult(o.finding);
      if (end && opts.autoResult && game.result === '*') game.result = end.result;
    }
  };
  let lastT = 0;
  const lines = text.split('\n');
  lines.forEach((raw, i) => {
    opts.onLine?.(i + 1, lines.length);
    if (raw.trim() === '') return;
    const parsed = parseEventLine(raw, i + 1, opts.file);
    if (!parsed.ok) {
      errors.push(parsed.error);
      return;
    }
    lastT = Math.max(lastT, parsed.value.t);
    tracker.push(parsed.value).forEach(apply);
    watchClock(parsed.value);
  });
  tracker.flush(lastT).forEach(apply);
  // A board set up again with nothing played yet is not a game.
  const played = games.filter((g, i) => i === 0 || g.moves.length > 0);
  return ok({ games: played, alerts, errors });
}

interface ReplayFlags {
  events: string;
  timeControl?: string;
  autoResult?: boolean;
  fen?: string;
  variant: Variant;
  occupancyOnly?: boolean;
  scanMs?: number;
  json?: boolean;
}

export function registerReplay(program: Command): void {
  program
    .command('replay')
    .description('reconstruct the game from a sensor event file: PDN, then one JSON line per alert')
    .requiredOption('--events <file>', 'sensor events, one JSON object per line (.jsonl)')
    .option('--fen <fen>', 'start position (default: the initial position)')
    .addOption(variantOption())
    .option('--occupancy-only', 'the board senses occupancy only: colours follow from the game')
    .option(
      '--scan-ms <ms>',
      "the board reported by scans of MS ms, in its scan order (a hello in the file says it too): a scan's changes have no order",
      wholeNumber('--scan-ms', SCAN_MS_MIN, SCAN_MS_MAX),
    )
    .option(
      '--time-control <tc>',
      'the time control, PDN TimeControl form in seconds (5400+30, 40/5400:1800+30): damlink clocks a board without a clock, and knows the last period',
    )
    .option(
      '--auto-result',
      'write the result a fallen flag proposes (default: the PDN keeps * for the arbiter)',
    )
    .option('--json', 'JSON lines: {"type":"game",…} per game, then {"type":"alert",…} per alert')
    .action((opts: ReplayFlags) => {
      let text: string;
      try {
        text = readFileSync(opts.events, 'utf8');
      } catch (e) {
        throw usageError(`cannot read ${opts.events}: ${(e as Error).message}`);
      }
      const lines = text.split('\n').length;
      const bar = progress('replay', lines);
      // Ticked every 1000 lines: a bar redraw per event would cost more than the replay.
      const onLine = (done: number) => {
        if (done % 1000 === 0) bar.tick(1000);
      };
      const control = opts.timeControl === undefined ? undefined : parseTimeControl(opts.timeControl);
      if (control && !control.ok)
        throw usageError(`--time-control: ${control.error.message} at column ${control.error.col}`);
      const replay = replayEvents(text, {
        ...opts,
        timeControl: control?.value,
        startFen: opts.fen,
        file: opts.events,
        onLine,
      });
      bar.stop();
      if (!replay.ok) throw usageError(replay.error.message);
      for (const e of replay.value.errors)
        console.error(`damlink: ${e.file}:${e.line}: ${e.message} (skipped)`);
      const alerts = replay.value.alerts.map((a) => ({
        rule: a.rule,
        ply: a.ply,
        side: a.side,
        message: a.message,
        params: a.params,
      }));
      const pdn = replay.value.games.map((g) =>
        writePdnGame({
          tags: {},
          startFen: g.startFen,
          variant: opts.variant,
          moves: g.moves.map((m) => ({ text: m })),
          result: g.result,
        }),
      );
      if (opts.json) {
        replay.value.games.forEach((g, i) => {
          console.log(JSON.stringify({ type: 'game', ...g, pdn: pdn[i] }));
        });
        for (const a of alerts) console.log(JSON.stringify({ type: 'alert', ...a }));
        return;
      }
      process.stdout.write(pdn.join('\n'));
      for (const a of alerts) console.log(JSON.stringify(a));
    });
}
