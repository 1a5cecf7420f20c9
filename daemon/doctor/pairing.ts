// The configured pairing program, tried on a tournament of two players before the hall needs it:
// round 1, White to the top seed; it must answer with those two at one table.
import { DEFAULT_TIEBREAKS, DRAUGHTS_POINTS, type Event } from '../../src/tournament/index.ts';
import { formatLocated } from '../../src/result.ts';
import { pairRound } from '../tournament/pairing-program.ts';
import type { Finding } from './checks.ts';

const TWO_PLAYERS: Event = {
  name: 'damlink doctor',
  groups: [],
  players: [
    { start: 1, name: 'One, Player' },
    { start: 2, name: 'Two, Player' },
  ],
  rounds: [],
  plannedRounds: 1,
  firstColour: 'white',
  points: DRAUGHTS_POINTS,
  tiebreaks: DEFAULT_TIEBREAKS,
  advantageDraws: false,
};

export async function checkPairingProgram(command: string): Promise<Finding> {
  const check = `pairing program ${command}`;
  const advice =
    'docs/tournament.md says where to get bbpPairings and how to build it; or pair by hand (a CSV of pairings)';
  const r = await pairRound({ command, timeoutMs: 10_000 }, TWO_PLAYERS, 1);
  if (!r.ok) return { check, status: 'fail', detail: r.error.map(formatLocated).join('; '), advice };
  const [p] = r.value.pairings;
  if (r.value.pairings.length !== 1 || !p || new Set([p.white, p.black]).size !== 2)
    return { check, status: 'fail', detail: 'it did not pair two players at one table', advice };
  return { check, status: 'ok', detail: `pairs a two-player round (${p.white} ${p.black})` };
}
