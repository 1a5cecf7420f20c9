// The line protocol's message bodies: board lines `TYPE SEQ ARGS…`, host lines `TYPE ARGS…`.
import { isPieceCode, isSquareString } from '../board-string.ts';
import {
  type BoardEvent,
  type BoardStamp,
  type HelloEvent,
  isScanPeriod,
  type Side,
  type StampedEvent,
} from '../events.ts';
import type { ClockReading } from '../clock-reading.ts';
import { err, ok, type Result } from '../result.ts';
import type { HostCommand } from '../types.ts';
import { LINE_PROTOCOL_VERSION, sanitizeText } from './frame.ts';

export type BoardLineType =
  | 'hello'
  | 'lift'
  | 'put'
  | 'snap'
  | 'clock'
  | 'press'
  | 'fault'
  | 'pong'
  | 'rec'
  | 'recs';

const sideChar = (side: Side | null): string => (side === 'white' ? 'w' : side === 'black' ? 'b' : '-');
const charSide = (c: string): Side | null | undefined =>
  c === 'w' ? 'white' : c === 'b' ? 'black' : c === '-' ? null : undefined;

const SERIAL = /^[A-Za-z0-9._-]{1,32}$/;
const BOOT = /^[A-Za-z0-9]{1,16}$/;
const INT = /^\d{1,9}$/;
/** Event numbers and board times: unsigned 32-bit decimals. */
const U32 = /^\d{1,10}$/;
const u32 = (arg: string | undefined): number | undefined =>
  arg !== undefined && U32.test(arg) && Number(arg) <= 0xffffffff ? Number(arg) : undefined;

/** The change's own arguments (after type and seq), without its stamp. */
function changeArgs(event: StampedEvent, stamped: boolean): string[] {
  switch (event.type) {
    case 'lift':
      return [String(event.square)];
    case 'put':
      // With a stamp after it the piece is always said (`o`: occupancy), so a 1.0 host, which reads
      // the second argument as the piece, still reads the line.
      return event.piece
        ? [String(event.square), event.piece]
        : stamped
          ? [String(event.square), 'o']
          : [String(event.square)];
    case 'press':
      return [sideChar(event.side)];
  }
}

const stampArgs = (stamp: BoardStamp): string[] => [String(stamp.n), String(stamp.ms)];

/**
 * An event → the body of the board line that tells it (without seq), or undefined when the line
 * protocol has no such line (daemon ticks).
 */
export function boardLineArgs(event: BoardEvent): { type: BoardLineType; args: string[] } | undefined {
  switch (event.type) {
    case 'hello': {
      // The version the hello says it speaks (a 1.0 board's hello stays 1.0), else this document's.
      const said = /^damlink-line\/(\d+\.\d+)$/.exec(event.protocol)?.[1];
      const args = [said ?? LINE_PROTOCOL_VERSION, `serial=${event.serial}`];
      if (event.firmware) args.push(`fw=${event.firmware.replace(/\s/g, '_')}`);
      args.push(`squares=${event.squares}`, `senses=${event.senses}`);
      if (event.capabilities?.length) args.push(`caps=${event.capabilities.join(',')}`);
      if (event.boot) args.push(`boot=${event.boot}`);
      if (event.scanMs !== undefined) args.push(`scan=${event.scanMs}`);
      return { type: 'hello', args };
    }
    case 'lift':
    case 'put':
    case 'press': {
      const { stamp } = event;
      if (stamp?.recalled)
        return { type: 'rec', args: [...stampArgs(stamp), event.type, ...changeArgs(event, false)] };
      return { type: event.type, args: [...changeArgs(event, !!stamp), ...(stamp ? stampArgs(stamp) : [])] };
    }
    case 'history-end':
      return {
        type: 'recs',
        args:
          event.outcome === 'done'
            ? ['done', String(event.last), String(event.ms)]
            : ['gone', String(event.first ?? 0), String(event.last), String(event.ms)],
      };
    case 'snapshot':
      return { type: 'snap', args: [event.board] };
    case 'clock':
      return {
        type: 'clock',
        args: [
          String(Math.max(0, Math.round(event.white))),
          String(Math.max(0, Math.round(event.black))),
          sideChar(event.running),
          ...(event.flag ? [sideChar(event.flag)] : []),
        ],
      };
    case 'fault': {
      const code = event.code.replace(/^board-/, '').replace(/[^A-Za-z0-9._-]/g, '_') || 'fault';
      return { type: 'fault', args: event.message ? [code, sanitizeText(event.message)] : [code] };
    }
    case 'tick':
      return event.reply === 'pong' ? { type: 'pong', args: [] } : undefined;
  }
}

/** What a well-framed board line says: its events, and the hello itself when it is one. */
export interface BoardLine {
  events: BoardEvent[];
  hello?: HelloEvent;
}

