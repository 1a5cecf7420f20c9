// Seeded fuzzing of the three decoders, shared by the CI test (10^5 inputs) and the benchmark (10^6).
// Each input is a stream of valid frames from the board-side encoder, damaged one way (random bytes,
// truncation, a flipped bit, garbage between frames) and cut into random chunks, followed by a clean
// tail. Checks: push never throws; damage that must be noticed gives a fault; the clean tail decodes.
import {
  type BoardEvent,
  concatBytes,
  createBoardEncoder,
  createDecoder,
  type ProtocolName,
  rotateBoard,
  startPosition,
} from '../../firmware-protocol/index.ts';

export function mulberry32(seed: number): () => number {
  let a = seed >>> 0;
  return () => {
    a = (a + 0x6d2b79f5) >>> 0;
    let t = a;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
}

type Rng = () => number;
const int = (rng: Rng, n: number): number => Math.floor(rng() * n);
const pick = <T>(rng: Rng, xs: readonly T[]): T => xs[int(rng, xs.length)];

const PIECES = ['w', 'b', 'W', 'B'] as const;

function randomBoard(rng: Rng, n: number): string {
  let s = '';
  for (let i = 0; i < n; i++) s += rng() < 0.5 ? '.' : pick(rng, PIECES);
  return s;
}

/** A random event every protocol's board side can say (HID only says board changes). */
export function randomEvent(rng: Rng, protocol: ProtocolName, t: number): BoardEvent {
  const n = 50;
  const kinds =
    protocol === 'hid'
      ? ['lift', 'put', 'snapshot']
      : ['lift', 'put', 'put', 'lift', 'snapshot', 'clock', 'press', 'hello', 'tick', 'fault'];
  const kind = pick(rng, kinds);
  switch (kind) {
    case 'lift':
      return { t, type: 'lift', square: 1 + int(rng, n) };
    case 'put':
      return { t, type: 'put', square: 1 + int(rng, n), piece: pick(rng, PIECES) };
    case 'snapshot':
      return { t, type: 'snapshot', board: rng() < 0.2 ? startPosition(10) : randomBoard(rng, n) };
    case 'clock':
      return {
        t,
        type: 'clock',
        white: int(rng, 7200) * 1000,
        black: int(rng, 7200) * 1000,
        running: pick(rng, ['white', 'black', null] as const),
      };
    case 'press':
      return { t, type: 'press', side: pick(rng, ['white', 'black'] as const) };
    case 'hello':
      return {
        t,
        type: 'hello',
        serial: String(10000 + int(rng, 89999)),
        protocol: 'x',
        firmware: '1.02',
        squares: 50,
        senses: 'pieces',
      };
    case 'tick':
      return { t, type: 'tick', reply: 'pong' };
    default:
      return { t, type: 'fault', code: 'board-sensor', message: 'stuck', resync: true };
  }
}

export type Damage = 'random-bytes' | 'truncated' | 'bit-flip' | 'garbage-between' | 'clean';
const DAMAGES: readonly Damage[] = ['random-bytes', 'truncated', 'bit-flip', 'garbage-between', 'clean'];

export interface FuzzStats {
  inputs: number;
  bytes: number;
  events: number;
  uncaught: number;
  /** Damage that had to give a fault and did not. */
  missedFaults: number;
  /** Clean tails that did not decode to what they carry. */
  notRecovered: number;
  firstProblem?: string;
}

const TAIL_BOARD = `${'b'.repeat(15)}${'.'.repeat(20)}${'w'.repeat(14)}W`;

/** Frames that end every input: after them the decoder must be back in step. */
function cleanTail(protocol: ProtocolName): {
  bytes: Uint8Array[];
  check: (events: BoardEvent[]) => boolean;
} {
  const enc = createBoardEncoder(protocol);
  if (protocol === 'line') {
    const frames = [
      Uint8Array.of(0x0a),
      enc.encode({ t: 0, type: 'hello', serial: 'TAIL', protocol: 'x', squares: 50, senses: 'pieces' }),
      enc.encode({ t: 0, type: 'lift', square: 17 }),
    ];
    return {
      bytes: frames,
      check: (ev) => {
        const [h, l] = ev.slice(-2);
        return h?.type === 'hello' && h.serial === 'TAIL' && l?.type === 'lift' && l.square === 17;
      },
    };
  }
  if (protocol === 'dgt') {
    return {
      bytes: [enc.encode({ t: 0, type: 'snapshot', board: TAIL_BOARD })],
      check: (ev) => {
        const last = ev.at(-1);
        return (
          last?.type === 'snapshot' && (last.board === TAIL_BOARD || last.board === rotateBoard(TAIL_BOARD))
        );
      },
    };
  }
  const a = enc.encode({ t: 0, type: 'snapshot', board: TAIL_BOARD });
  const b = enc.encode({ t: 0, type: 'lift', square: 50 });
  return {
    bytes: [a, b],
    check: (ev) => {
      const last = ev.at(-1);
      return last?.type === 'lift' && (last.square === 50 || last.square === 1);
    },
  };
}

/** One input; updates `stats`. */
export function fuzzOne(rng: Rng, protocol: ProtocolName, stats: FuzzStats): void {
  const enc = createBoardEncoder(protocol);
  const frames: Uint8Array[] = [];
  const count = 1 + int(rng, 6);
  for (let i = 0; frames.length < count; i++) {
    const f = enc.encode(randomEvent(rng, protocol, i));
    if (f.length) frames.push(f);
  }
  const damage = pick(rng, DAMAGES);
  let mustFault = false;
  let body: Uint8Array[];
  switch (damage) {
    case 'random-bytes': {
      const junk = new Uint8Array(1 + int(rng, 64));
      for (let i = 0; i < junk.length; i++) junk[i] = int(rng, 256);
      body = [junk];
      break;
    }
    case 'truncated': {
      const victim = int(rng, frames.length);
      const f = frames[victim];
      const cut = 1 + int(rng, Math.max(1, f.length - 1));
      if (cut < f.length) {
        frames[victim] = f.subarray(0, cut);
        // A cut-short message is always noticed, except a HID report whose id was cut off, and a line
        // that lost only its LF (the tail's LF completes it).
        // (DGT: one encode may give two messages; a cut between them leaves two whole ones.)
        mustFault =
          protocol === 'hid' ? cut > 1 : protocol === 'dgt' ? (f[cut] & 0x80) === 0 : cut < f.length - 1;
      }
      body = protocol === 'hid' ? frames : [concatBytes(frames.slice(0, victim + 1))];
      break;
    }
    case 'bit-flip': {
      const victim = int(rng, frames.length);
      const f = Uint8Array.from(frames[victim]);
      const at = int(rng, f.length);
      const bit = protocol === 'dgt' && rng() < 0.5 ? 7 : int(rng, 8);
      f[at] ^= 1 << bit;
      frames[victim] = f;
      // Line: CRC-16 catches every single-bit error. DGT: the high bit always breaks framing, and a
      // length byte of a fixed-size message always fails the length check. HID has no check at all.
      mustFault = protocol === 'line' || (protocol === 'dgt' && (bit === 7 || at === 1 || at === 2));
      body = frames;
      break;
    }
    case 'garbage-between': {
      const at = int(rng, frames.length + 1);
      const junk = new Uint8Array(2 + int(rng, 16));
      for (let i = 0; i < junk.length; i++) junk[i] = int(rng, 256);
      if (protocol === 'line') {
        junk[0] = 0x21 + int(rng, 9); // starts with a printable char that cannot end a line…
        junk[junk.length - 1] = 0x0a; // …and ends with a line break
      }
      if (protocol === 'dgt') junk[0] &= 0x7f; // garbage after a complete message: outside any frame
      frames.splice(at, 0, junk);
      mustFault = protocol !== 'hid';
      body = frames;
      break;
    }
    default:
      body = frames;
  }
  const tail = cleanTail(protocol);
  const dec = createDecoder(protocol);
  const out: BoardEvent[] = [];
  const feed = (chunk: Uint8Array, t: number) => {
    try {
      const ev = dec.push(chunk, t);
      for (const e of ev) {
        out.push(e);
        if (e.type === 'fault' && e.code === 'internal') throw new Error(e.message);
      }
    } catch (e) {
      stats.uncaught++;
      stats.firstProblem ??= `${protocol}/${damage}: ${(e as Error).stack}`;
    }
  };
  let t = 0;
  for (const part of body) {
    stats.bytes += part.length;
    if (protocol === 'hid') {
      feed(part, t++); // HID: one report per push
      continue;
    }
    // Cut into random chunks: frames split at random offsets.
    let at = 0;
    while (at < part.length) {
      const len = 1 + int(rng, part.length - at);
      feed(part.subarray(at, at + len), t++);
      at += len;
    }
  }
  const faultsBeforeTail = out.some((e) => e.type === 'fault');
  for (const part of tail.bytes) feed(part, t++);
  const faulted = faultsBeforeTail || out.some((e) => e.type === 'fault');
  stats.inputs++;
  stats.events += out.length;
  if (mustFault && !faulted) {
    stats.missedFaults++;
    stats.firstProblem ??= `${protocol}/${damage}: no fault`;
  }
  if (!tail.check(out)) {
    stats.notRecovered++;
    stats.firstProblem ??= `${protocol}/${damage}: tail not decoded, got ${JSON.stringify(out.slice(-3))}`;
  }
}

export function fuzz(inputs: number, seed: number): FuzzStats {
  const rng = mulberry32(seed);
  const stats: FuzzStats = { inputs: 0, bytes: 0, events: 0, uncaught: 0, missedFaults: 0, notRecovered: 0 };
  const protocols: ProtocolName[] = ['line', 'dgt', 'hid'];
  for (let i = 0; i < inputs; i++) fuzzOne(rng, protocols[i % 3], stats);
  return stats;
}
