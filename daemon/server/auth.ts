// Who may do what: spectators read; the arbiter and admin tokens allow arbiter calls and the alerts
// feed. Nothing is granted by where a connection comes from: a web page open on the daemon's own
// machine connects from loopback too.
import { createHash, timingSafeEqual } from 'node:crypto';
import { hostname, networkInterfaces } from 'node:os';
import { setRecent } from '../keyed.ts';

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

/** A `Host` header's name without its port, lower case, IPv6 without brackets. */
export function hostName(host: string): string {
  const bracketed = /^\[([^\]]+)\](?::\d+)?$/.exec(host);
  if (bracketed) return bracketed[1].toLowerCase();
  return host.replace(/:\d+$/, '').toLowerCase();
}

/**
 * Whether `host` (a `Host` header) names this machine: a loopback name or address, its host name
 * (also `.local`), one of its own addresses now, or a name the configuration adds (`allowedHosts`,
 * a reverse proxy's public name). A page of any other name that reaches the daemon got there by a
 * DNS answer it does not control (DNS rebinding): its origin equals its Host, yet it is not ours.
 */
export function hostAllowed(host: string | undefined, extra: readonly string[] = []): boolean {
  if (host === undefined) return false;
  const name = hostName(host);
  if (name === 'localhost' || name.endsWith('.localhost') || name === '::1' || /^127\./.test(name))
    return true;
  const own = hostname().toLowerCase();
  if (name === own || name === `${own}.local`) return true;
  if (extra.some((h) => h.toLowerCase() === name)) return true;
  return Object.values(networkInterfaces()).some((list) =>
    (list ?? []).some((i) => i.address.toLowerCase() === name),
  );
}

/**
 * Whether a browser page at `origin` is the daemon's own (served by it: the origin's host is the
 * request's `Host`, a name of this machine) or one the configuration allows. No `Origin` at all
 * (scripts, tools — browsers always send one on a WebSocket) leaves the judgement to the token.
 */
export function originAllowed(
  origin: string | undefined,
  host: string | undefined,
  allowed: readonly string[] = [],
  allowedHosts: readonly string[] = [],
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
  return (
    host !== undefined && url.host.toLowerCase() === host.toLowerCase() && hostAllowed(host, allowedHosts)
  );
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
    setRecent(this.byAddress, key, entry, this.limits.addresses);
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