/** Parse problems of a well-framed line: the decoder turns them into `bad-args` faults. */
const bad = (message: string) => err({ code: 'bad-args', message });
const said = (event: BoardEvent): Result<BoardLine> => ok({ events: [event] });

/**
 * The arguments of a known board line type → events. `n` is the board's square count (from hello).
 * Extra trailing arguments are ignored (a newer minor version may add them).
 */
export function parseBoardLine(
  type: string,
  args: string[],
  rest: string,
  t: number,
  n: number,
): Result<BoardLine> | undefined {
  switch (type) {
    case 'lift':
    case 'put':
    case 'press': {
      // 1.1: a history board's live change ends with its number and time (`N MS`).
      const arity = type === 'put' ? 2 : 1;
      const change = parseChange(type, args.slice(0, arity), t, n);
      if (!change.ok) return change;
      const stamp = args.length >= arity + 2 ? stampOf(args[arity], args[arity + 1]) : undefined;
      return said(stamp ? { ...change.value, stamp } : change.value);
    }
    case 'rec': {
      // `rec SEQ N MS TYPE ARGS…`: a change sent again from the board's memory.
      const stamp = stampOf(args[0], args[1]);
      if (!stamp) return bad(`rec: bad number or time "${args[0] ?? ''} ${args[1] ?? ''}"`);
      const kind = args[2] ?? '';
      if (kind !== 'lift' && kind !== 'put' && kind !== 'press') return bad(`rec: bad change "${kind}"`);
      const change = parseChange(kind, args.slice(3), t, n);
      return change.ok ? said({ ...change.value, stamp: { ...stamp, recalled: true } }) : change;
    }
    case 'recs': {
      const outcome = args[0];
      const nums = args.slice(1, outcome === 'gone' ? 4 : 3).map(u32);
      if (
        (outcome !== 'done' && outcome !== 'gone') ||
        nums.length < (outcome === 'gone' ? 3 : 2) ||
        nums.some((x) => x === undefined)
      )
        return bad('recs: expected done LAST MS or gone FIRST LAST MS');
      const [a, b, c] = nums as number[];
      return said(
        outcome === 'done'
          ? { t, type: 'history-end', outcome, last: a, ms: b }
          : { t, type: 'history-end', outcome, first: a, last: b, ms: c },
      );
    }
    case 'snap': {
      const board = args[0] ?? '';
      return isSquareString(board, n)
        ? said({ t, type: 'snapshot', board })
        : bad(`snap: bad board "${board}"`);
    }
    case 'clock': {
      const clock = clockArgs(args);
      if (!clock.ok) return clock;
      // An optional fourth argument: the side whose flag fell.
      const flag = args[3] === undefined ? undefined : charSide(args[3]);
      if (flag === null || (args[3] !== undefined && flag === undefined))
        return bad('clock: the flag is w or b');
      return said({ t, type: 'clock', ...clock.value, ...(flag ? { flag } : {}) });
    }
    case 'fault': {
      const code = args[0];
      if (!code) return bad('fault: no code');
      const message = rest.slice(code.length).trim();
      return said({ t, type: 'fault', code: `board-${code}`, message, resync: true });
    }
    case 'pong':
      return said({ t, type: 'tick', reply: 'pong' });
    case 'hello':
      return parseHello(args, t);
    default:
      return undefined;
  }
}

/** A lift, put or press from its arguments (without a stamp). */
function parseChange(type: StampedEvent['type'], args: string[], t: number, n: number): Result<StampedEvent> {
  if (type === 'press') {
    const side = charSide(args[0] ?? '');
    return side ? ok({ t, type: 'press', side }) : bad('press: expected w or b');
  }
  const square = squareArg(args[0], n);
  if (!square) return bad(`${type}: bad square "${args[0] ?? ''}"`);
  if (type === 'lift') return ok({ t, type: 'lift', square });
  const piece = args[1];
  if (piece === undefined || piece === 'o') return ok({ t, type: 'put', square });
  if (!isPieceCode(piece)) return bad(`put: bad piece "${piece}"`);
  return ok({ t, type: 'put', square, piece });
}

/** `N MS` → a stamp; undefined unless both are unsigned 32-bit numbers and N ≥ 1. */
function stampOf(n: string | undefined, ms: string | undefined): BoardStamp | undefined {
  const number = u32(n);
  const time = u32(ms);
  return number !== undefined && number >= 1 && time !== undefined ? { n: number, ms: time } : undefined;
}

/** `WHITE_MS BLACK_MS w|b|-`: the clock line's arguments, the same in both directions. */
function clockArgs(args: string[]): Result<ClockReading> {
  const running = charSide(args[2] ?? '');
  if (!INT.test(args[0] ?? '') || !INT.test(args[1] ?? '') || running === undefined)
    return bad('clock: expected WHITE_MS BLACK_MS w|b|-');
  return ok({ white: Number(args[0]), black: Number(args[1]), running });
}

