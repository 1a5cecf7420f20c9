// Draws a draughts board as an SVG string: squares (numbers on hover or toggle), pieces, and the
// last move (from/to squares, path arrow, captured squares crossed). Pure: text in, text out.
// The one drawing of a position: the pages use it, and the server imports it for its .svg/.png.
import { readFen } from './fen.js';
import { escapeHtml } from './format.js';
import { boardWidth, drawnCell, squareCount } from './geometry.js';

const U = 10; // user units per square

/**
 * @param {{ fen: string, variant?: string, flipped?: boolean, move?: { path?: readonly number[],
 *   from: number, to: number, captured?: readonly number[] } | null, marks?: readonly number[],
 *   label?: string, numbers?: boolean, describedBy?: string }} o
 * @returns {string}
 */
export function boardSvg(o) {
  const width = boardWidth(o.variant);
  const size = width * U;
  const position = readFen(o.fen);
  const pieces = position?.pieces ?? new Map();
  const center = (sq) => {
    const { row, col } = drawnCell(width, sq, !!o.flipped);
    return [col * U + U / 2, row * U + U / 2];
  };
  const moveSquares = new Set(o.move ? [o.move.from, o.move.to] : []);
  const marks = new Set(o.marks ?? []);
  let light = '';
  for (let r = 0; r < width; r++) {
    for (let c = 0; c < width; c++) {
      if ((r + c) % 2 === 0) light += `<rect x="${c * U}" y="${r * U}" width="${U}" height="${U}"/>`;
    }
  }
  let dark = '';
  for (let sq = 1; sq <= squareCount(width); sq++) {
    const [cx, cy] = center(sq);
    const cls = ['sq', moveSquares.has(sq) ? 'last' : '', marks.has(sq) ? 'mark' : '']
      .filter(Boolean)
      .join(' ');
    dark +=
      `<g class="${cls}" data-square="${sq}"><title>${sq}</title>` +
      `<rect x="${cx - U / 2}" y="${cy - U / 2}" width="${U}" height="${U}"/>` +
      pieceSvg(pieces.get(sq), cx, cy) +
      `<text class="num" x="${cx - U / 2 + 0.8}" y="${cy - U / 2 + 3}">${sq}</text></g>`;
  }
  const overlay = o.move ? moveOverlay(o.move, center) : '';
  const label = o.label ? ` aria-label="${escapeHtml(o.label)}"` : '';
  const described = o.describedBy ? ` aria-describedby="${escapeHtml(o.describedBy)}"` : '';
  const cls = `board${o.numbers ? ' numbers' : ''}${o.flipped ? ' flipped' : ''}`;
  return (
    `<svg class="${cls}" viewBox="0 0 ${size} ${size}" role="img"${label}${described} data-fen="${escapeHtml(o.fen ?? '')}">` +
    `<g class="light">${light}</g><g class="dark">${dark}</g>` +
    `<g class="overlay" pointer-events="none">${overlay}</g></svg>`
  );
}

/** The page's board colours (style.css, light scheme), for a picture that stands alone. */
const PICTURE_STYLE =
  '.light rect{fill:#f3ead2}.sq rect{fill:#3f6b34}.sq.last rect{fill:#c9a227}.sq.mark rect{fill:#c2410c}' +
  '.piece.white{fill:#fff;stroke:#111;stroke-width:.7}.piece.black{fill:#111;stroke:#fff;stroke-width:.5}' +
  '.ring{fill:none;stroke-width:.45}.ring.white{stroke:#999}.ring.black{stroke:#666}' +
  '.crown{fill:#d4a017;stroke:#5c4300;stroke-width:.4}' +
  '.num{font-size:2.7px;fill:#fff;font-weight:700;font-family:sans-serif;visibility:hidden}' +
  '.numbers .num{visibility:visible}' +
  '.path{fill:none;stroke:#0b57d0;stroke-width:1.5;stroke-linejoin:round;stroke-linecap:round;opacity:.85}' +
  '.arrow{fill:#0b57d0;opacity:.9}.captured{stroke:#d00;stroke-width:1.4;stroke-linecap:round}';

/**
 * A standalone SVG file of a position (for reports, posts, the `.svg`/`.png` routes): the same
 * drawing as the pages, with its colours inside and a pixel size.
 * @param {Parameters<typeof boardSvg>[0] & { size?: number }} o
 * @returns {string}
 */
export function pictureSvg(o) {
  const size = Math.round(o.size ?? 480);
  const svg = boardSvg(o);
  return (
    '<?xml version="1.0" encoding="UTF-8"?>\n' +
    svg
      .replace('<svg ', `<svg xmlns="http://www.w3.org/2000/svg" width="${size}" height="${size}" `)
      .replace(/(<svg[^>]*>)/, `$1<style>${PICTURE_STYLE}</style>`)
  );
}

/** A king's crown: three points over a band, gold, across most of the piece (seen at a glance on a phone). */
function crownSvg(cx, cy) {
  const w = U * 0.5;
  const h = U * 0.34;
  const l = cx - w / 2;
  const r = cx + w / 2;
  const top = cy - h / 2;
  const base = cy + h / 2;
  const dip = cy + h * 0.05;
  const points = [
    [l, base],
    [r, base],
    [r, top],
    [cx + w / 4, dip],
    [cx, top - h * 0.12],
    [cx - w / 4, dip],
    [l, top],
  ];
  return `<polygon class="crown" points="${points.map((p) => p.map((v) => v.toFixed(2)).join(',')).join(' ')}"/>`;
}

function pieceSvg(piece, cx, cy) {
  if (!piece) return '';
  const color = piece === 'w' || piece === 'W' ? 'white' : 'black';
  const king = piece === 'W' || piece === 'B';
  const body = `<circle class="piece ${color}" cx="${cx}" cy="${cy}" r="${U * 0.38}"/>`;
  const ring = `<circle class="ring ${color}" cx="${cx}" cy="${cy}" r="${U * 0.26}"/>`;
  const crown = king ? crownSvg(cx, cy) : '';
  return `<g class="p ${piece === 'w' || piece === 'b' ? 'man' : 'king'}" data-piece="${piece}">${body}${ring}${crown}</g>`;
}

function moveOverlay(move, center) {
  const path = move.path?.length ? move.path : [move.from, move.to];
  const points = path.map(center);
  const [x1, y1] = points[points.length - 2] ?? points[0];
  const [x2, y2] = points[points.length - 1];
  const angle = Math.atan2(y2 - y1, x2 - x1);
  const head = [
    [x2, y2],
    [x2 - 3.2 * Math.cos(angle - 0.45), y2 - 3.2 * Math.sin(angle - 0.45)],
    [x2 - 3.2 * Math.cos(angle + 0.45), y2 - 3.2 * Math.sin(angle + 0.45)],
  ];
  const line = `<polyline class="path" points="${points.map((p) => p.join(',')).join(' ')}"/>`;
  const arrow = `<polygon class="arrow" points="${head.map((p) => p.map((v) => v.toFixed(2)).join(',')).join(' ')}"/>`;
  const crosses = (move.captured ?? [])
    .map((sq) => {
      const [cx, cy] = center(sq);
      const d = U * 0.3;
      return `<path class="captured" data-square="${sq}" d="M${cx - d} ${cy - d}L${cx + d} ${cy + d}M${cx + d} ${cy - d}L${cx - d} ${cy + d}"/>`;
    })
    .join('');
  return line + arrow + crosses;
}
