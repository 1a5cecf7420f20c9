// The console's tournament pages: players, pairings, results, standings. Reads
// `/api/v1/tournament` and `/rounds/<n>/standings.json`; changes go through the arbiter's calls
// (`players`, `player`, `pairings`, `table-result`, `round`; docs/api.md). A player's whole record
// (birth date, sex: not in the public JSON) comes from the arbiter's `tournament` call.
import { apiSocketUrl, Connection } from './connection.js';
import { $, arbiterCall as callAsArbiter } from './dom.js';
import { escapeHtml } from '../shared/format.js';
import { formatNumber, language, t, sideName } from '../shared/i18n.js';
import { setupPage, showStatus } from './page.js';
import { toast } from './toast.js';
import { takeToken } from './token.js';

await setupPage();

const RESULTS = ['*', '2-0', '1-1', '0-2', '1+-1-', '1--1+', '+-', '-+', '--'];
const TIEBREAKS = ['solkoff', 'solkoff-truncated', 'median', 'sonneborn-berger', 'wins', 'plus-minus'];

const token = takeToken();
let state = { round: 1, event: null };
/** The round being played's proposed results awaiting confirmation, by board (= table). */
let proposals = new Map();
let connection = null;
let standingsAsked = 0;

const arbiterCall = (call, param) => callAsArbiter(connection, token, call, param);

/** Column headings: `tournament.col.<name>`, the sides, and the tie-breaks short with the full name as a hint. */
function heading(name) {
  if (name === 'white' || name === 'black') return `<th scope="col">${escapeHtml(sideName(name))}</th>`;
  if (!TIEBREAKS.includes(name)) return `<th scope="col">${escapeHtml(t(`tournament.col.${name}`))}</th>`;
  const full = escapeHtml(t(`tournament.tiebreak.${name}`));
  return `<th scope="col"><abbr title="${full}">${escapeHtml(t(`tournament.tiebreakShort.${name}`))}</abbr></th>`;
}
/** A row of headings or of text cells; `more` is markup for cells of its own (buttons). */
const head = (names, more = '') => `<tr>${names.map(heading).join('')}${more}</tr>`;
const row = (cells, more = '') =>
  `<tr>${cells.map((c) => `<td>${escapeHtml(c ?? '')}</td>`).join('')}${more}</tr>`;

/** The result as the calls write it (`1+-1-`, `+-`…). */
function resultText(result) {
  if (!result) return '*';
  if (result.kind === 'forfeit') return { white: '+-', black: '-+', none: '--' }[result.winner];
  if (result.advantage) return result.advantage === 'white' ? '1+-1-' : '1--1+';
  return result.score;
}

const playerName = (start) => state.event?.players.find((p) => p.start === start)?.name ?? `#${start}`;
const roundOf = (n) => state.event?.rounds.find((r) => r.number === n);

function fillRounds(select, extra = 0) {
  const numbers = new Set([...(state.event?.rounds ?? []).map((r) => r.number), state.round]);
  for (let i = 1; i <= extra; i++) numbers.add(Math.max(...numbers) + 1);
  const chosen = Number(select.value) || state.round;
  select.innerHTML = [...numbers]
    .sort((a, b) => a - b)
    .map((n) => `<option value="${n}"${n === chosen ? ' selected' : ''}>${n}</option>`)
    .join('');
}

/** The fields the player form edits, by their input's name (the `player` call's names). */
const PLAYER_FIELDS = ['name', 'fmjdId', 'rating', 'federation', 'club', 'title', 'birth', 'sex'];

function renderPlayers() {
  $('players-head').innerHTML = head(
    ['start', 'name', 'fmjd', 'rating', 'federation', 'club', 'group'],
    '<td></td>',
  );
  const players = state.event?.players ?? [];
  // A withdrawal counts from the round after the one being played; taken back the same way.
  const withdraw = (p) =>
    p.withdrawn
      ? `<span class="withdrawn">${escapeHtml(t('tournament.withdrawnFrom', { round: p.withdrawn }))}</span> <button type="button" data-return="${p.start}">${escapeHtml(t('tournament.comeBack'))}</button>`
      : `<button type="button" data-withdraw="${p.start}">${escapeHtml(t('tournament.withdraw'))}</button>`;
  const edit = (p) =>
    `<td><button type="button" data-edit="${p.start}" aria-label="${escapeHtml(t('tournament.editPlayer', { name: p.name }))}">${escapeHtml(t('tournament.edit'))}</button> ${withdraw(p)}</td>`;
  $('players-rows').innerHTML = players.length
    ? players
        .map((p) => row([p.start, p.name, p.fmjdId, p.rating, p.federation, p.club, p.group], edit(p)))
        .join('')
    : `<tr><td colspan="8" class="empty">${escapeHtml(t('tournament.noTournament'))}</td></tr>`;
}

