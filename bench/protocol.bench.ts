// `npm run bench -- protocol`: 10^6 seeded fuzz inputs over the three decoders, then decode
// throughput on clean streams. Prints `name value unit` lines.
import {
  type BoardEvent,
  createBoardEncoder,
  createDecoder,
  PROTOCOLS,
  type ProtocolName,
} from '../firmware-protocol/index.ts';
import { fuzz, mulberry32, randomEvent } from '../test/firmware-protocol/fixtures/fuzz-harness.ts';

const FUZZ_INPUTS = Number(process.env.FUZZ_INPUTS ?? 1_000_000);

const t0 = performance.now();
const stats = fuzz(FUZZ_INPUTS, 1);
const fuzzSeconds = (performance.now() - t0) / 1000;
console.log(`fuzz_inputs ${stats.inputs} count`);
console.log(`fuzz_bytes ${stats.bytes} bytes`);
console.log(`fuzz_uncaught_errors ${stats.uncaught} count`);
console.log(`fuzz_missed_faults ${stats.missedFaults} count`);
console.log(`fuzz_not_recovered ${stats.notRecovered} count`);
console.log(`fuzz_seconds ${fuzzSeconds.toFixed(1)} s`);
if (stats.firstProblem) console.error(`first problem: ${stats.firstProblem}`);

/** A clean recorded stream of `n` events (HID: one report each). */
function cleanStream(protocol: ProtocolName, n: number): Uint8Array[] {
  const rng = mulberry32(42);
  const enc = createBoardEncoder(protocol);
  const chunks: Uint8Array[] = [];
  for (let i = 0; chunks.length < n; i++) {
    const bytes = enc.encode(randomEvent(rng, protocol, i));
    if (bytes.length) chunks.push(bytes);
  }
  return chunks;
}

let totalEvents = 0;
let totalSeconds = 0;
for (const protocol of PROTOCOLS) {
  const chunks = cleanStream(protocol, 200_000);
  // Serial ports hand over a few hundred bytes at a time: group frames into ~256-byte chunks.
  let grouped: Uint8Array[] = [];
  if (protocol === 'hid') grouped = chunks;
  else {
    for (let i = 0; i < chunks.length; ) {
      const group: Uint8Array[] = [];
      let size = 0;
      while (i < chunks.length && size < 256) {
        group.push(chunks[i]);
        size += chunks[i++].length;
      }
      grouped.push(Buffer.concat(group));
    }
  }
  const run = () => {
    const dec = createDecoder(protocol);
    let events = 0;
    let faults = 0;
    for (let i = 0; i < grouped.length; i++) {
      const out: BoardEvent[] = dec.push(grouped[i], i);
      events += out.length;
      for (const e of out) if (e.type === 'fault' && !e.code.startsWith('board-')) faults++;
    }
    return { events, faults };
  };
  run(); // warm-up
  const start = performance.now();
  const { events, faults } = run();
  const seconds = (performance.now() - start) / 1000;
  if (faults) console.error(`${protocol}: ${faults} faults on a clean stream`);
  totalEvents += events;
  totalSeconds += seconds;
  console.log(`decode_events_per_s_${protocol} ${Math.round(events / seconds)} events/s`);
}
console.log(`decode_events_per_s ${Math.round(totalEvents / totalSeconds)} events/s`);
process.exitCode = stats.uncaught || stats.missedFaults || stats.notRecovered ? 1 : 0;
