// A spectator's view of a daemon under load: WebSocket pings, each timed from its own send.
import WebSocket from 'ws';

/**
 * A spectator's round trip: WebSocket ping to pong, every 50 ms while `during` runs; `sent` counts
 * the pings (those never answered are the difference).
 */
export async function pingsDuring(
  wsUrl: string,
  during: () => Promise<void>,
): Promise<number[] & { sent?: number }> {
  const ws = new WebSocket(wsUrl);
  await new Promise((resolve) => ws.once('open', resolve));
  const trips: number[] = [];
  // Each ping carries its number: a daemon that stalls answers several at once, each timed from its own send.
  const sent = new Map<string, number>();
  let n = 0;
  ws.on('pong', (data: Buffer) => {
    const at = sent.get(data.toString());
    if (at !== undefined) trips.push(performance.now() - at);
  });
  const timer = setInterval(() => {
    const id = String(++n);
    sent.set(id, performance.now());
    ws.ping(id);
  }, 50);
  await during();
  clearInterval(timer);
  ws.close();
  return Object.assign(trips, { sent: n });
}
