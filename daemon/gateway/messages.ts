// What a gateway accepts from the broker, checked before the hub sees it: anyone who can publish
// on the hall's broker can send anything, and a retained message comes back at every start. A
// message that does not read is dropped with a warning naming its topic; the gateway goes on.
import { z } from 'zod';
import { isVariant } from '../../src/engine/index.ts';
import type { GameEvent, GameSnapshot } from '../../src/game/types.ts';
import type { DaemonState, EventMessage, StateMessage } from '../server/mqtt-topics.ts';

/** Larger payloads are dropped unread (a 64-board round's snapshot is far below it). */
export const MAX_PAYLOAD = 1 << 20;
/** Board numbers a gateway keeps state for (a hall's boards are numbered from 1). */
export const MAX_BOARD = 10_000;

/** Every field of `T`, each `true`: the compiler holds such a list to the type, none missing, none extra. */
type Fields<T> = { readonly [K in keyof Required<T>]: true };
const common = { board: true, version: true, t: true, kind: true } as const;

/** The fields of each kind of event a daemon publishes; anything else is not one of its events. */
const EVENT_FIELDS: { readonly [K in GameEvent['kind']]: Fields<Extract<GameEvent, { kind: K }>> } = {
  move: { ...common, move: true },
  takeback: { ...common, ply: true, fen: true },
  'new-game': { ...common, snapshot: true },
  clock: { ...common, white: true, black: true, running: true },
  alert: { ...common, alert: true },
  decision: { ...common, alertId: true, decision: true },
  'position-set': { ...common, fen: true, reason: true },
  result: { ...common, result: true, advantage: true, proposed: true, afterGame: true },
  'table-game': { ...common, game: true },
  continued: { ...common, continuation: true },
  state: { ...common, state: true, serial: true },
  info: { ...common, info: true },
  action: { ...common, action: true, quickplay: true },
  'clock-set': { ...common, white: true, black: true, running: true },
  'clock-command': { ...common, asked: true, outcome: true },
};

/** The fields of a board's snapshot. */
const SNAPSHOT_FIELDS: Fields<GameSnapshot> = {
  info: true,
  version: true,
  state: true,
  serial: true,
  startFen: true,
  fen: true,
  moves: true,
  clock: true,
  alerts: true,
  result: true,
  advantage: true,
  proposedResult: true,
  actions: true,
  quickplay: true,
  clockCommand: true,
  resultPly: true,
  resultT: true,
  continued: true,
  tableGame: true,
};

/** A field `known` does not list, if any: a padded message is refused, not kept. */
const extraField = (value: object, known: object): string | undefined =>
  Object.keys(value).find((k) => !Object.hasOwn(known, k));

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
const onlySnapshotFields = (s: object, ctx: z.RefinementCtx) => {
  const extra = extraField(s, SNAPSHOT_FIELDS);
  if (extra !== undefined) ctx.addIssue({ code: 'custom', path: [extra], message: 'not a snapshot field' });
};
const snapshot = z
  .looseObject({
    ...snapshotShape,
    tableGame: z.looseObject(snapshotShape).superRefine(onlySnapshotFields).optional(),
  })
  .superRefine(onlySnapshotFields);

const event = z
  .looseObject({ board, version: count, t: z.number(), kind: z.string().max(40) })
  .superRefine((e, ctx) => {
    const fields = Object.hasOwn(EVENT_FIELDS, e.kind)
      ? EVENT_FIELDS[e.kind as GameEvent['kind']]
      : undefined;
    if (!fields) ctx.addIssue({ code: 'custom', path: ['kind'], message: `no event is of kind "${e.kind}"` });
    else {
      const extra = extraField(e, fields);
      if (extra !== undefined)
        ctx.addIssue({ code: 'custom', path: [extra], message: `not a field of a ${e.kind} event` });
    }
  });

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
  .strictObject({ ...identity, source: z.string().max(500), snapshot })
  .refine((m) => m.snapshot.info.board === m.board && m.snapshot.version === m.version, {
    message: 'the snapshot is not of this board and version',
  });

const eventMessage = z
  .strictObject({ ...identity, event })
  .refine((m) => m.event.board === m.board && m.event.version === m.version, {
    message: 'the event is not of this board and version',
  });

const daemonState = z.strictObject({
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
