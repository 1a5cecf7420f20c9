// The tracker's timings (docs/irregularities.md, "Decision when settled"): the hands the simulator
// plays are timed against them too, so they are declared here once.

/** A board unchanged this long is settled: decided. */
export const DEFAULT_SETTLE_MS = 250;
/** A board settled on nothing decidable this long (no press) is read as it stands: the stall time. */
export const DEFAULT_ALERT_AFTER_MS = 4000;
/** Changes reported this long after a clock press belong to the scan before it. */
export const PRESS_GRACE_MS = 100;
/**
 * Changes reported this close to the one before were not ordered by any hand: one scan's updates
 * sent back to back (a DGT field update is ~5 ms at 9600 baud), or changes read in one go. They are
 * one observation, whatever the protocol (docs/irregularities.md, "What the board can order").
 */
export const BACK_TO_BACK_MS = 15;

/**
 * The board reports by scans of `scanMs` (its hello says so): each scan's changes arrive together,
 * the next scan's a period later, so changes less than half a period apart came from one scan.
 */
export const observationGapMs = (scanMs: number | undefined): number =>
  scanMs === undefined ? BACK_TO_BACK_MS : Math.max(BACK_TO_BACK_MS, scanMs / 2);

/**
 * How late a board may report a change: a board that reports by scans reports one a whole scan
 * later (and a scan's changes one after another), so a change reported this long after a press may
 * have been made before it, and a quiet move's new square may come this long before its old one.
 */
export const reportLagMs = (scanMs: number | undefined): number =>
  scanMs === undefined ? PRESS_GRACE_MS : scanMs + PRESS_GRACE_MS;
