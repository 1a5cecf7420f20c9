// What publishing costs the daemon in a busy hall, without the network: 200 boards, each with its
// clock read every second and a move about every 10 s, for HALL_S (60) seconds of the hall's time.
// A publish target looks again after each coalesce window (250 ms) in which something changed, as
// the scheduler does: the round's files are made (daemon/publish EventFiles) and compared with what
// the target last acknowledged. Prints `publish_hall_cpu_ms_per_s` (publishing's time per second of
// the hall: the event listener, the files, the comparison), `publish_hall_looks` (windows in which
// the target looked again) and `publish_hall_events` (the boards' events).
import { loadavg } from 'node:os';
import { EventFiles } from '../daemon/publish/index.ts';
import { legalMoves, moveNotation } from '../src/engine/index.ts';
import { createRng } from '../simulator/prng.ts';
import { FakeHub } from '../test/daemon/fixtures/fake-hub.ts';
import { type Player, player } from '../test/src/game/fixtures/helpers.ts';

const BOARDS = 200;
const HALL_S = Number(process.env.PUBLISH_HALL_S ?? 60);
const COALESCE_MS = 250;
const READING_MS = 1000;
const MOVE_MS = 10_000;

const print = (name: string, value: string, unit = '') =>
  console.log(`${name} ${value}${unit ? ` ${unit}` : ''}`);

const rng = createRng(11);
const random = () => rng.next();
const hub = new FakeHub(BOARDS, 1, { event: 'Bench Hall' });
const files = new EventFiles(hub);
const acknowledged = new Map<string, string>();
let spent = 0;
let dirty = true;
let events = 0;
hub.subscribe((e) => {
  events++;
  const from = performance.now();
  // An EventFiles that cannot tell (its `changed` answers nothing) looks again after every event.
  if (files.changed(e) !== false) dirty = true;
  spent += performance.now() - from;
});

const players: Player[] = Array.from({ length: BOARDS }, () => player());
/** Per board: ms left each side, and when its next move and reading are due. */
const boards = players.map((_, i) => ({
  white: 5_400_000,
  black: 5_400_000,
  nextMove: Math.floor(random() * MOVE_MS),
  nextReading: Math.floor((i * READING_MS) / BOARDS),
}));

let looks = 0;
for (let now = 0; now < HALL_S * 1000; now += COALESCE_MS) {
  const end = now + COALESCE_MS;
  boards.forEach((b, i) => {
    const p = players[i];
    const running = p.position.turn;
    for (; b.nextReading < end; b.nextReading += READING_MS) {
      if (running === 'white') b.white -= READING_MS;
      else b.black -= READING_MS;
      hub.clock(i + 1, b.white, b.black, running);
    }
    if (b.nextMove >= end) return;
    b.nextMove += MOVE_MS / 2 + Math.floor(random() * MOVE_MS);
    const legal = legalMoves(p.position);
    if (legal.length === 0) return;
    const move = legal[Math.floor(random() * legal.length)];
    hub.feed(i + 1, p.move(moveNotation(p.position, move, legal), now));
  });
  if (!dirty) continue;
  dirty = false;
  looks++;
  const from = performance.now();
  for (const f of files.files()) if (acknowledged.get(f.path) !== f.body) acknowledged.set(f.path, f.body);
  spent += performance.now() - from;
}

console.log(`loadavg_1m ${loadavg()[0].toFixed(2)} load`);
print('publish_hall_events', String(events), 'events');
print('publish_hall_looks', String(looks), 'looks');
print('publish_hall_cpu_ms_per_s', (spent / HALL_S).toFixed(1), 'ms');
