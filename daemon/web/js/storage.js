// The console's banner when the daemon cannot write to its disk (full, I/O error), from /health:
// the boards are still followed and broadcast from memory, but arbiter calls are refused until
// the journal writes again — the arbiter must know before deciding anything.
import { formatTime } from './format.js';
import { pollHealth } from './health.js';

/** The banner's text for a /health answer, or '' when the journal and the log file write. */
export function storageWarning(health) {
  const lines = [];
  const j = health?.journal;
  if (j && j.ok === false) {
    lines.push(
      `The journal cannot write${j.since ? ` since ${formatTime(j.since)}` : ''} (${j.reason}): ` +
        `${j.behind} board inputs are kept in memory (at most ${j.bound}). The boards are still followed ` +
        'and broadcast, but decisions, results and player changes are refused until it writes again. ' +
        'Free disk space on the daemon’s machine.',
    );
  }
  const log = health?.log;
  if (log && log.ok === false) {
    lines.push(
      `The log file cannot be written (${log.reason})${log.dropped ? `: ${log.dropped} lines dropped` : ''}.`,
    );
  }
  return lines.join(' ');
}

export function followStorage(banner) {
  return pollHealth((health) => {
    const text = storageWarning(health);
    banner.hidden = text === '';
    banner.textContent = text;
  });
}
