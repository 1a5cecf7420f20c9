// The thread of pages-ahead.ts (plain JavaScript: the thread runs without tsx). Reads a round's
// pages with its own connection, in one read transaction, and hands each over as it is read, at
// most AHEAD before the one being applied.
import { workerData } from 'node:worker_threads';
import Database from 'better-sqlite3';

const { path, sql, args, page, port, flow, ahead } = workerData;
// flow[0]: pages handed over; flow[1]: pages taken.
const handOver = (message) => {
  port.postMessage(message);
  Atomics.add(flow, 0, 1);
  Atomics.notify(flow, 0);
};

try {
  const db = new Database(path, { readonly: true, fileMustExist: true });
  const statement = db.prepare(sql).raw(true);
  db.exec('BEGIN');
  let after = 0;
  for (;;) {
    for (
      let taken = Atomics.load(flow, 1);
      Atomics.load(flow, 0) - taken >= ahead;
      taken = Atomics.load(flow, 1)
    )
      Atomics.wait(flow, 1, taken, 1000);
    const row = statement.get(...args, after, page);
    handOver({ row });
    const [last, count] = row;
    if (last === null || count < page) break;
    after = last;
  }
  db.exec('COMMIT');
  db.close();
} catch (e) {
  // The rebuild reads the rest itself.
  handOver({ error: String(e) });
}
