// The TRF lines around the players that an event needs: rounds (`142`, `XXR`), first colour
// (`152`, `XXC`), the point system (`162`, `BBW`/`BBD`/`BBL`/`BBZ`/`BBF`/`BBU`) and the draws with
// advantage damlink keeps in `###` comment lines (TRF has no code for them).
import type { Side, PointSystem, TournamentError } from '../types.ts';
import type { TrfOtherLine } from './document.ts';

export interface AdvantageNote {
  round: number;
  plus: number;
  minus: number;
  line: number;
}

export interface TrfHeader {
  texts: Partial<
    Record<'name' | 'city' | 'federation' | 'startDate' | 'endDate' | 'chiefArbiter' | 'timeControl', string>
  >;
  plannedRounds?: number;
  firstColour?: Side;
  /** Only the codes the file gives. */
  points: Partial<PointSystem>;
  advantages: AdvantageNote[];
}

const TEXT_CODES = {
  '012': 'name',
  '022': 'city',
  '032': 'federation',
  '042': 'startDate',
  '052': 'endDate',
  '102': 'chiefArbiter',
  '122': 'timeControl',
  '222': 'timeControl',
} as const;

/** `162` codes and the `BB?` lines: which point of the system each sets. */
const POINT_CODES: Record<string, (keyof PointSystem)[]> = {
  W: ['win'],
  D: ['draw'],
  L: ['loss'],
  A: ['forfeitLoss'],
  P: ['pairingBye'],
};
const BB_CODES: Record<string, (keyof PointSystem)[]> = {
  BBW: ['win'],
  BBD: ['draw'],
  BBL: ['loss'],
  BBZ: ['forfeitLoss'],
  BBF: ['forfeitLoss'],
  BBU: ['pairingBye'],
};

export const ADVANTAGE_NOTE = /^###\s+advantage\s+round\s+(\d+):\s+(\d+)\s+1\+\s+(\d+)\s+1-\s*$/;

export const advantageNote = (round: number, plus: number, minus: number): string =>
  `### advantage round ${round}: ${plus} 1+ ${minus} 1-`;

const isPoints = (s: string): boolean => /^\d+(\.\d+)?$/.test(s);

export function readHeader(
  lines: readonly TrfOtherLine[],
  file: string | undefined,
  errors: TournamentError[],
): TrfHeader {
  const header: TrfHeader = { texts: {}, points: {}, advantages: [] };
  const set = (keys: readonly (keyof PointSystem)[], v: number) => {
    for (const k of keys) header.points[k] = v;
  };
  for (const l of lines) {
    const rest = l.text.slice(3).trim();
    const fail = (message: string, col = 5) =>
      errors.push({ code: 'trf-bad-header', message: `${l.code}: ${message}`, file, line: l.line, col });
    const text = TEXT_CODES[l.code as keyof typeof TEXT_CODES];
    if (text) {
      if (rest !== '') header.texts[text] = rest;
    } else if (l.code === '142' || l.code === 'XXR') {
      if (/^\d+$/.test(rest) && Number(rest) > 0) header.plannedRounds = Number(rest);
      else fail(`rounds "${rest}" is not a number from 1`);
    } else if (l.code === '152') {
      if (rest === 'W' || rest === 'B') header.firstColour = rest === 'W' ? 'white' : 'black';
      else fail(`first colour "${rest}" is neither W nor B`);
    } else if (l.code === 'XXC') {
      const words = rest.split(/\s+/);
      if (words.includes('white1')) header.firstColour = 'white';
      if (words.includes('black1')) header.firstColour = 'black';
    } else if (l.code === '162') {
      // A code in column 6, its points in 7–10, the next pair 9 columns on.
      for (let col = 6; col <= l.text.length; col += 9) {
        const code = l.text[col - 1];
        const value = l.text.slice(col, col + 4).trim();
        if (!POINT_CODES[code] || !isPoints(value)) {
          fail(`"${l.text.slice(col - 1, col + 4)}" is not a code (W D L A P) and its points`, col);
          break;
        }
        set(POINT_CODES[code], Number(value));
      }
    } else if (BB_CODES[l.code]) {
      if (isPoints(rest)) set(BB_CODES[l.code], Number(rest));
      else fail(`points "${rest}" are not a number`);
    } else if (l.code === '###') {
      const m = ADVANTAGE_NOTE.exec(l.text);
      if (m)
        header.advantages.push({
          round: Number(m[1]),
          plus: Number(m[2]),
          minus: Number(m[3]),
          line: l.line,
        });
    }
  }
  return header;
}

/** The `162` line of a point system: every code whose points differ from the win/loss they follow. */
export function pointSystemLine(points: PointSystem): string {
  const pairs: [string, number][] = [
    ['W', points.win],
    ['D', points.draw],
    ['L', points.loss],
  ];
  if (points.forfeitLoss !== points.loss) pairs.push(['A', points.forfeitLoss]);
  if (points.pairingBye !== points.win) pairs.push(['P', points.pairingBye]);
  return `162  ${pairs.map(([c, v]) => `${c}${v.toFixed(1).padStart(4)}`).join('    ')}`;
}
