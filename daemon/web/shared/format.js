// Small text formatters shared by both pages.

/** Clock time: `1:05:09`, `4:07`, below ten seconds with tenths (`9.4`; `9,4` with `decimal` ','). */
export function formatClock(ms, decimal = '.') {
  if (typeof ms !== 'number' || !Number.isFinite(ms)) return '–';
  const clamped = Math.max(0, ms);
  if (clamped < 10_000) return (Math.floor(clamped / 100) / 10).toFixed(1).replace('.', decimal);
  const total = Math.floor(clamped / 1000);
  const h = Math.floor(total / 3600);
  const m = Math.floor((total % 3600) / 60);
  const s = total % 60;
  const pad = (n) => String(n).padStart(2, '0');
  return h > 0 ? `${h}:${pad(m)}:${pad(s)}` : `${m}:${pad(s)}`;
}

/** Result as printed for spectators. */
export function formatResult(result) {
  return result === '*' || !result ? '' : result;
}

/** Move list rows: `[{ number, white, black }]` where white/black are plies (1-based) or null. */
export function moveRows(moves, startTurn = 'white') {
  const rows = [];
  const offset = startTurn === 'black' ? 1 : 0;
  for (let i = 0; i < moves.length; i++) {
    const slot = i + offset;
    const number = Math.floor(slot / 2) + 1;
    if (slot % 2 === 0 || rows.length === 0) rows.push({ number, white: null, black: null });
    const row = rows[rows.length - 1];
    if (slot % 2 === 0) row.white = i + 1;
    else row.black = i + 1;
  }
  return rows;
}

export function escapeHtml(text) {
  return String(text ?? '').replace(
    /[&<>"']/g,
    (c) => ({ '&': '&amp;', '<': '&lt;', '>': '&gt;', '"': '&quot;', "'": '&#39;' })[c],
  );
}
