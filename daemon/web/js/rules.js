// The rule each alert names, in plain words (docs/rules.md), and the alert itself in the reader's
// language from its rule and params (the English `message` is the fallback for alerts without).
import en from './i18n/en.js';
import { t, sideName } from './i18n.js';

const TEXT = 'rule.text.';

/** The English text of every rule id the tracker alerts on (a test keeps the ids in step). */
export const RULE_TEXT = Object.fromEntries(
  Object.entries(en.messages)
    .filter(([key]) => key.startsWith(TEXT))
    .map(([key, text]) => [key.slice(TEXT.length), text]),
);

export function ruleText(rule) {
  return rule in RULE_TEXT ? t(`${TEXT}${rule}`) : t('rule.unknown');
}

/** `White: quiet move although a capture was possible (32-28).` in the page's language. */
export function alertText(alert) {
  const p = alert.params;
  if (!p || !(alert.rule in RULE_TEXT)) return alert.message ?? '';
  const facts = [p.move, p.squares?.length ? t('alert.squares', { squares: p.squares.join(', ') }) : '']
    .filter(Boolean)
    .join('; ');
  const detailKey = `rule.detail.${alert.rule}`;
  const detail = detailKey in en.messages ? ` ${t(detailKey)}` : '';
  // As the tracker writes it: only article numbers go before the text.
  const label = /^\d/.test(alert.rule) ? `${alert.rule} ` : '';
  const title = t(`rule.title.${alert.rule}`);
  // No side where no one side is concerned (`flags`: both flags fell, no telling which first).
  const text = p.side
    ? t('alert.text', { side: sideName(p.side), title, facts: facts ? ` (${facts})` : '' })
    : t('alert.textNoSide', {
        title: title.charAt(0).toUpperCase() + title.slice(1),
        facts: facts ? ` (${facts})` : '',
      });
  return label + text + detail;
}

/** The side an alert concerns, in words; `both sides` for an alert without one (`flags`). */
export const alertSide = (alert) => t(alert.side ? `side.${alert.side}` : 'side.both');
