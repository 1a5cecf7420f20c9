// What a gateway accepts from the broker, checked before the hub sees it: anyone who can publish
// on the hall's broker can send anything, and a retained message comes back at every start. A
// message that does not read is dropped with a warning naming its topic; the gateway goes on.
import { z } from 'zod';
import { isVariant } from '../../src/engine/index.ts';
import type { GameEvent } from '../../src/game/types.ts';
import type { DaemonState, EventMessage, StateMessage } from '../server/mqtt-topics.ts';

/** Larger payloads are dropped unread (a 64-board round's snapshot is far below it). */
export const MAX_PAYLOAD = 1 << 20;
/** Board numbers a gateway keeps state for (a hall's boards are numbered from 1). */
export const MAX_BOARD = 10_000;

const count = z.number().int().nonnegative();
const board = z.number().int().min(1).max(MAX_BOARD);
const round = z.number().int().min(1).max(1000);
const name = z.string().max(200);

const move = z.looseObject({
  ply: z.number().int().positive(),
  pdn: z.string().max(200),
  from: z.number().int(),
  to: z.number().int(),
  path: z.array(z.number().int()).max(64),
  captured: z.array(z.number().int()).max(64),
  fenAfter: z.string().max(1000),
  t: z.number(),
});

const info = z.looseObject({
  board,
  round,
  variant: z.string().refine(isVariant, 'not a variant'),
  white: name.optional(),
  black: name.optional(),
  event: name.optional(),
});

const snapshotShape = {
  info,
  version: count,
  state: z.string().max(40),
  startFen: z.string().max(1000),
  fen: z.string().max(1000),
  moves: z.array(move).max(2000),
  alerts: z.array(z.looseObject({ id: z.string().max(200) })).max(2000),
  result: z.string().max(8),
};
const snapshot = z.looseObject({
  ...snapshotShape,
  tableGame: z.looseObject(snapshotShape).optional(),
});

const event = z.looseObject({ board, version: count, t: z.number(), kind: z.string().max(40) });

/**
 * An event a daemon sent on its own WebSocket (a gateway's catch-up), read as the broker's are:
 * of `board`, no larger than a broker message; undefined when it is not one.
 */
export function readDaemonEvent(value: unknown, forBoard: number): GameEvent | undefined {
  const read = event.safeParse(value);
  if (!read.success || read.data.board !== forBoard) return undefined;
  return JSON.stringify(value).length > MAX_PAYLOAD ? undefined : (read.data as unknown as GameEvent);
}

const identity = { board, round, epoch: z.string().max(100), version: count, daemon: z.string().max(200) };

const stateMessage = z
  .looseObject({ ...identity, source: z.string().max(500), snapshot })
  .refine((m) => m.snapshot.info.board === m.board && m.snapshot.version === m.version, {
    message: 'the snapshot is not of this board and version',
  });

const eventMessage = z
  .looseObject({ ...identity, event })
  .refine((m) => m.event.board === m.board && m.event.version === m.version, {
    message: 'the event is not of this board and version',
  });

const daemonState = z.looseObject({
  state: z.enum(['online', 'offline']),
  daemon: z.string().max(200),
  epoch: z.string().max(100).optional(),
  round: round.optional(),
  boards: z.array(board).max(MAX_BOARD).optional(),
  api: z
    .url({ protocol: /^https?$/ })
    .max(500)
    .optional(),
});

export type BrokerMessage =
  | { kind: 'daemon'; daemon: string; state: DaemonState }
  | { kind: 'state'; message: StateMessage }
  | { kind: 'event'; message: EventMessage };

export type Read = { ok: true; value: BrokerMessage | undefined } | { ok: false; error: string };

const TOPIC = /\/(?:bridge\/daemons\/([^/]+)|boards\/(\d+)\/(state|events))$/;

/** One message from a topic the gateway subscribes to; `value` undefined for a topic it ignores. */
export function readBrokerMessage(topic: string, payload: Buffer): Read {
  const m = TOPIC.exec(topic);
  if (!m) return { ok: true, value: undefined };
  if (payload.length > MAX_PAYLOAD)
    return { ok: false, error: `${payload.length} bytes: over ${MAX_PAYLOAD}` };
  let value: unknown;
  try {
    value = JSON.parse(payload.toString());
  } catch {
    return { ok: false, error: 'not JSON' };
  }
  const failed = (e: z.ZodError) => {
    const issue = e.issues[0];
    return { ok: false as const, error: `${issue.path.join('.') || 'message'}: ${issue.message}` };
  };
  if (m[1] !== undefined) {
    const read = daemonState.safeParse(value);
    if (!read.success) return failed(read.error);
    return { ok: true, value: { kind: 'daemon', daemon: m[1], state: read.data as DaemonState } };
  }
  const topicBoard = Number(m[2]);
  const read = (m[3] === 'state' ? stateMessage : eventMessage).safeParse(value);
  if (!read.success) return failed(read.error);
  if (read.data.board !== topicBoard)
    return { ok: false, error: `board ${read.data.board} on the topic of board ${topicBoard}` };
  return m[3] === 'state'
    ? { ok: true, value: { kind: 'state', message: read.data as unknown as StateMessage } }
    : { ok: true, value: { kind: 'event', message: read.data as unknown as EventMessage } };
}
