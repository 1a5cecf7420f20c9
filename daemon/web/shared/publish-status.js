// A publish target's state in one word, from /health: the console's panel and the server's
// /health summary say it alike.

/**
 * `ok` (nothing waiting), `sending` (moves on their way) or `failing` (the last try failed).
 * @param {{ failures: number, pending: number, uploading?: boolean }} target
 * @returns {'ok' | 'sending' | 'failing'}
 */
export function publishStatus(target) {
  if (target.failures > 0) return 'failing';
  return target.pending > 0 || target.uploading ? 'sending' : 'ok';
}