/**
 * Opens the form with the player's record as it is — the whole record, asked of the arbiter's call
 * (the public JSON has no birth dates or sex, and a field left out of the form would be cleared).
 */
async function openPlayerForm(start) {
  const whole = await arbiterCall('tournament', {}).catch(() => undefined);
  if (!whole) return;
  state.event = whole;
  const player = whole.players.find((p) => p.start === start);
  if (!player) return;
  const form = $('player-form');
  form.dataset.start = String(start);
  $('player-title').textContent = t('tournament.editPlayer', { name: player.name });
  for (const name of PLAYER_FIELDS) form.elements[name].value = player[name] ?? '';
  $('player-errors').hidden = true;
  $('player-dialog').showModal();
}

/**
 * Saves the form: every field sent, an empty one cleared. The daemon checks them (as it checks a
 * file's players); what it refuses is shown in the form, each field it names marked.
 */
async function savePlayer() {
  const form = $('player-form');
  const param = { start: Number(form.dataset.start) };
  for (const name of PLAYER_FIELDS) {
    const value = form.elements[name].value.trim();
    if (value === '') continue;
    // A rating that is not a number goes as typed, for the daemon to say so.
    const number = Number(value);
    param[name] = name === 'rating' && Number.isFinite(number) ? number : value;
  }
  const errors = $('player-errors');
  for (const name of PLAYER_FIELDS) form.elements[name].removeAttribute('aria-invalid');
  try {
    await connection.call('player', token ? { ...param, token } : param);
  } catch (e) {
    const problems = e.message.split('; ');
    errors.textContent = problems.join('\n');
    errors.hidden = false;
    for (const p of problems) {
      const field = /^param\.(\w+):/.exec(p)?.[1];
      if (PLAYER_FIELDS.includes(field)) form.elements[field].setAttribute('aria-invalid', 'true');
    }
    return;
  }
  $('player-dialog').close();
  toast(t('tournament.playerSaved'));
  await refresh();
}

function renderPairings() {
  const n = Number($('pairings-round').value);
  const round = roundOf(n);
  const sheet = /** @type {HTMLAnchorElement} */ ($('pairings-sheet'));
  sheet.href = `rounds/${n}/pairings`;
  sheet.hidden = !round;
  // Before its first result a round is reviewed: colours swapped, two players exchanged (a bye too).
  const open = Boolean(round?.pairings.length) && !round.pairings.some((p) => p.result);
  $('pairings-head').innerHTML = head(['table', 'white', 'black'], open ? '<th></th>' : '');
  const swap = (p) =>
    `<td><button type="button" data-swap="${p.table}">${escapeHtml(t('tournament.swapColours'))}</button></td>`;
  $('pairings-rows').innerHTML = round?.pairings.length
    ? round.pairings
        .map((p) => row([p.table, playerName(p.white), playerName(p.black)], open ? swap(p) : ''))
        .join('')
    : `<tr><td colspan="3" class="empty">${escapeHtml(t('tournament.noPairings'))}</td></tr>`;
  $('pairings-review').hidden = !open;
  if (open) {
    const seated = [
      ...round.pairings.flatMap((p) => [p.white, p.black]),
      ...round.byes.filter((b) => b.kind === 'pairing').map((b) => b.player),
    ].sort((x, y) => x - y);
    const options = seated.map((s) => `<option value="${s}">${escapeHtml(playerName(s))}</option>`).join('');
    for (const id of ['exchange-a', 'exchange-b']) $(id).innerHTML = options;
  }
  const byes = round?.byes ?? [];
  $('pairings-byes').textContent = byes.length
    ? t('tournament.byes', {
        list: byes.map((b) => `${playerName(b.player)} (${t(`tournament.bye.${b.kind}`)})`).join(', '),
      })
    : '';
  $('round-start').hidden = !round?.pairings.length || n === state.round;
}

