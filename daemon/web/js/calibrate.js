// The console's calibration page: pick a connected board, follow the prompts (large, the square to
// touch marked on the board), see the progress, the check at the end and the profile saved. Speaks
// the arbiter calls `calibrate` and `calibrate-cancel`; the session's outputs arrive as feed
// messages of the `calibrate` call (docs/api.md).
import { boardSvg } from '../shared/board-svg.js';
import { pieceCodesText, promptFen, promptMessage, promptSquare } from './calibration.js';
import { apiSocketUrl, Connection } from './connection.js';
import { $, arbiterCall as callAsArbiter } from './dom.js';
import { escapeHtml } from '../shared/format.js';
import { boardWidth } from '../shared/geometry.js';
import { t } from '../shared/i18n.js';
import { setupPage, showStatus } from './page.js';
import { takeToken } from './token.js';

await setupPage();

const token = takeToken();
let connection = null;
/** The calibration under way: its board and the board's width. */
let running = null;
/** The profile of the last `done`, summed up once `saved` comes. */
let learned = null;

function show(part) {
  for (const id of ['choose', 'session', 'result']) $(id).hidden = id !== part;
}

const arbiterCall = (call, param) => callAsArbiter(connection, token, call, param);

/** Every board of the round; only connected ones can be calibrated. */
async function listBoards() {
  const answer = await connection.call('boards');
  const select = $('board-select');
  const chosen = select.value;
  select.replaceChildren();
  for (const row of answer.boards ?? []) {
    const label = t('calibrate.boardOption', {
      board: row.board,
      serial: row.serial ?? '—',
      state: row.calibrating ? t('calibrate.beingCalibrated') : t(`state.${row.state}`),
    });
    const option = new Option(label, String(row.board), false, String(row.board) === chosen);
    option.disabled = row.calibrating || (row.state !== 'active' && row.state !== 'silent');
    select.add(option);
  }
  if (select.selectedOptions[0]?.disabled !== false) {
    const first = [...select.options].find((o) => !o.disabled);
    if (first) select.value = first.value;
  }
  $('start').disabled = ![...select.options].some((o) => !o.disabled);
}

async function start() {
  const board = Number($('board-select').value);
  if (!board) return;
  let snapshot;
  try {
    [snapshot] = await arbiterCall('games', { board });
  } catch {
    return;
  }
  running = { board, width: boardWidth(snapshot?.info.variant) };
  learned = null;
  $('board-title').textContent = t('board.n', { board });
  $('prompt').textContent = t('calibrate.waiting');
  $('prompt').removeAttribute('data-action');
  $('picture').replaceChildren();
  $('progress').value = 0;
  $('progress-text').textContent = '';
  $('learned-text').textContent = '';
  show('session');
  try {
    await arbiterCall('calibrate', { board });
  } catch {
    running = null;
    show('choose');
  }
}

function showPrompt(prompt) {
  const { key, params } = promptMessage(prompt);
  const text = t(key, params);
  const el = $('prompt');
  el.textContent = text;
  el.dataset.action = prompt.action;
  el.dataset.square = String(prompt.square ?? '');
  el.dataset.piece = prompt.piece ?? '';
  $('progress').max = prompt.of;
  $('progress').value = prompt.n - 1;
  $('progress-text').textContent = t('calibrate.step', { n: prompt.n, of: prompt.of });
  const square = promptSquare(prompt);
  $('picture').innerHTML = boardSvg({
    fen: promptFen(prompt, running.width),
    variant: running.width === 8 ? 'brazilian' : 'international',
    marks: square ? [square] : [],
    numbers: true,
    label: text,
  });
}

function summaryHtml(saved, profile) {
  const learnedRows = profile ? profileRows(profile) : [];
  const rows = [
    ['serial', t('calibrate.serial'), escapeHtml(saved.serial)],
    ['order', t('calibrate.fieldOrder'), escapeHtml(t(`calibrate.order.${saved.fieldOrder}`))],
    ...learnedRows,
    ['file', t('calibrate.file'), `<code>${escapeHtml(saved.file)}</code>`],
  ];
  return rows
    .map(([name, term, value]) => `<dt>${escapeHtml(term)}</dt><dd data-field="${name}">${value}</dd>`)
    .join('');
}

/** What the profile says of the fields and the pieces. */
function profileRows(profile) {
  return [
    [
      'fields',
      t('calibrate.fields'),
      escapeHtml(t('calibrate.fieldCount', { fields: profile.fields, light: profile.lightFields.length })),
    ],
    [
      'pieces',
      t('calibrate.pieceCodes'),
      profile.pieces
        ? `<code>${escapeHtml(pieceCodesText(profile))}</code> · ${escapeHtml(t(`calibrate.kings.${profile.kings}`))}`
        : `${escapeHtml(t('calibrate.occupancy'))} <code>${escapeHtml(pieceCodesText(profile))}</code>`,
    ],
  ];
}

/** The end: the profile saved, or why not (the wizard's own words under the reason's heading). */
function finish(output) {
  const board = running?.board;
  running = null;
  const saved = output.type === 'saved';
  $('result-title').textContent = t(saved ? 'calibrate.savedTitle' : 'calibrate.failedTitle', { board });
  $('check').hidden = !saved;
  $('summary').hidden = !saved;
  $('failure').hidden = saved;
  if (saved) $('summary').innerHTML = summaryHtml(output, learned);
  else {
    $('failure').dataset.code = output.code;
    $('failure').textContent = [t(`calibrate.failure.${output.code}`), output.message]
      .filter(Boolean)
      .join('\n');
  }
  show('result');
  void listBoards().catch(() => {});
}

function receive(param) {
  if (param?.kind !== 'calibration' || param.board !== running?.board) return;
  const out = param.output;
  switch (out.type) {
    case 'board':
      $('board-title').textContent = t('calibrate.boardSerial', { board: param.board, serial: out.serial });
      break;
    case 'prompt':
      showPrompt(out.prompt);
      break;
    case 'learned':
      $('learned-text').textContent = t('calibrate.learned', { n: out.n, of: out.of });
      break;
    case 'done':
      learned = out.profile;
      break;
    case 'saved':
    case 'failed':
      finish(out);
      break;
  }
}

function connect() {
  connection = new Connection({
    url: apiSocketUrl(location),
    onStatus: (status) => {
      showStatus($('status'), status);
      // The daemon ends a calibration whose connection went away.
      if (status === 'closed' && running) finish({ type: 'failed', code: 'disconnected', message: '' });
    },
    onOpen: async (c) => {
      try {
        await c.call('auth', { token });
      } catch {
        $('token-needed').hidden = false;
        connection.stop();
        return;
      }
      await listBoards();
      if (!running) show($('result').hidden ? 'choose' : 'result');
    },
    onFeed: receive,
  }).start();
}

$('start').addEventListener('click', () => void start());
$('cancel').addEventListener('click', () => {
  if (running) void arbiterCall('calibrate-cancel', { board: running.board }).catch(() => {});
});
$('again').addEventListener('click', () => show('choose'));
$('board-select').addEventListener('focus', () => void listBoards().catch(() => {}));

if (token) connect();
else $('token-needed').hidden = false;
