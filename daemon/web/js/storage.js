// The console's banner when the daemon cannot write to its disk (full, I/O error), from the
// arbiter's `health` call:
// the boards are still followed and broadcast from memory, but arbiter calls are refused until
// the journal writes again — the arbiter must know before deciding anything.
import { pollHealth } from './health.js';
import { formatTimeOfDay, t } from '../shared/i18n.js';

/** The banner's text for a /health answer, or '' when the journal and the log file write. */
export function storageWarning(health) {
  const lines = [];
  const j = health?.journal;
  if (j && j.ok === false) {
    const since = j.since ? t('storage.since', { time: formatTimeOfDay(j.since) }) : '';
    lines.push(t('storage.journal', { since, reason: j.reason, behind: j.behind, bound: j.bound }));
  }
  const log = health?.log;
  if (log && log.ok === false) {
    const dropped = log.dropped ? t('storage.dropped', { count: log.dropped }) : '';
    lines.push(t('storage.log', { reason: log.reason, dropped }));
  }
  return lines.join(' ');
}

export function followStorage(banner, read) {
  return pollHealth((health) => {
    const text = storageWarning(health);
    banner.hidden = text === '';
    banner.textContent = text;
  }, read);
}
