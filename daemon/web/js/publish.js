// The console's "Published" panel: each publish target's state from /health (docs/api.md), so the
// arbiter sees at once when the broadcast outside the hall has stopped following the boards.
import { escapeHtml, formatTime } from './format.js';

const POLL_MS = 5000;

/** `ok` (nothing waiting), `sending` (moves on their way) or `failing` (the last try failed). */
export function publishStatus(target) {
  if (target.failures > 0) return 'failing';
  return target.pending > 0 || target.uploading ? 'sending' : 'ok';
}

const BADGE = { ok: 'state-active', sending: 'state-connecting', failing: 'state-lost' };

/** The panel's rows, one per target. */
export function publishRowsHtml(targets) {
  return targets
    .map((t) => {
      const status = publishStatus(t);
      const error = t.lastError
        ? `${formatTime(t.lastError.at)} ${escapeHtml(t.lastError.message)}` +
          (t.retryAt ? ` · next try ${formatTime(t.retryAt)}` : '')
        : '';
      return (
        `<tr data-status="${status}"><td>${escapeHtml(t.target)}</td>` +
        `<td><span class="badge ${BADGE[status]}">${status}</span></td>` +
        `<td>${t.lastSuccess ? formatTime(t.lastSuccess) : 'never'}</td>` +
        `<td>${t.pending}</td><td class="publish-error">${status === 'failing' ? error : ''}</td></tr>`
      );
    })
    .join('');
}

/** Polls /health while the page is open; the panel stays hidden when nothing is published. */
export function followPublishing(section, rows) {
  const poll = async () => {
    try {
      const health = await (await fetch('health', { cache: 'no-store' })).json();
      const targets = Array.isArray(health.publish) ? health.publish : [];
      section.hidden = targets.length === 0;
      rows.innerHTML = publishRowsHtml(targets);
    } catch {
      // The daemon is away: the connection badge already says so.
    }
  };
  void poll();
  return setInterval(poll, POLL_MS);
}
