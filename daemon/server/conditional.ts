// ETag + Last-Modified for generated answers, so pollers (lidraughts every few seconds) get 304s.
// The ETag is a hash of the body; Last-Modified is when this resource's ETag last changed.
import { createHash } from 'node:crypto';
import type { IncomingMessage } from 'node:http';

export interface Validators {
  etag: string;
  lastModified: Date;
}

export class ValidatorCache {
  private readonly seen = new Map<string, Validators>();
  private readonly now: () => number;

  constructor(now: () => number = Date.now) {
    this.now = now;
  }

  /** Validators of `body` served at `key` (a path). */
  of(key: string, body: string | Buffer): Validators {
    const etag = `"${createHash('sha1').update(body).digest('base64url').slice(0, 22)}"`;
    const known = this.seen.get(key);
    if (known?.etag === etag) return known;
    // HTTP dates have whole seconds.
    const v = { etag, lastModified: new Date(Math.floor(this.now() / 1000) * 1000) };
    if (this.seen.size > 10_000) this.seen.clear();
    this.seen.set(key, v);
    return v;
  }
}

/** Whether the client's copy is current (If-None-Match wins over If-Modified-Since). */
export function notModified(req: IncomingMessage, v: Validators): boolean {
  const inm = req.headers['if-none-match'];
  if (inm !== undefined) {
    const mine = v.etag.replace(/^W\//, '');
    return inm
      .split(',')
      .map((s) => s.trim().replace(/^W\//, '').replace(/-gz"$/, '"'))
      .some((s) => s === '*' || s === mine);
  }
  const ims = req.headers['if-modified-since'];
  if (ims === undefined) return false;
  const since = Date.parse(ims);
  return Number.isFinite(since) && v.lastModified.getTime() <= since;
}
