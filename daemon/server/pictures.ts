// Pictures of positions: `/rounds/<n>/<board>.svg?ply=K&size=N` (the game after ply K, that move
// marked) and `/position.svg?fen=…&variant=…`, each also as `.png`. The drawing is the pages' own
// (daemon/web/shared/board-svg.js); PNGs are rendered from it by resvg, off the event loop (libuv's thread
// pool), a few at a time and at most two in flight per client address: the live feed's latency is
// what a burst of picture requests must not touch.
import { availableParallelism } from 'node:os';
import { renderAsync } from '@resvg/resvg-js';
import { Counts } from '../keyed.ts';
import { addressKey } from './auth.ts';
import { isVariant, parseFen, type Variant } from '../../src/engine/index.ts';
import type { GameSnapshot, RecordedMove } from '../../src/game/types.ts';
import { pictureSvg } from '../web/shared/board-svg.js';
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
  /** Seconds, for `Retry-After`. */
  retryAfter?: number;
}

export interface PictureContext {
  games: (round: number) => GameSnapshot[];
  validators: ValidatorCache;
  pngLimits?: Partial<PngLimits>;
}

const failure = (status: number, error: string, message: string): PictureAnswer => ({
  status,
  type: JSON_TYPE,
  body: JSON.stringify({ error, message }),
});

export interface PngLimits {
  /** Renderings running at once (each holds a thread of libuv's pool). */
  rendering: number;
  /** Renderings waiting for a turn; past it a request is answered 503 at once. */
  waiting: number;
  /** Renderings one client address may have running or waiting. */
  perAddress: number;
  /** Bytes of PNG kept for the next request of the same picture. */
  cacheBytes: number;
}

/** One rendering per core but one: a core stays free for the event loop. */
export const PNG_LIMITS: PngLimits = {
  rendering: Math.max(1, availableParallelism() - 1),
  waiting: 32,
  perAddress: 2,
  cacheBytes: 32 << 20,
};

/** Why a PNG was not rendered: the answer says when to ask again. */
export class PngBusy extends Error {}

/**
 * PNGs by the ETag of their SVG: one rendering per position and size, however many ask (a request
 * for a picture already being rendered waits for that rendering).
 */
export class PngRenderer {
  private readonly cache = new Map<string, Buffer>();
  private cached = 0;
  private readonly inFlight = new Map<string, Promise<Buffer>>();
  private readonly byAddress = new Counts<string>();
  private readonly queue: (() => void)[] = [];
  private running = 0;
  private readonly limits: PngLimits;

  constructor(limits: Partial<PngLimits> = {}) {
    this.limits = { ...PNG_LIMITS, ...limits };
  }

  of(svg: string, etag: string, size: number, address: string | undefined): Promise<Buffer> {
    const hit = this.cache.get(etag);
    if (hit) return Promise.resolve(hit);
    const shared = this.inFlight.get(etag);
    if (shared) return shared;
    const key = addressKey(address);
    if (this.byAddress.of(key) >= this.limits.perAddress)
      return Promise.reject(
        new PngBusy(`at most ${this.limits.perAddress} pictures rendered at once per client`),
      );
    if (this.running >= this.limits.rendering && this.queue.length >= this.limits.waiting)
      return Promise.reject(new PngBusy('too many pictures waiting to be rendered'));
    this.byAddress.add(key);
    const rendering = this.turn()
      .then(() => renderAsync(svg, { fitTo: { mode: 'width', value: size } }))
      .then((image) => {
        const png = image.asPng();
        this.keep(etag, png);
        return png;
      })
      .finally(() => {
        this.running--;
        this.queue.shift()?.();
        this.inFlight.delete(etag);
        this.byAddress.remove(key);
      });
    this.inFlight.set(etag, rendering);
    return rendering;
  }

  private turn(): Promise<void> {
    if (this.running < this.limits.rendering) {
      this.running++;
      return Promise.resolve();
    }
    return new Promise((resolve) =>
      this.queue.push(() => {
        this.running++;
        resolve();
      }),
    );
  }

  private keep(etag: string, png: Buffer): void {
    if (png.length > this.limits.cacheBytes) return;
    this.cache.set(etag, png);
    this.cached += png.length;
    for (const [old, buffer] of this.cache) {
      if (this.cached <= this.limits.cacheBytes) break;
      this.cache.delete(old);
      this.cached -= buffer.length;
    }
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
  const pngs = new PngRenderer(ctx.pngLimits);

  const answer = async (
    key: string,
    drawing: Drawing,
    size: number,
    png: boolean,
    address: string | undefined,
  ): Promise<PictureAnswer> => {
    const svg = pictureSvg({ ...drawing, size });
    const validators = ctx.validators.of(key, svg);
    if (!png) return { status: 200, type: SVG_TYPE, body: svg, validators, cors: true };
    try {
      const body = await pngs.of(svg, validators.etag, size, address);
      return {
        status: 200,
        type: PNG_TYPE,
        body,
        validators: ctx.validators.of(`${key}#png`, body),
        cors: true,
      };
    } catch (e) {
      if (!(e instanceof PngBusy)) throw e;
      return { ...failure(503, 'busy', `${e.message}: ask again in a second`), retryAfter: 1 };
    }
  };

  return function route(
    path: string,
    query: URLSearchParams,
    address?: string,
  ): Promise<PictureAnswer> | PictureAnswer | undefined {
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
      return answer(key, { ...view, fen, variant, label: fen }, size, position[1] === 'png', address);
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
    return answer(key, drawing, size, ext === 'png', address);
  };
}

function readSize(text: string | null): number | undefined {
  if (text === null) return SIZE.default;
  const n = Number(text);
  return Number.isInteger(n) && n >= SIZE.min && n <= SIZE.max ? n : undefined;
}
