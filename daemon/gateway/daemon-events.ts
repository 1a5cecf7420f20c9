// One board's events after a version, asked of the daemon that holds it over its own WebSocket API
// (`subscribe` with `since`, then `ping`: its answer comes after the catch-up), for a gateway that
// missed them on the broker.
import WebSocket from 'ws';
import type { GameEvent } from '../../src/game/types.ts';
import { MAX_PAYLOAD, readDaemonEvent } from './messages.ts';

const TIMEOUT_MS = 5000;

/**
 * The events, or undefined when the daemon no longer keeps them (it sent a snapshot), is away, or
 * sends more than `budget` bytes (what the gateway may hold of one board).
 */
export function daemonEvents(
  api: string,
  board: number,
  version: number,
  budget: number,
): Promise<GameEvent[] | undefined> {
  return new Promise((resolve) => {
    // A frame is at most an event's payload and its envelope; the whole catch-up, what a board may
    // hold from the broker: a daemon that sends more is not read further.
    const ws = new WebSocket(`${api.replace(/^http/, 'ws')}/api/v1`, { maxPayload: 2 * MAX_PAYLOAD });
    const events: GameEvent[] = [];
    let bytes = 0;
    let complete = true;
    const finish = (value: GameEvent[] | undefined) => {
      clearTimeout(timer);
      ws.removeAllListeners();
      ws.on('error', () => {});
      ws.terminate();
      resolve(value);
    };
    const timer = setTimeout(() => finish(undefined), TIMEOUT_MS);
    ws.on('error', () => finish(undefined));
    ws.on('open', () => {
      ws.send(
        JSON.stringify({
          id: 'catch-up',
          call: 'subscribe',
          param: { feed: 'board', board, since: version },
        }),
      );
      ws.send(JSON.stringify({ id: 'done', call: 'ping' }));
    });
    ws.on('message', (data: Buffer) => {
      bytes += data.length;
      if (bytes > budget) return finish(undefined);
      let message: { response?: string; id?: unknown; param?: { kind?: string; version?: unknown } };
      try {
        message = JSON.parse(data.toString());
      } catch {
        return;
      }
      if (message.response === 'feed' && message.param) {
        if (message.param.kind === 'snapshot') {
          complete = false;
          return;
        }
        // Checked as a broker message is: one that does not read, or goes back, ends the catch-up.
        const read = readDaemonEvent(message.param, board);
        const last = events.at(-1)?.version ?? version;
        if (!read || read.version <= last) finish(undefined);
        else events.push(read);
      } else if (message.id === 'done') finish(complete ? events : undefined);
      else if (message.response === 'error') finish(undefined);
    });
  });
}
