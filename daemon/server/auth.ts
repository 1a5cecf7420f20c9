// Who may do what: spectators read; the arbiter and admin tokens allow arbiter calls and the alerts
// feed. Without any token configured, only loopback connections may act as arbiter.
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

export const hasTokens = (tokens: Tokens): boolean => Boolean(tokens.admin || tokens.arbiter);

export function isLoopback(address: string | undefined): boolean {
  if (!address) return false;
  return address === '::1' || address.startsWith('127.') || address.startsWith('::ffff:127.');
}

/** The role of a new connection: from `?token=`, or implied for loopback when no token exists. */
export function connectionRole(
  tokens: Tokens,
  token: string | null,
  address: string | undefined,
): Role | 'refused' {
  if (token !== null && token !== '') return roleOf(tokens, token) ?? 'refused';
  if (!hasTokens(tokens) && isLoopback(address)) return 'arbiter';
  return 'spectator';
}
