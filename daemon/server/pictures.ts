// Pictures of positions: `/rounds/<n>/<board>.svg?ply=K&size=N` (the game after ply K, that move
// marked) and `/position.svg?fen=…&variant=…`, each also as `.png`. The drawing is the pages' own
// (daemon/web/js/board.js); PNGs are rendered from it by resvg.
import { Resvg } from '@resvg/resvg-js';
import { isVariant, parseFen, type Variant } from '../../src/engine/index.ts';
import type { GameSnapshot, RecordedMove } from '../../src/game/types.ts';
import { pictureSvg } from '../web/js/board.js';
import type { ValidatorCache, Validators } from './conditional.ts';

const SVG_TYPE = 'image/svg+xml; charset=utf-8';
const PNG_TYPE = 'image/png';
const JSON_TYPE = 'application/json; charset=utf-8';
const SIZE = { default: 480, min: 64, max: 2048 };

export interface PictureAnswer {
  status: number;
  type: string;
  body: string | Buffer;
  validators?: Validators;
  cors?: boolean;
}

export interface PictureContext {
  games: (round: number) => GameSnapshot[];
  validators: ValidatorCache;
}

const failure = (status: number, error: string, message: string): PictureAnswer => ({
  status,
  type: JSON_TYPE,
  body: JSON.stringify({ error, message }),
});

/** PNGs by the ETag of their SVG: one rendering per position and size, however many ask. */
class PngCache {
  private readonly cache = new Map<string, Buffer>();

  of(svg: string, etag: string, size: number): Buffer {
    const hit = this.cache.get(etag);
    if (hit) return hit;
    const png = new Resvg(svg, { fitTo: { mode: 'width', value: size } }).render().asPng();
    if (this.cache.size >= 128) this.cache.delete(this.cache.keys().next().value!);
    this.cache.set(etag, png);
    return png;
  }
}

interface Drawing {
  fen: string;
  variant: Variant;
  move?: RecordedMove;
  flipped: boolean;
  numbers: boolean;
  label: string;
}

/** The picture routes; undefined when the path is not one of them. */
export function pictureRoutes(ctx: PictureContext) {
  const pngs = new PngCache();

  const answer = (key: string, drawing: Drawing, size: number, png: boolean): PictureAnswer => {
    const svg = pictureSvg({ ...drawing, size });
    const validators = ctx.validators.of(key, svg);
    if (!png) return { status: 200, type: SVG_TYPE, body: svg, validators, cors: true };
    const body = pngs.of(svg, validators.etag, size);
    return {
      status: 200,
      type: PNG_TYPE,
      body,
      validators: ctx.validators.of(`${key}#png`, body),
      cors: true,
    };
  };

  return function route(path: string, query: URLSearchParams): PictureAnswer | undefined {
    const game = /^\/rounds\/(\d+)\/(\d+)\.(svg|png)$/.exec(path);
    const position = /^\/position\.(svg|png)$/.exec(path);
    if (!game && !position) return undefined;
    const size = readSize(query.get('size'));
    if (size === undefined)
      return failure(400, 'bad-param', `size: a whole number of pixels, ${SIZE.min}–${SIZE.max}`);
    const view = { flipped: query.get('flip') === '1', numbers: query.get('numbers') === '1' };
    const key = `${path}?${[...query]
      .sort()
      .map(([k, v]) => `${k}=${v}`)
      .join('&')}`;
    if (position) {
      const variant = query.get('variant') ?? 'international';
      if (!isVariant(variant)) return failure(400, 'bad-param', `variant: international or brazilian`);
      const fen = query.get('fen') ?? '';
      const parsed = parseFen(fen, { variant });
      if (!parsed.ok) return failure(400, 'bad-fen', `fen: ${parsed.error.message}`);
      return answer(key, { ...view, fen, variant, label: fen }, size, position[1] === 'png');
    }
    const [, round, board, ext] = game!;
    const snap = ctx.games(Number(round)).find((g) => g.info.board === Number(board));
    if (!snap) return failure(404, 'not-found', `no board ${board} in round ${round}`);
    const total = snap.moves.length;
    const ply = query.has('ply') ? Number(query.get('ply')) : total;
    if (!Number.isInteger(ply) || ply < 0 || ply > total)
      return failure(400, 'bad-param', `ply: 0–${total} (the game has ${total} plies)`);
    const move = ply === 0 ? undefined : snap.moves[ply - 1];
    const drawing = {
      ...view,
      fen: move?.fenAfter ?? snap.startFen,
      variant: snap.info.variant,
      move,
      label: `Board ${board}, round ${round}, after ply ${ply}`,
    };
    return answer(key, drawing, size, ext === 'png');
  };
}

function readSize(text: string | null): number | undefined {
  if (text === null) return SIZE.default;
  const n = Number(text);
  return Number.isInteger(n) && n >= SIZE.min && n <= SIZE.max ? n : undefined;
}
