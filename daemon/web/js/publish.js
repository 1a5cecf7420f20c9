// The console's "Published" panel: each publish target's state from /health (docs/api.md), so the
// arbiter sees at once when the broadcast outside the hall has stopped following the boards.
import { escapeHtml, formatTime } from './format.js';
import { pollHealth } from './health.js';

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

/**
 * Follows /health while the page is open. The panel stays hidden, and polling stops, when the
 * daemon publishes nothing (its config is read once, at start).
 */
export function followPublishing(section, rows) {
  const stop = pollHealth((health) => {
    if (!Array.isArray(health.publish)) {
      stop();
      return;
    }
    section.hidden = health.publish.length === 0;
    rows.innerHTML = publishRowsHtml(health.publish);
  });
}
