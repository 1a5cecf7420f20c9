// A fallen flag in the game's words: the alert the arbiter sees and the result it proposes (the
// player who exceeds the time loses; both flags down in the last period is a draw).
import type { Side } from '../../firmware-protocol/side.ts';
import type { FlagFinding } from '../clock/watch.ts';
import { alertMessage, alertParams } from '../tracker/messages.ts';
import type { Alert } from '../tracker/types.ts';
import { lossFor } from './actions.ts';
import type { GameEnd } from './end.ts';

/** `flag` names the side whose flag fell; `flags` names none (both fell, no telling which first). */
export function flagAlert(f: FlagFinding): Alert {
  const detail =
    f.rule === 'flag'
      ? `The player who exceeds the time loses: ${lossFor(f.side)} once the arbiter confirms.`
      : f.lastPeriod
        ? 'Nobody can tell which fell first, in the last period: a draw once the arbiter confirms.'
        : 'Not the last period: the game goes on.';
  const side = f.rule === 'flag' ? { side: f.side } : {};
  return {
    id: `${f.ply}-${f.rule}-1`,
    rule: f.rule,
    ply: f.ply,
    ...side,
    message: alertMessage(f.rule, { ...side, detail }),
    params: alertParams(side),
    t: f.t,
    events: [],
  };
}

/**
 * The result the flag proposes, if any. G.5: a draw claim postponed (by `postponed`'s side) is
 * decided after a flag: the proposal says it waits.
 */
export function flagResult(f: FlagFinding, postponed?: Side): GameEnd | undefined {
  const name = (side: Side) => (side === 'white' ? 'White' : 'Black');
  const note = postponed ? ` (G.5: ${name(postponed)}'s draw claim is postponed: decide it now)` : '';
  if (f.rule === 'flag')
    return { result: lossFor(f.side), reason: `flag: ${name(f.side)} exceeded the time${note}` };
  return f.lastPeriod
    ? { result: '1-1', reason: `flags: both flags fell in the last period${note}` }
    : undefined;
}