function renderResults() {
  const n = Number($('results-round').value);
  const round = roundOf(n);
  $('results-head').innerHTML = head(['table', 'white', 'black', 'result']);
  if (!round?.pairings.length) {
    $('results-rows').innerHTML =
      `<tr><td colspan="4" class="empty">${escapeHtml(t('tournament.noPairings'))}</td></tr>`;
    return;
  }
  $('results-rows').innerHTML = round.pairings
    .map((p) => {
      const now = resultText(p.result);
      const options = RESULTS.map((r) => `<option${r === now ? ' selected' : ''}>${r}</option>`).join('');
      const select = `<select data-table="${p.table}" aria-label="${escapeHtml(t('tournament.resultLabel', { table: p.table }))}">${options}</select>`;
      // A result the rules, a flag or the board proposed waits for the arbiter: confirmed here too.
      const proposed = n === state.round && !p.result ? proposals.get(p.table) : undefined;
      const proposal = proposed
        ? ` <span class="proposal">${escapeHtml(t('arbiter.proposed'))} <strong>${escapeHtml(proposed.result)}</strong> — ${escapeHtml(proposed.reason)} <button type="button" data-confirm="${p.table}">${escapeHtml(t('arbiter.confirm'))}</button></span>`
        : '';
      return `<tr><td>${p.table}</td><td>${escapeHtml(playerName(p.white))}</td><td>${escapeHtml(playerName(p.black))}</td><td>${select}${proposal}</td></tr>`;
    })
    .join('');
}

async function renderStandings() {
  const n = Number($('standings-round').value) || state.round;
  // The page the server writes speaks the language chosen here.
  $('standings-link').href = `rounds/${n}/standings?lang=${language()}`;
  if (!state.event) {
    $('standings-tables').innerHTML = `<p class="empty">${escapeHtml(t('tournament.noTournament'))}</p>`;
    return;
  }
  const asked = ++standingsAsked;
  const res = await fetch(`rounds/${n}/standings.json`);
  if (!res.ok) return;
  const doc = await res.json();
  // An answer to an older question (another round chosen meanwhile) is not shown.
  if (asked !== standingsAsked) return;
  $('standings-tables').innerHTML = doc.groups
    .map((g) => {
      const caption = g.group ? `<caption>${escapeHtml(g.group)}</caption>` : '';
      const rows = g.rows.map((r) =>
        row(
          [r.rank, r.start, r.name, r.points, ...TIEBREAKS.map((k) => r.tiebreaks[k])].map((c) =>
            // Numbers as the reader writes them (0,5 in Polish).
            typeof c === 'number' ? formatNumber(c, { useGrouping: false }) : c,
          ),
        ),
      );
      return `<table class="boards standings">${caption}<thead>${head(['rank', 'start', 'name', 'points', ...TIEBREAKS])}</thead><tbody>${rows.join('')}</tbody></table>`;
    })
    .join('');
}

async function refresh() {
  const res = await fetch('api/v1/tournament');
  if (!res.ok) return;
  state = await res.json();
  const games = await fetch('api/v1/games').then((r) => (r.ok ? r.json() : []));
  proposals = new Map(
    games.flatMap((g) => {
      const table = g.tableGame ?? g;
      return table.proposedResult && table.result === '*' ? [[g.info.board, table.proposedResult]] : [];
    }),
  );
  $('event-title').textContent = state.event?.name || t('tournament.heading');
  $('round-title').textContent = `— ${t('round.n', { round: state.round })}`;
  for (const id of ['pairings-round', 'results-round', 'standings-round']) fillRounds($(id));
  renderPlayers();
  renderPairings();
  // Without a pairing program the manual route is offered, not a button that can only refuse.
  $('round-pair').hidden = !state.pairing;
  $('pair-manual').hidden = Boolean(state.pairing);
  if (!state.pairing) $('pairings-import-box').open = true;
  // Not under the arbiter's hand while they choose a result.
  if (!document.activeElement?.closest('#results-rows')) renderResults();
  await renderStandings();
}

function showPage() {
  const page = location.hash.slice(1) || 'players';
  for (const s of /** @type {NodeListOf<HTMLElement>} */ (document.querySelectorAll('section[data-page]')))
    s.hidden = s.dataset.page !== page;
  for (const a of document.querySelectorAll('nav a'))
    a.setAttribute('aria-current', a.dataset.page === page ? 'page' : 'false');
}

