// Results as people write them: `2-0`, `1-1`, `0-2`; a draw with advantage `1+-1-` (white had it) or
// `1--1+`; forfeits `+-`, `-+` and `--` (both absent). The same text in CSV, the console and the API.
import type { PairingResult } from './types.ts';

const MINUS = /[−–]/g;

/** The result a text names; undefined when it names none. `''` and `*` name "not finished" (null). */
export function parseResult(text: string): PairingResult | null | undefined {
  const t = text.trim().replace(MINUS, '-').replace(/\s+/g, '');
  if (t === '' || t === '*') return null;
  switch (t) {
    case '2-0':
    case '0-2':
    case '1-1':
      return { kind: 'game', score: t };
    case '1+-1-':
    case '1+/1-':
      return { kind: 'game', score: '1-1', advantage: 'white' };
    case '1--1+':
    case '1-/1+':
      return { kind: 'game', score: '1-1', advantage: 'black' };
    case '+-':
    case '+/-':
      return { kind: 'forfeit', winner: 'white' };
    case '-+':
    case '-/+':
      return { kind: 'forfeit', winner: 'black' };
    case '--':
    case '-/-':
      return { kind: 'forfeit', winner: 'none' };
    default:
      return undefined;
  }
}

/** The text `parseResult` reads back. */
export function formatResult(result: PairingResult | undefined): string {
  if (!result) return '*';
  if (result.kind === 'forfeit') return { white: '+-', black: '-+', none: '--' }[result.winner];
  if (result.advantage) return result.advantage === 'white' ? '1+-1-' : '1--1+';
  return result.score;
}