function squareArg(arg: string | undefined, n: number): number | undefined {
  if (arg === undefined || !/^\d{1,3}$/.test(arg)) return undefined;
  const s = Number(arg);
  return s >= 1 && s <= n ? s : undefined;
}

function parseHello(args: string[], t: number): Result<BoardLine> {
  const version = args[0] ?? '';
  if (!/^\d+\.\d+$/.test(version)) return bad(`hello: bad version "${version}"`);
  const kv = new Map<string, string>();
  for (const a of args.slice(1)) {
    const eq = a.indexOf('=');
    if (eq > 0) kv.set(a.slice(0, eq), a.slice(eq + 1));
  }
  const serial = kv.get('serial') ?? '';
  const squares = Number(kv.get('squares'));
  const senses = kv.get('senses');
  if (!SERIAL.test(serial)) return bad(`hello: bad serial "${serial}"`);
  if (squares !== 50 && squares !== 32) return bad(`hello: squares must be 50 or 32`);
  if (senses !== 'pieces' && senses !== 'occupancy') return bad(`hello: senses must be pieces or occupancy`);
  const hello: HelloEvent = {
    t,
    type: 'hello',
    serial,
    protocol: `damlink-line/${version}`,
    squares,
    senses,
  };
  const fw = kv.get('fw');
  if (fw) hello.firmware = fw;
  const caps = kv.get('caps');
  if (caps) hello.capabilities = caps.split(',').filter(Boolean);
  const boot = kv.get('boot');
  if (boot !== undefined && BOOT.test(boot)) hello.boot = boot;
  // 1.2: the board reports by scans of this period. A value out of range is ignored, as an unknown key is.
  const scan = Number(kv.get('scan'));
  if (isScanPeriod(scan)) hello.scanMs = scan;
  return ok({ events: [hello], hello });
}

/** The capability (1.9) a board must announce in `caps=` before the host sends it this command. */
export const LINE_COMMAND_CAPABILITY: Partial<Readonly<Record<HostCommand['type'], string>>> = {
  history: 'history',
  'set-clock': 'clock',
  display: 'text',
  leds: 'leds',
};

/** A host command → host line body, or undefined when the line protocol has no such command. */
export function hostLineBody(cmd: HostCommand): string | undefined {
  switch (cmd.type) {
    case 'snapshot':
      return 'dump';
    case 'ping':
      return cmd.token ? `ping ${cmd.token.replace(/[^A-Za-z0-9._-]/g, '_')}` : 'ping';
    case 'identify':
      return 'ident';
    case 'history':
      return `history ${Math.max(0, Math.min(0xffffffff, Math.floor(cmd.after)))}`;
    case 'set-clock':
      return `clock ${Math.max(0, Math.round(cmd.white))} ${Math.max(0, Math.round(cmd.black))} ${sideChar(cmd.running)}`;
    case 'display':
      return `text ${sanitizeText(cmd.text)}`.trimEnd();
    case 'leds':
      return `leds ${cmd.squares.length ? cmd.squares.join(',') : '-'}`;
    default:
      return undefined;
  }
}

/**
 * Board side: a host line body → the command; undefined for an unknown type (a newer minor version's
 * command, which the board ignores).
 */
export function parseHostLine(body: string): Result<HostCommand> | undefined {
  const space = body.indexOf(' ');
  const type = space < 0 ? body : body.slice(0, space);
  const rest = space < 0 ? '' : body.slice(space + 1);
  const args = rest.split(' ').filter(Boolean);
  switch (type) {
    case 'dump':
      return ok({ type: 'snapshot' });
    case 'ping':
      return ok(args[0] ? { type: 'ping', token: args[0] } : { type: 'ping' });
    case 'ident':
      return ok({ type: 'identify' });
    case 'history': {
      const after = u32(args[0]);
      return after === undefined
        ? bad(`history: bad event number "${args[0] ?? ''}"`)
        : ok({ type: 'history', after });
    }
    case 'clock': {
      const clock = clockArgs(args);
      return clock.ok ? ok({ type: 'set-clock', ...clock.value }) : clock;
    }
    case 'text':
      return ok({ type: 'display', text: rest });
    case 'leds': {
      if (args[0] === '-') return ok({ type: 'leds', squares: [] });
      const squares = (args[0] ?? '').split(',').map(Number);
      return squares.every((s) => Number.isInteger(s) && s >= 1 && s <= 50)
        ? ok({ type: 'leds', squares })
        : bad(`leds: bad squares "${args[0] ?? ''}"`);
    }
    default:
      return undefined;
  }
}
