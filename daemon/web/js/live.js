// Follows every board of the current round over the WebSocket API (docs/api.md, feed `round`)
// into a GameStore. On every (re)connection it subscribes with `since` = the versions it already
// holds, so the server sends only what was missed (or a fresh snapshot) — no reload, no duplicates.
import { apiSocketUrl, Connection } from './connection.js';

const ROUND_FEED = 'round';

/**
 * @param {import('./store.js').GameStore} store
 * @param {{ location: Location, onStatus?: (s: string) => void, onOpen?: (c: Connection) => Promise<void> | void,
 *   onItem?: (item: any, msg: any) => void }} options
 */
export function followRound(store, options) {
  let resyncing = false;
  /** The daemon run our versions belong to: after a restart it differs and we get snapshots. */
  let epoch;
  const subscribe = async (conn) => {
    const param = { feed: 'round', id: ROUND_FEED, since: store.versions() };
    const answer = await conn.call('subscribe', epoch ? { ...param, epoch } : param);
    if (typeof answer?.epoch === 'string') epoch = answer.epoch;
  };

  // Subscribing again under the same id replaces the subscription (docs/api.md).
  const resync = async (conn) => {
    if (resyncing) return;
    resyncing = true;
    try {
      await subscribe(conn);
    } finally {
      resyncing = false;
    }
  };

  const conn = new Connection({
    url: apiSocketUrl(options.location),
    onStatus: options.onStatus,
    onOpen: async (c) => {
      try {
        await options.onOpen?.(c);
        await subscribe(c);
      } catch (e) {
        console.warn('subscribe failed', e);
      }
    },
    onFeed: (item, msg) => {
      if (msg.id !== ROUND_FEED) {
        options.onItem?.(item, msg);
        return;
      }
      if (item.kind === 'snapshot') {
        store.setSnapshot({ ...item.snapshot, version: item.version ?? item.snapshot.version });
      } else if (typeof item.version === 'number') {
        if (store.applyEvent(item) === 'gap') resync(conn);
      }
      options.onItem?.(item, msg);
    },
  });
  return conn.start();
}
