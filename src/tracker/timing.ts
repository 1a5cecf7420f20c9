// The tracker's timings (docs/irregularities.md, "Decision when settled"): the hands the simulator
// plays are timed against them too, so they are declared here once.

/** A board unchanged this long is settled: decided. */
export const DEFAULT_SETTLE_MS = 250;
/** A board settled on nothing decidable this long (no press) is read as it stands: the stall time. */
export const DEFAULT_ALERT_AFTER_MS = 4000;
/** Changes reported this long after a clock press belong to the scan before it. */
export const PRESS_GRACE_MS = 100;
