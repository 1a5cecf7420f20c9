// The tracker: sensor events → moves and irregularity alerts (docs/irregularities.md).
export { createTracker, DEFAULT_ALERT_AFTER_MS, DEFAULT_SETTLE_MS, PRESS_GRACE_MS } from './tracker.ts';
export type * from './types.ts';
export { RULE_IDS } from './types.ts';
