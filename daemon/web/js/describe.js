// The position in words, for screen readers: side to move, then each side's men and kings.
import { readFen } from '../shared/fen.js';
import { t, sideName } from '../shared/i18n.js';

/** `31–35, 38, 40` : runs of consecutive squares written as ranges. */
export function squareRuns(squares) {
  const sorted = [...squares].sort((a, b) => a - b);
  const runs = [];
  for (const s of sorted) {
    const last = runs[runs.length - 1];
    if (last && s === last[1] + 1) last[1] = s;
    else runs.push([s, s]);
  }
  return runs.map(([a, b]) => (a === b ? `${a}` : `${a}–${b}`)).join(', ');
}

export function describePosition(fen) {
  const position = readFen(fen);
  if (!position) return '';
  const parts = [t('describe.toMove', { side: sideName(position.turn) })];
  for (const [side, man, king] of [
    ['white', 'w', 'W'],
    ['black', 'b', 'B'],
  ]) {
    const of = (code) => [...position.pieces].filter(([, p]) => p === code).map(([s]) => s);
    const name = sideName(side);
    const men = of(man);
    const kings = of(king);
    if (men.length) parts.push(t('describe.men', { side: name, squares: squareRuns(men) }));
    if (kings.length) parts.push(t('describe.kings', { side: name, squares: squareRuns(kings) }));
    if (!men.length && !kings.length) parts.push(t('describe.none', { side: name }));
  }
  return parts.join(' ');
}
