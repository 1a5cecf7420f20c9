// The console's "Published" panel: each publish target's state from the arbiter's `health` call
// (docs/api.md), so the arbiter sees at once when the broadcast outside the hall has stopped following the boards.
import { escapeHtml } from '../shared/format.js';
import { pollHealth } from './health.js';
import { publishStatus } from '../shared/publish-status.js';
import { formatTimeOfDay, t } from '../shared/i18n.js';

const BADGE = { ok: 'state-active', sending: 'state-connecting', failing: 'state-lost' };

/** The panel's rows, one per target. */
export function publishRowsHtml(targets) {
  return targets
    .map((target) => {
      const status = publishStatus(target);
      const error = target.lastError
        ? `${formatTimeOfDay(target.lastError.at)} ${escapeHtml(target.lastError.message)}` +
          (target.retryAt ? ` · ${t('publish.nextTry', { time: formatTimeOfDay(target.retryAt) })}` : '')
        : '';
      return (
        `<tr data-status="${status}"><td>${escapeHtml(target.target)}</td>` +
        `<td><span class="badge ${BADGE[status]}">${t(`publish.state.${status}`)}</span></td>` +
        `<td>${target.lastSuccess ? formatTimeOfDay(target.lastSuccess) : t('publish.never')}</td>` +
        `<td>${target.pending}</td><td class="publish-error">${status === 'failing' ? error : ''}</td></tr>`
      );
    })
    .join('');
}

/**
 * Follows /health while the page is open. The panel stays hidden, and polling stops, when the
 * daemon publishes nothing (its config is read once, at start).
 */
export function followPublishing(section, rows, read) {
  const stop = pollHealth((health) => {
    if (!Array.isArray(health.publish)) {
      stop();
      return;
    }
    section.hidden = health.publish.length === 0;
    rows.innerHTML = publishRowsHtml(health.publish);
  }, read);
}
