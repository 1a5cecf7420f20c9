// Polls the daemon's health while the page is open: the public /health (its JSON comes with 503
// too), or the arbiter's `health` call, which has the error texts and the publish targets.
const POLL_MS = 5000;

/** The public /health. */
export const publicHealth = async () => (await fetch('health', { cache: 'no-store' })).json();

/**
 * Calls `onHealth` with each answer of `read`; returns the stop. A daemon away (or a read that
 * fails) is skipped: the connection badge already says so.
 */
export function pollHealth(onHealth, read = publicHealth, everyMs = POLL_MS) {
  const poll = async () => {
    try {
      onHealth(await read());
    } catch {
      // The daemon is away: the connection badge already says so.
    }
  };
  const timer = setInterval(poll, everyMs);
  void poll();
  return () => clearInterval(timer);
}
