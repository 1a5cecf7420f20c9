// The rule each alert names, in plain words (docs/rules.md), and the alert itself in the reader's
// language from its rule and params (the English `message` is the fallback for alerts without).
import en from '../shared/i18n/en.js';
import { alertSentence } from '../../../src/tracker/alert-words.js';
import { t } from '../shared/i18n.js';

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

/** `5.4.6 White: quiet move although a capture was possible (32-28).` in the page's language. */
export function alertText(alert) {
  const p = alert.params;
  if (!p || !(alert.rule in RULE_TEXT)) return alert.message ?? '';
  return alertSentence(alert.rule, p, t);
}

/** The side an alert concerns, in words; `both sides` for an alert without one (`flags`). */
export const alertSide = (alert) => t(alert.side ? `side.${alert.side}` : 'side.both');