function wire() {
  window.addEventListener('hashchange', showPage);
  $('pairings-round').addEventListener('change', renderPairings);
  $('results-round').addEventListener('change', renderResults);
  $('standings-round').addEventListener('change', () => void renderStandings());
  $('results-rows').addEventListener('change', async (e) => {
    const select = /** @type {HTMLSelectElement | null} */ (
      /** @type {HTMLElement} */ (e.target).closest('select[data-table]')
    );
    if (!select) return;
    const param = {
      round: Number($('results-round').value),
      table: Number(select.dataset.table),
      result: select.value,
    };
    await arbiterCall('table-result', param).then(
      () => toast(t('tournament.saved')),
      () => {},
    );
    await refresh();
  });
  $('results-rows').addEventListener('click', async (e) => {
    const button = /** @type {HTMLElement} */ (e.target).closest('button[data-confirm]');
    if (!button) return;
    const board = Number(button.dataset.confirm);
    await arbiterCall('result', { board, result: 'proposed' }).then(
      (answer) => toast(t('arbiter.confirmedResult', { board, result: answer?.result ?? '' })),
      () => {},
    );
    await refresh();
  });
  $('players-rows').addEventListener('click', (e) => {
    const target = /** @type {HTMLElement} */ (e.target);
    const button = target.closest('button[data-edit]');
    if (button) void openPlayerForm(Number(button.dataset.edit));
    const out = target.closest('button[data-withdraw], button[data-return]');
    if (!out) return;
    const start = Number(out.dataset.withdraw ?? out.dataset.return);
    const round = out.dataset.withdraw ? state.round + 1 : null;
    void arbiterCall('withdraw', { start, round }).then(refresh, () => {});
  });
  $('player-form').addEventListener('submit', (e) => {
    e.preventDefault();
    void savePlayer();
  });
  $('player-cancel').addEventListener('click', () => $('player-dialog').close());
  $('players-import').addEventListener('click', async () => {
    await arbiterCall('players', { csv: $('players-csv').value }).then(
      () => toast(t('tournament.imported')),
      () => {},
    );
    await refresh();
  });
  $('pairings-import').addEventListener('click', async () => {
    const errors = $('pairings-errors');
    try {
      await connection.call('pairings', {
        round: Number($('import-round').value),
        csv: $('pairings-csv').value,
        ...(token ? { token } : {}),
      });
      errors.hidden = true;
      toast(t('tournament.imported'));
    } catch (e) {
      // One problem a line, each with its line number.
      errors.textContent = e.message.split('; ').join('\n');
      errors.hidden = false;
    }
    await refresh();
  });
  $('round-pair').addEventListener('click', async () => {
    const n = Math.max(0, ...(state.event?.rounds ?? []).map((r) => r.number)) + 1;
    await arbiterCall('pair', { round: n }).then(
      (a) => toast(t('tournament.paired', { round: n, pairings: a.pairings, byes: a.byes })),
      () => {},
    );
    await refresh();
    $('pairings-round').value = String(n);
    renderPairings();
  });
  const edit = async (e) => {
    const n = Number($('pairings-round').value);
    await arbiterCall('edit-pairings', { round: n, edit: e }).then(
      () => toast(t('tournament.edited', { round: n })),
      () => {},
    );
    await refresh();
  };
  $('pairings-rows').addEventListener('click', (ev) => {
    const button = /** @type {HTMLElement} */ (ev.target).closest('[data-swap]');
    if (button) void edit({ kind: 'swap-colours', table: Number(button.getAttribute('data-swap')) });
  });
  $('exchange').addEventListener('click', () => {
    const a = Number(/** @type {HTMLSelectElement} */ ($('exchange-a')).value);
    const b = Number(/** @type {HTMLSelectElement} */ ($('exchange-b')).value);
    void edit({ kind: 'exchange', a, b });
  });
  $('round-start').addEventListener('click', async () => {
    const n = Number($('pairings-round').value);
    await arbiterCall('round', { round: n }).then(
      () => toast(t('tournament.started', { round: n })),
      () => {},
    );
    await refresh();
  });
}

function connect() {
  connection = new Connection({
    url: apiSocketUrl(location),
    onStatus: (status) => showStatus($('status'), status),
    onOpen: async (c) => {
      if (token) await c.call('auth', { token }).catch(() => {});
    },
  }).start();
}

wire();
showPage();
connect();
await refresh();
// Results arrive from the boards too.
setInterval(() => void refresh(), 5000);
