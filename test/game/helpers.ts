// Builds tracker outputs from move texts by playing them with the engine, as the tracker would.
import { parseFen, play, Position, resolveMove, writeFen } from '../../src/engine/index.ts';
import type { Variant } from '../../src/engine/index.ts';
import type { RuleId, TrackerOutput } from '../../src/tracker/types.ts';

export interface Player {
  position: Position;
  ply: number;
  /** The move output of `text` (`32-28`, `19x28`), advancing the position. */
  move(text: string, t: number, irregular?: RuleId[]): TrackerOutput;
}

export function player(fen?: string, variant: Variant = 'international'): Player {
  const start = fen ? parseFen(fen, { variant }) : undefined;
  if (start && !start.ok) throw new Error(start.error.message);
  const p: Player = {
    position: start ? start.value : Position.initial(variant),
    ply: 0,
    move(text, t, irregular) {
      const m = resolveMove(p.position, text);
      if (!m.ok) throw new Error(`${text}: ${m.error.message}`);
      p.position = play(p.position, m.value);
      p.ply++;
      return {
        type: 'move',
        t,
        ply: p.ply,
        move: m.value,
        pdn: text,
        fenAfter: writeFen(p.position),
        ...(irregular ? { irregular } : {}),
      };
    },
  };
  return p;
}
