// A long outage: the board drops off (radio link, hub, a daemon restart) while the players play on,
// and comes back with a greeting and a full dump. Pure, on a game's ground-truth events; board time
// as the daemon feeds it (daemon/board/time.ts): the outage is no board time, it counts as a short
// pause (RESUME_PAUSE_MS), and the events after it follow shifted by as much.
import type { BoardEvent } from '../firmware-protocol/events.ts';
import type { SimulatedGame } from './game.ts';

/** The daemon's stand-in for time nobody watched the board (daemon/board/time.ts RESUME_PAUSE_MS). */
export const RESUME_PAUSE_MS = 500;

/** The board as a dump at time `t` would show it: every change up to `t` applied. */
export function boardAt(events: readonly BoardEvent[], t: number): string {
  let cells: string[] = [];
  for (const e of events) {
    if (e.t > t) break;
    if (e.type === 'snapshot') cells = [...e.board];
    else if (e.type === 'lift') cells[e.square - 1] = '.';
    else if (e.type === 'put') cells[e.square - 1] = e.piece ?? 'o';
  }
  return cells.join('');
}

/** The game's events with those of (from, from + length] lost, then the board greets and dumps. */
export function withOutage(game: SimulatedGame, from: number, length: number): BoardEvent[] {
  const kept = game.events.filter((e) => e.t <= from);
  const resume = (kept.at(-1)?.t ?? 0) + RESUME_PAUSE_MS;
  const back = from + length;
  const shift = back - resume;
  return [
    ...kept,
    {
      t: resume,
      type: 'hello',
      serial: 'SIM',
      protocol: 'damlink-line/1.0',
      squares: game.variant === 'brazilian' ? 32 : 50,
      senses: game.occupancyOnly ? 'occupancy' : 'pieces',
    },
    { t: resume, type: 'snapshot', board: boardAt(game.events, back) },
    ...game.events.filter((e) => e.t > back).map((e) => ({ ...e, t: e.t - shift })),
  ];
}

/**
 * The board off from just after ply `afterPly` was pressed (0: before the first move) until just
 * after ply `afterPly + plies` was: those plies' events are lost. Undefined when the game is shorter.
 */
export function outageOverPlies(
  game: SimulatedGame,
  afterPly: number,
  plies: number,
): BoardEvent[] | undefined {
  const pressed = (ply: number) => (ply === 0 ? (game.moves[0]?.t ?? 0) - 1 : game.moves[ply - 1]?.t);
  const from = pressed(afterPly);
  const back = pressed(afterPly + plies);
  if (from === undefined || back === undefined) return undefined;
  // A moment after each press: the press itself belongs to its move.
  return withOutage(game, from + 1, back - from);
}
