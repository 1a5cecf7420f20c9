// The dispute view: every sensor event around one alert, from the last settled move to the
// decision (or now), the board drawn at each step with the pieces in the hand, the clock presses
// on a timeline, the rule beside it. Printable, and exportable as the JSON lines `damlink replay` reads.
import { boardSvg } from '../shared/board-svg.js';
import { apiSocketUrl, Connection } from './connection.js';
import { describePosition } from './describe.js';
import { $ } from './dom.js';
import { writeFen } from '../shared/fen.js';
import { escapeHtml } from '../shared/format.js';
import { formatTimeOfDay, t } from '../shared/i18n.js';
import { setupPage } from './page.js';
import { alertSide, alertText, ruleText } from './rules.js';
import { disputeSteps } from './steps.js';
import { eventText, offsetText } from './timeline.js';
import { takeToken } from './token.js';

await setupPage();

const query = new URLSearchParams(location.search);
const board = Number(query.get('board'));
const alertId = query.get('alert') ?? '';
const view = { steps: [], step: 0, events: [], alert: null, snapshot: null, startFen: '' };
const token = takeToken();

function fail(text) {
  $('dispute-message').hidden = false;
  $('dispute-message').textContent = text;
  $('dispute').hidden = true;
}

/** The last move settled before the irregularity: where the story starts. */
function lastSettled(snapshot, alert) {
  const before = snapshot.moves.filter((m) => m.ply < alert.ply);
  const move = before[before.length - 1];
  if (move) return { fen: move.fenAfter, t: move.t, label: move.pdn };
  // No move before it: from the start position, with the proof's first event.
  return { fen: snapshot.startFen, t: alert.events?.[0]?.t ?? alert.t, label: t('dispute.gameStart') };
}

async function load(c) {
  if (token) await c.call('auth', { token });
  const [snapshot] = await c.call('games', { board });
  const alert = snapshot?.alerts.find((a) => a.id === alertId);
  if (!alert) {
    fail(t('dispute.noAlert', { alert: alertId, board }));
    return;
  }
  const from = lastSettled(snapshot, alert);
  // Undecided: everything up to now (board time runs on the daemon's clock, not this one's).
  const until = alert.decision?.t ?? Number.MAX_SAFE_INTEGER;
  const answer = await c.call('sensor-events', {
    board,
    from: from.t,
    to: until,
    ...(token ? { token } : {}),
  });
  // A hub that keeps no journal: the alert's own proof is all there is.
  const events = answer.events.length ? answer.events : (alert.events ?? []);
  const to = alert.decision?.t ?? events[events.length - 1]?.t ?? alert.t;
  Object.assign(view, { snapshot, alert: { ...alert, board }, events, startFen: from.fen });
  view.steps = disputeSteps(from.fen, events);
  view.step = 0;
  renderHead(from, to, answer.truncated);
  renderEvents();
  renderStep();
  $('dispute-message').hidden = true;
  $('dispute').hidden = false;
  $('export').disabled = false;
}

function renderHead(from, to, truncated) {
  const { snapshot: s, alert: a } = view;
  document.title = t('dispute.title', { board });
  $('dispute-title').textContent = `· ${t('board.n', { board })} · ${a.rule}`;
  $('rule-title').textContent = `${a.rule} — ${t(`rule.title.${a.rule}`)}`;
  $('summary').textContent = t('dispute.summary', {
    board,
    white: s.info.white ?? t('side.white'),
    black: s.info.black ?? t('side.black'),
    ply: a.ply,
    side: alertSide(a),
  });
  $('alert-text').textContent = alertText(a);
  $('rule-text').textContent = ruleText(a.rule);
  const end = a.decision
    ? t('dispute.toDecision', { time: formatTimeOfDay(to) })
    : t('dispute.toNow', { time: formatTimeOfDay(to) });
  $('window').textContent = t('dispute.window', { from: from.label, to: end });
  $('truncated').hidden = !truncated;
  $('truncated').textContent = t('dispute.truncated', { count: view.events.length });
  $('step-range').max = String(view.steps.length - 1);
  $('replay-command').textContent =
    `damlink replay --events ${exportName()} --fen "${view.startFen}" --variant ${s.info.variant}`;
}

function handText(hand) {
  return hand.length ? hand.map((h) => `${h.piece ?? '?'}${h.square}`).join(' ') : t('dispute.handEmpty');
}

function renderEvents() {
  const t0 = view.steps[0].t;
  $('event-rows').innerHTML = view.steps
    .slice(1)
    .map(
      (s) =>
        `<tr data-step="${s.index}" class="ev-${escapeHtml(s.event.type)}"><td>${s.index}</td>` +
        `<td>${offsetText(s.t - t0)}</td><td>${escapeHtml(eventText(s.event))}</td><td>${escapeHtml(handText(s.hand))}</td></tr>`,
    )
    .join('');
  $('timeline').innerHTML = timelineSvg();
}

