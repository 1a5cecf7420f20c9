// @ts-check
// An alert in words, one table and one sentence for the tracker and the pages: the tracker writes
// an alert's English `message` (PDN comments, MQTT, logs) from them, and the pages take the table
// into their English one (daemon/web/shared/i18n/en.js) and say an alert in the reader's language
// through the same `alertSentence`. Plain JavaScript without imports, so a browser loads it as it
// is: the server serves this file at /src/tracker/alert-words.js.

/** The English words, keyed as the pages' message tables key them. */
export const ALERT_WORDS = {
  'side.white': 'White',
  'side.black': 'Black',
  'alert.text': '{side}: {title}{facts}.',
  'alert.textNoSide': '{title}{facts}.',
  'alert.squares': 'squares {squares}',
  'rule.title.4.11': 'captured pieces removed out of order',
  'rule.title.5.1': 'board turned the wrong way',
  'rule.title.5.3': 'piece on a light square',
  'rule.title.5.4.1': 'two moves in a row',
  'rule.title.5.4.2': 'piece moved in a wrong direction',
  'rule.title.5.4.3': 'touched one piece and moved another',
  'rule.title.5.4.4': 'move taken back',
  'rule.title.5.4.5': "opponent's piece moved",
  'rule.title.5.4.6': 'quiet move although a capture was possible',
  'rule.title.5.4.7': 'piece removed without reason',
  'rule.title.5.4.8': 'fewer pieces captured than possible',
  'rule.title.5.4.9': 'stopped in the middle of a multi-capture',
  'rule.title.5.4.10': 'pieces removed before the multi-capture was finished',
  'rule.title.5.4.11': 'not all captured pieces removed',
  'rule.title.5.4.12': 'removed a piece that was not jumped',
  'rule.title.5.4.13': 'removal of the captured pieces interrupted',
  'rule.title.5.4.14': 'removed own piece after a capture',
  'rule.title.unknown-position': 'board shows no position reachable from the game',
  'rule.title.flag': 'flag fell (time exceeded)',
  'rule.title.flags': 'both flags fell',
  'rule.title.gap': 'moves lost in a gap fit several lines',
  // The sentence that follows the title of every alert of these rules.
  'rule.detail.5.1':
    'The start position stands turned 180° (White on the first squares); damlink reads it turned.',
  'rule.detail.5.3': 'It is out of play.',
};

/**
 * `text` with `{name}` replaced by `params.name`; a placeholder without a value stays, for a test
 * to spot.
 * @param {string} text
 * @param {Record<string, unknown>} [params]
 * @returns {string}
 */
export function fill(text, params) {
  if (!params) return text;
  return text.replace(/\{(\w+)\}/g, (whole, name) =>
    params[name] === undefined ? whole : String(params[name]),
  );
}

/** @typedef {(key: string, params?: Record<string, unknown>) => string} Say */

/** A key's English text (the key itself where the table has none). @type {Say} */
export const english = (key, params) =>
  fill(/** @type {Record<string, string>} */ (ALERT_WORDS)[key] ?? key, params);

/**
 * `5.4.6 White: quiet move although a capture was possible (32-28).`, each word said by `say` (a
 * key's text in the reader's language). `detail`: a sentence of this alert's own, in place of the
 * rule's fixed one.
 * @param {string} rule
 * @param {{ side?: string, move?: string, squares?: readonly number[] }} params
 * @param {Say} say
 * @param {string} [detail]
 * @returns {string}
 */
export function alertSentence(rule, params, say, detail) {
  const facts = [
    params.move,
    params.squares?.length ? say('alert.squares', { squares: params.squares.join(', ') }) : '',
  ]
    .filter(Boolean)
    .join('; ');
  const detailKey = `rule.detail.${rule}`;
  const sentence = detail ?? (detailKey in ALERT_WORDS ? say(detailKey) : undefined);
  // Only article numbers are written before the text: the other ids are not words for people.
  const label = /^\d/.test(rule) ? `${rule} ` : '';
  const title = say(`rule.title.${rule}`);
  const around = facts ? ` (${facts})` : '';
  // No side where no one side is concerned (`flags`: both flags fell, no telling which first).
  const text = params.side
    ? say('alert.text', { side: say(`side.${params.side}`), title, facts: around })
    : say('alert.textNoSide', { title: title.charAt(0).toUpperCase() + title.slice(1), facts: around });
  return label + text + (sentence ? ` ${sentence}` : '');
}
