// Who may do what: spectators read; the arbiter and admin tokens allow arbiter calls and the alerts
// feed. Nothing is granted by where a connection comes from: a web page open on the daemon's own
// machine connects from loopback too.
import { createHash, timingSafeEqual } from 'node:crypto';

export type Role = 'spectator' | 'arbiter' | 'admin';

export interface Tokens {
  arbiter?: string;
  admin?: string;
}

const digest = (s: string): Buffer => createHash('sha256').update(s).digest();

/** Compares in constant time (hashes first, so lengths do not leak either). */
function same(a: string, b: string): boolean {
  return timingSafeEqual(digest(a), digest(b));
}

/** The role a token grants, or undefined when it is wrong. */
export function roleOf(tokens: Tokens, token: string): Role | undefined {
  if (tokens.admin && same(token, tokens.admin)) return 'admin';
  if (tokens.arbiter && same(token, tokens.arbiter)) return 'arbiter';
  return undefined;
}

/**
 * Whether a browser page at `origin` is the daemon's own (served by it: the origin's host is the
 * request's `Host`) or one the configuration allows. No `Origin` at all (scripts, tools — browsers
 * always send one on a WebSocket) leaves the judgement to the token.
 */
export function originAllowed(
  origin: string | undefined,
  host: string | undefined,
  allowed: readonly string[] = [],
): boolean {
  if (origin === undefined) return true;
  let url: URL;
  try {
    url = new URL(origin);
  } catch {
    return false;
  }
  if (allowed.some((a) => sameOrigin(a, url.origin))) return true;
  if (url.protocol !== 'http:' && url.protocol !== 'https:') return false;
  return host !== undefined && url.host.toLowerCase() === host.toLowerCase();
}

function sameOrigin(configured: string, origin: string): boolean {
  try {
    return new URL(configured).origin === origin;
  } catch {
    return false;
  }
}

export interface AuthLimits {
  /** Wrong tokens one address may try per window before it is refused for the rest of it. */
  failures: number;
  windowMs: number;
  /** Addresses remembered at most (the oldest are forgotten first). */
  addresses: number;
}

export const DEFAULT_AUTH_LIMITS: AuthLimits = { failures: 10, windowMs: 60_000, addresses: 10_000 };

/**
 * Wrong tokens per client address, across its connections: past the limit a token is not even
 * compared until the window is over, so guessing runs at `failures` a window whatever the client
 * does. IPv6 addresses count per /64, the block one subscriber usually holds.
 */
export class AuthLimiter {
  private readonly byAddress = new Map<string, { since: number; failures: number }>();
  private readonly limits: AuthLimits;
  private readonly now: () => number;

  constructor(limits: Partial<AuthLimits> = {}, now: () => number = Date.now) {
    this.limits = { ...DEFAULT_AUTH_LIMITS, ...limits };
    this.now = now;
  }

  /** Whether a token from this address may be compared now. */
  allows(address: string | undefined): boolean {
    const entry = this.current(addressKey(address));
    return !entry || entry.failures < this.limits.failures;
  }

  /** A wrong token from this address. */
  failed(address: string | undefined): void {
    const key = addressKey(address);
    const entry = this.current(key) ?? { since: this.now(), failures: 0 };
    entry.failures++;
    this.byAddress.delete(key); // re-inserted last: the map's order is the age of the last failure
    this.byAddress.set(key, entry);
    if (this.byAddress.size > this.limits.addresses)
      this.byAddress.delete(this.byAddress.keys().next().value!);
  }

  private current(key: string): { since: number; failures: number } | undefined {
    const entry = this.byAddress.get(key);
    if (entry && this.now() - entry.since >= this.limits.windowMs) {
      this.byAddress.delete(key);
      return undefined;
    }
    return entry;
  }
}

/** The key an address is counted under: IPv4 as it is, IPv6 by its /64. */
export function addressKey(address: string | undefined): string {
  if (!address) return '?';
  const v4 = /^::ffff:(\d+\.\d+\.\d+\.\d+)$/i.exec(address);
  if (v4) return v4[1];
  if (!address.includes(':')) return address;
  const [head, tail = ''] = address.toLowerCase().split('::');
  const left = head ? head.split(':') : [];
  const right = tail ? tail.split(':') : [];
  const groups = address.includes('::')
    ? [...left, ...Array(Math.max(0, 8 - left.length - right.length)).fill('0'), ...right]
    : left;
  return `${groups.slice(0, 4).join(':')}::/64`;
}
