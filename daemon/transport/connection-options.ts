// What a board connection is given: where its bytes come from, the protocol, who hears what it
// reads, and its timing (liveness, reconnects, clock commands).
import { CLOCK_RETRY } from '../../firmware-protocol/clock-command.ts';
import type { BoardEvent } from '../../firmware-protocol/events.ts';
import type { ConnectionState } from '../../src/game/types.ts';
import type { ProtocolDriver } from './driver.ts';
import type { LinkOpener } from './link.ts';

export interface ConnectionTiming {
  /** Ping period and watchdog resolution (default 1000 ms). */
  livenessMs: number;
  /** No byte for this long: `silent` (default 2500 ms). */
  silentMs: number;
  /** No byte for this long: close and reconnect (default 5000 ms). */
  lostMs: number;
  /** No hello this long after opening: ask again, and give up at `lostMs` (default 1500 ms). */
  helloMs: number;
  /** Reconnect backoff: first delay, doubling up to the cap (default 250 → 2000 ms; an attempt costs nothing). */
  backoffMs: number;
  backoffCapMs: number;
  /** At most one resync dump request per this period (default 500 ms). */
  resyncMs: number;
  /** How long a clock command waits for the clock's ack before it is sent again (default 1500 ms). */
  clockAckMs: number;
  /** Pause before a clock command's second try, doubled before the third (default 250 ms). */
  clockBackoffMs: number;
}

export const DEFAULT_TIMING: ConnectionTiming = {
  livenessMs: 1000,
  silentMs: 2500,
  lostMs: 5000,
  helloMs: 1500,
  backoffMs: 250,
  backoffCapMs: 2000,
  resyncMs: 500,
  clockAckMs: CLOCK_RETRY.ackMs,
  clockBackoffMs: CLOCK_RETRY.backoffMs,
};

export interface ConnectionEvents {
  onState(state: ConnectionState, detail: { serial?: string; reason?: string }): void;
  /** The link cannot be opened (what failed, and what to do), or opens again (undefined). */
  onOpenProblem?(problem: string | undefined): void;
  /**
   * Decoded events once the board is identified. `raw` holds the bytes that produced them (and any
   * bytes before them that produced nothing), attached to the first event of the batch.
   */
  onEvents(serial: string, events: BoardEvent[], raw: Uint8Array): void;
  onLog?(level: 'debug' | 'info' | 'warn', message: string, fields?: Record<string, unknown>): void;
}

export interface ConnectionOptions {
  source: string;
  open: LinkOpener;
  driver: ProtocolDriver;
  events: ConnectionEvents;
  /** Serial to use when the protocol cannot identify the board (HID serial number, or the source). */
  fallbackSerial?: string;
  timing?: Partial<ConnectionTiming>;
  /** Wall clock for liveness and backoff (default Date.now). */
  now?: () => number;
  /**
   * Clock that stamps events: the daemon's input clock (default `now`; scaled when simulated boards
   * run fast). What that is in a board's own time is reckoned where the events reach their board.
   */
  eventTime?: () => number;
}
