// Polls the daemon's /health while the page is open (its JSON comes with 503 too: the reason).
const POLL_MS = 5000;

/** Calls `onHealth` with each answer; returns the stop. A daemon away is skipped (the badge says so). */
export function pollHealth(onHealth, everyMs = POLL_MS) {
  const poll = async () => {
    try {
      onHealth(await (await fetch('health', { cache: 'no-store' })).json());
    } catch {
      // The daemon is away: the connection badge already says so.
    }
  };
  const timer = setInterval(poll, everyMs);
  void poll();
  return () => clearInterval(timer);
}
