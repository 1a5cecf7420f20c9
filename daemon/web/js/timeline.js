// Sensor events in words (lift 38, put 33 w, White presses clock) and as a short chip row.
import { escapeHtml } from '../shared/format.js';
import { formatNumber, t, sideName } from '../shared/i18n.js';

export function eventText(e) {
  switch (e.type) {
    case 'lift':
      return t('event.lift', { square: e.square });
    case 'put':
      return e.piece
        ? t('event.putPiece', { square: e.square, piece: e.piece })
        : t('event.put', { square: e.square });
    case 'press':
      return t('event.press', { side: sideName(e.side) });
    case 'clock':
      return e.running ? t('event.clockRuns', { side: sideName(e.running) }) : t('event.clockStopped');
    case 'snapshot':
      return t('event.snapshot');
    default:
      return e.type;
  }
}

/** `+1.25s`: time since the first event, in the reader's number format. */
export function offsetText(ms) {
  return `+${formatNumber(ms / 1000, { minimumFractionDigits: 2, maximumFractionDigits: 2 })}s`;
}

/** The proving sensor events, times relative to the first; a long tail is cut to the last ones. */
const TIMELINE_MAX = 40;
export function timelineHtml(events) {
  if (!events?.length) return '';
  const t0 = events[0].t;
  const cut = events.length > TIMELINE_MAX ? events.length - TIMELINE_MAX : 0;
  const items = events
    .slice(cut)
    .map(
      (e) => `<li class="ev-${escapeHtml(e.type)}">${offsetText(e.t - t0)} ${escapeHtml(eventText(e))}</li>`,
    )
    .join('');
  const more = cut ? `<li class="more">${escapeHtml(t('arbiter.earlierEvents', { count: cut }))}</li>` : '';
  return `<ol class="timeline" aria-label="${escapeHtml(t('arbiter.sensorEvents'))}">${more}${items}</ol>`;
}
