// The WebSocket envelope (DGT LiveChess style, docs/api.md): what clients may send, read without
// ever throwing; and how server messages are written.
import { z } from 'zod';
import { parseTimeControl } from '../../src/clock/time-control.ts';
import { GAME_RESULTS, SIDES } from '../../src/engine/index.ts';
import { hasControlCharacter } from '../config/text.ts';
import type { GameEvent, GameSnapshot } from '../../src/game/types.ts';
import type { AlertRecord, GameResult } from '../../src/game/types.ts';
import type { CalibrationOutput } from '../calibration/connected.ts';

export type CallId = string | number | null;

export type ErrorCode =
  | 'bad-json'
  | 'unknown-call'
  | 'bad-param'
  | 'unauthorized'
  | 'rate-limited'
  | 'bad-fen'
  | 'already-decided'
  | 'not-found'
  | 'too-many-subscriptions'
  | 'too-many-calls'
  | 'journal-unavailable'
  | 'busy'
  | 'failed';

export interface Request {
  id: CallId;
  call: string;
  param: unknown;
}

const envelope = z.object({
  id: z.union([z.string().max(200), z.number()]).optional(),
  call: z.string().max(100),
  param: z.unknown().optional(),
});

/** A client frame → the request it carries, or why it cannot be read (with the id when known). */
export function readRequest(
  text: string,
): { ok: true; value: Request } | { ok: false; id: CallId; message: string } {
  let data: unknown;
  try {
    data = JSON.parse(text);
  } catch {
    return { ok: false, id: null, message: 'the message is not JSON' };
  }
  const r = envelope.safeParse(data);
  if (!r.success) {
    const id = typeof data === 'object' && data && 'id' in data ? (data as { id: unknown }).id : null;
    const safeId = typeof id === 'string' || typeof id === 'number' ? id : null;
    return { ok: false, id: safeId, message: 'expected an object {"id", "call", "param"}' };
  }
  return { ok: true, value: { id: r.data.id ?? null, call: r.data.call, param: r.data.param } };
}

const board = z.number().int().positive();
const version = z.number().int().nonnegative();
const subId = z.union([z.string().max(200), z.number()]);
const token = z.string().max(500).optional();
const side = z.enum(SIDES);
/** Tag text (names, event…): a control character would break the PDN line it is written on. */
const tagText = (max: number) =>
  z
    .string()
    .max(max)
    .refine((s) => !hasControlCharacter(s), 'control characters are not allowed');
/** An alert already decided is decided again only when the call says it revises the decision. */
const revise = z.literal(true).optional();
/** What every decision on an alert names, whatever its kind. */
const decision = { board, alertId: z.string().max(200), token };

export const params = {
  /** Calls that take no param (`ping`, `boards`): whatever comes is not read. */
  none: z.unknown(),
  auth: z.object({ token: z.string().max(500) }),
  games: z.object({ round: z.number().int().positive().optional(), board: board.optional() }).optional(),
  subscribe: z.discriminatedUnion('feed', [
    z.object({
      feed: z.literal('board'),
      board,
      since: version.optional(),
      epoch: z.string().max(100).optional(),
      id: subId.optional(),
    }),
    z.object({
      feed: z.literal('round'),
      round: z.number().int().positive().optional(),
      since: z.record(z.string(), version).optional(),
      epoch: z.string().max(100).optional(),
      id: subId.optional(),
    }),
    z.object({ feed: z.literal('alerts'), id: subId.optional(), token }),
  ]),
  unsubscribe: z.object({ id: subId }),
  decide: z.discriminatedUnion('kind', [
    z.object({ ...decision, kind: z.literal('stands'), revise }),
    z.object({ ...decision, kind: z.literal('corrected'), fen: z.string().max(400), revise }),
    // A `gap` alert: the candidate line played, or the moves from the score sheet.
    z.object({ ...decision, kind: z.literal('line'), line: z.number().int().min(0) }),
    z.object({ ...decision, kind: z.literal('moves'), pdn: z.string().max(4000) }),
  ]),
  sensorEvents: z.object({ board, from: z.number().finite(), to: z.number().finite(), token }),
  round: z.object({ round: z.number().int().positive(), token }),
  result: z.object({
    board,
    result: z.enum([...GAME_RESULTS, 'proposed']),
    /** A draw with advantage (6.5): the side that had it. */
    advantage: side.optional(),
    token,
  }),
  info: z.object({
    board,
    info: z
      .object({
        event: tagText(200),
        site: tagText(200),
        date: z.string().regex(/^[\d?]{4}\.[\d?]{2}\.[\d?]{2}$/),
        round: z.number().int().positive(),
        white: tagText(200),
        black: tagText(200),
        timeControl: tagText(100).refine(
          (v) => parseTimeControl(v).ok,
          'expected the PDN TimeControl form in seconds (5400+30, 40/5400:1800+30)',
        ),
      })
      .partial()
      .strict(),
    token,
  }),
  resync: z.object({ board: board.optional(), token }).optional(),
  health: z.object({ token }).optional(),
  calibrate: z.object({ board, token }),
  calibrateCancel: z.object({ board, token }),
  act: z.discriminatedUnion('action', [
    z.object({ board, action: z.literal('resign'), side, token }),
    z.object({ board, action: z.literal('draw-agreed'), token }),
    z.object({ board, action: z.literal('refusal'), side, token }),
    z.object({ board, action: z.literal('draw-offer'), side, token }),
    z.object({ board, action: z.literal('increment'), side, token }),
    z.object({
      board,
      action: z.literal('claim'),
      side,
      decision: z.enum(['accept', 'postpone', 'reject']),
      token,
    }),
    z.object({ board, action: z.literal('claim-ends'), side, token }),
  ]),
} as const;

/** Zod's first issue, as `param.board: expected number`. */
export function paramError(error: z.ZodError): string {
  const issue = error.issues[0];
  const where = ['param', ...(issue?.path ?? [])].join('.');
  return `${where}: ${issue?.message ?? 'invalid'}`;
}

/** What a feed message carries: a GameEvent, or a feed-only item. */
export type FeedItem =
  | GameEvent
  | { kind: 'snapshot'; board: number; version: number; snapshot: GameSnapshot }
  | { kind: 'alerts'; alerts: AlertRecord[] }
  | { kind: 'proposals'; proposals: Array<{ board: number; result: GameResult; reason: string }> }
  /** To the arbiter connection calibrating `board` only: the session's prompts and progress. */
  | { kind: 'calibration'; board: number; output: CalibrationOutput };

/** Server messages are built by string concatenation so a feed item is serialised once for all. */
export const frame = (
  response: 'call' | 'feed' | 'error',
  idJson: string,
  paramJson: string,
  time: number,
): string => `{"response":"${response}","id":${idJson},"param":${paramJson},"time":${time}}`;

export const errorParam = (code: ErrorCode, message: string): string => JSON.stringify({ code, message });

/** A calibration's output as the feed message the calibrating connection gets (`id`: the call's). */
export const calibrationFrame = (
  idJson: string,
  board: number,
  output: CalibrationOutput,
  time: number,
): string => {
  const item: FeedItem = { kind: 'calibration', board, output };
  return frame('feed', idJson, JSON.stringify(item), time);
};

/** A call refused: its error code and message go back to the caller. */
export class CallError extends Error {
  readonly code: ErrorCode;
  constructor(code: ErrorCode, message: string) {
    super(message);
    this.code = code;
  }
}
