// One WebSocket to the daemon's API (docs/design.md envelope): client `{ id, call, param }`,
// server `{ response: 'call'|'feed'|'error', id, param, time }`. Reconnects with backoff and calls
// `onOpen` each time so the caller can resubscribe from the versions it already has.

/**
 * The wait before the next attempt: the backoff step spread over ±50 % at random, so after a
 * daemon restart a hall full of viewers comes back over seconds, not in one burst.
 */
export function retryDelay(stepMs, random = Math.random) {
  return Math.round(stepMs * (0.5 + random()));
}

export class Connection {
  /**
   * @param {{ url: string, onOpen?: (c: Connection) => void, onFeed?: (param: any, msg: any) => void,
   *           onStatus?: (status: 'connecting'|'open'|'closed'|'stopped') => void }} options
   */
  constructor(options) {
    this.options = options;
    this.nextId = 1;
    this.pending = new Map();
    this.socket = null;
    this.retryMs = 250;
    this.stopped = false;
    this.status = 'closed';
    /** Server time minus local time (ms), from the last message's `time`. */
    this.serverOffset = 0;
  }

  start() {
    this.stopped = false;
    this.open();
    return this;
  }

  stop() {
    this.stopped = true;
    this.socket?.close();
  }

  /** Sends a call; resolves with the response's `param`, rejects with the error's. */
  call(call, param) {
    const id = this.nextId++;
    return new Promise((resolve, reject) => {
      if (!this.socket || this.socket.readyState !== WebSocket.OPEN) {
        reject(new Error('not connected'));
        return;
      }
      this.pending.set(id, { resolve, reject });
      this.socket.send(JSON.stringify(param === undefined ? { id, call } : { id, call, param }));
    });
  }

  open() {
    this.setStatus('connecting');
    const socket = new WebSocket(this.options.url);
    this.socket = socket;
    socket.addEventListener('open', () => {
      this.retryMs = 250;
      this.setStatus('open');
      this.options.onOpen?.(this);
    });
    socket.addEventListener('message', (e) => this.receive(e.data));
    socket.addEventListener('close', () => {
      if (this.socket !== socket) return;
      this.socket = null;
      for (const p of this.pending.values()) p.reject(new Error('connection closed'));
      this.pending.clear();
      this.setStatus(this.stopped ? 'stopped' : 'closed');
      if (!this.stopped) {
        setTimeout(() => this.open(), retryDelay(this.retryMs));
        this.retryMs = Math.min(this.retryMs * 2, 4000);
      }
    });
  }

  receive(data) {
    let msg;
    try {
      msg = JSON.parse(data);
    } catch {
      return;
    }
    if (typeof msg.time === 'number') this.serverOffset = msg.time - Date.now();
    const waiting = msg.id !== undefined ? this.pending.get(msg.id) : undefined;
    if (msg.response === 'feed') {
      this.options.onFeed?.(msg.param, msg);
    } else if (waiting) {
      this.pending.delete(msg.id);
      if (msg.response === 'error')
        waiting.reject(Object.assign(new Error(errorText(msg.param)), { param: msg.param }));
      else waiting.resolve(msg.param);
    }
  }

  setStatus(status) {
    this.status = status;
    this.options.onStatus?.(status);
  }
}

function errorText(param) {
  if (typeof param === 'string') return param;
  return param?.message ?? param?.error ?? JSON.stringify(param);
}

/** `ws(s)://host/api/v1` for the page's own origin. */
export function apiSocketUrl(location, query = '') {
  const scheme = location.protocol === 'https:' ? 'wss:' : 'ws:';
  return `${scheme}//${location.host}/api/v1${query}`;
}
