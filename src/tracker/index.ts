// The tracker: sensor events → moves and irregularity alerts (docs/irregularities.md).
export { DEFAULT_ALERT_AFTER_MS, DEFAULT_SETTLE_MS, PRESS_GRACE_MS } from './timing.ts';
export { createTracker } from './tracker.ts';
export type * from './types.ts';
export { RULE_IDS } from './types.ts';
