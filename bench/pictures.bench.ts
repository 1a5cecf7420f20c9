// `npm run bench -- pictures`: the cost of a picture of a position, as the HTTP routes make it.
//   picture_svg_us     one standalone SVG of a mid-game 10×10 position (the pages' drawing)
//   picture_png_ms     that SVG rendered to a 480-pixel PNG by resvg (the routes cache it per version)
import { Resvg } from '@resvg/resvg-js';
import { pictureSvg } from '../daemon/web/shared/board-svg.js';

const FEN =
  'W:W27,28,31,32,33,34,K36,38,39,40,42,43,44,45,47,48,49,50:B1,2,3,4,6,7,8,9,11,12,13,14,16,17,18,19,22,K25';
const move = { from: 32, to: 28, path: [32, 28], captured: [] };

function median(samples: number[]): number {
  const sorted = [...samples].sort((a, b) => a - b);
  return sorted[Math.floor(sorted.length / 2)];
}

function timeEach(runs: number, work: () => void): number {
  const samples: number[] = [];
  for (let i = 0; i < runs; i++) {
    const t0 = performance.now();
    work();
    samples.push(performance.now() - t0);
  }
  return median(samples);
}

const svg = pictureSvg({ fen: FEN, variant: 'international', move, size: 480 });
for (let i = 0; i < 50; i++) pictureSvg({ fen: FEN, variant: 'international', move, size: 480 });
const svgMs = timeEach(2000, () => pictureSvg({ fen: FEN, variant: 'international', move, size: 480 }));
new Resvg(svg, { fitTo: { mode: 'width', value: 480 } }).render().asPng();
const pngMs = timeEach(30, () => new Resvg(svg, { fitTo: { mode: 'width', value: 480 } }).render().asPng());
console.log(`picture_svg_us ${(svgMs * 1000).toFixed(1)} us`);
console.log(`picture_png_ms ${pngMs.toFixed(2)} ms`);