/** Every event as a mark on one time axis: lifts up, puts down, clock presses full height. */
function timelineSvg() {
  const steps = view.steps.slice(1);
  if (!steps.length) return '';
  const t0 = view.steps[0].t;
  const span = Math.max(1, steps[steps.length - 1].t - t0);
  const x = (time) => (8 + ((time - t0) / span) * 984).toFixed(1);
  const marks = steps
    .map((s) => {
      const kind = s.event.type;
      const [y1, y2] = kind === 'lift' ? [8, 30] : kind === 'put' ? [30, 52] : [4, 56];
      return (
        `<line class="mark ev-${escapeHtml(kind)}" data-step="${s.index}" x1="${x(s.t)}" x2="${x(s.t)}" y1="${y1}" y2="${y2}">` +
        `<title>${escapeHtml(`${offsetText(s.t - t0)} ${eventText(s.event)}`)}</title></line>`
      );
    })
    .join('');
  const decision = view.alert.decision
    ? `<line class="mark decision" x1="${x(view.alert.decision.t)}" x2="${x(view.alert.decision.t)}" y1="0" y2="60"/>`
    : '';
  return (
    `<svg class="time-axis" viewBox="0 0 1000 60" preserveAspectRatio="none" role="img" aria-label="${escapeHtml(t('dispute.timeline'))}">` +
    `<line class="axis" x1="8" x2="992" y1="30" y2="30"/>${marks}${decision}` +
    `<line class="cursor" id="cursor" x1="0" x2="0" y1="0" y2="60"/></svg>` +
    `<div class="axis-labels"><span>${offsetText(0)}</span><span>${offsetText(span)}</span></div>`
  );
}

function renderStep() {
  const step = view.steps[view.step];
  const { snapshot } = view;
  const fen = writeFen(readTurn(view.startFen), step.pieces);
  const marks = step.event?.square ? [step.event.square] : [];
  $('step-board').innerHTML =
    boardSvg({
      fen,
      variant: snapshot.info.variant,
      marks,
      numbers: true,
      label: t('dispute.step', { step: view.step, total: view.steps.length - 1 }),
      describedBy: 'step-text',
    }) + `<p id="step-text" class="sr-only">${escapeHtml(describePosition(fen))}</p>`;
  $('step-info').textContent = t('dispute.step', { step: view.step, total: view.steps.length - 1 });
  $('step-info').dataset.step = String(view.step);
  $('step-event').textContent = step.event
    ? `${offsetText(step.t - view.steps[0].t)} · ${formatTimeOfDay(step.t)} · ${eventText(step.event)}`
    : t('dispute.stepStart');
  $('hand').innerHTML = step.hand.length
    ? step.hand
        .map((h) => {
          const color = h.piece === 'b' || h.piece === 'B' ? 'black' : 'white';
          return `<span class="in-hand"><span class="disc ${color}" aria-hidden="true"></span>${escapeHtml(`${h.piece ?? '?'}${h.square}`)}</span>`;
        })
        .join(' ')
    : escapeHtml(t('dispute.handEmpty'));
  $('hand').dataset.count = String(step.hand.length);
  $('step-range').value = String(view.step);
  for (const row of $('event-rows').children)
    row.classList.toggle('current', Number(row.dataset.step) === view.step);
  const cursor = $('cursor');
  if (cursor) {
    const x = step.event
      ? document.querySelector(`.mark[data-step="${view.step}"]`)?.getAttribute('x1')
      : '8';
    cursor.setAttribute('x1', x ?? '8');
    cursor.setAttribute('x2', x ?? '8');
  }
}

function readTurn(fen) {
  return fen.trim()[0]?.toUpperCase() === 'B' ? 'black' : 'white';
}

function go(to) {
  const last = view.steps.length - 1;
  const next = { first: 0, prev: view.step - 1, next: view.step + 1, last }[to] ?? Number(to);
  view.step = Math.max(0, Math.min(last, next));
  renderStep();
}

function exportName() {
  return `board-${board}-${alertId.replace(/[^\w.-]+/g, '_')}.jsonl`;
}

/** The JSON lines `damlink replay --events` reads: the events as the board sent them, ticks too. */
function exportEvents() {
  const text = view.events.map((e) => JSON.stringify(e)).join('\n') + '\n';
  const a = document.createElement('a');
  a.href = URL.createObjectURL(new Blob([text], { type: 'application/x-ndjson' }));
  a.download = exportName();
  document.body.append(a);
  a.click();
  a.remove();
  setTimeout(() => URL.revokeObjectURL(a.href), 10_000);
}

$('step-nav').addEventListener('click', (e) => {
  const to = /** @type {HTMLElement} */ (e.target).closest('[data-step]')?.dataset.step;
  if (to) go(to);
});
$('step-range').addEventListener('input', (e) => go(/** @type {HTMLInputElement} */ (e.target).value));
$('event-rows').addEventListener('click', (e) => {
  const row = /** @type {HTMLElement} */ (e.target).closest('tr[data-step]');
  if (row) go(row.dataset.step);
});
$('timeline').addEventListener('click', (e) => {
  const mark = /** @type {Element} */ (e.target).closest('.mark[data-step]');
  if (mark) go(mark.getAttribute('data-step'));
});
document.addEventListener('keydown', (e) => {
  if (e.altKey || e.ctrlKey || e.metaKey || view.steps.length === 0) return;
  if (/** @type {HTMLElement} */ (e.target).matches?.('input, textarea, select')) return;
  const to = { ArrowLeft: 'prev', ArrowRight: 'next', Home: 'first', End: 'last' }[e.key];
  if (to) {
    e.preventDefault();
    go(to);
  }
});
$('print').addEventListener('click', () => window.print());
$('export').addEventListener('click', exportEvents);

if (!Number.isInteger(board) || !alertId)
  fail(t('dispute.noAlert', { alert: alertId, board: query.get('board') ?? '?' }));
else {
  const connection = new Connection({
    url: apiSocketUrl(location),
    onOpen: (c) => {
      // One load per page: a reconnect does not redraw what the arbiter is looking at.
      if (view.steps.length) return;
      load(c).catch((e) => fail(e.param?.code === 'unauthorized' ? t('arbiter.tokenRequired') : e.message));
    },
  });
  connection.start();
}
