// The checkpoint thread of checkpointer.ts (plain JavaScript: the thread runs without tsx).
import { parentPort, workerData } from 'node:worker_threads';
import Database from 'better-sqlite3';

const db = new Database(workerData.path, { fileMustExist: true });
const timer = setInterval(() => {
  try {
    db.pragma('wal_checkpoint(PASSIVE)');
  } catch {
    // A full disk or an I/O error: tried again on the next turn (checkpointer.ts).
  }
}, workerData.everyMs);

parentPort.on('message', () => {
  clearInterval(timer);
  db.close();
  parentPort.close();
});
