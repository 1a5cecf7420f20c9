// One board connection: open → start commands → identify → hello (serial) → full dump, then
// liveness about once a second. On error or silence: close and retry with capped backoff, forever.
import {
  CLOCK_RETRY,
  type ClockCommandOutcome,
  type CommandRoute,
  type SetClockCommand,
} from '../../firmware-protocol/clock-command.ts';
import type {
  BoardEvent,
  HelloEvent,
  HistoryEndEvent,
  HistoryLogEvent,
} from '../../firmware-protocol/events.ts';
import type { HostCommand } from '../../firmware-protocol/types.ts';
import type { ConnectionState } from '../../src/game/types.ts';
import { type ConnectionOptions, type ConnectionTiming, DEFAULT_TIMING } from './connection-options.ts';
import { Diversion } from './diversion.ts';
import { RawKept } from './raw-kept.ts';
import { OpenProblem } from './open-advice.ts';
import { everyAfterIo } from '../after-io.ts';
import { isRecalled } from '../../firmware-protocol/board-string.ts';
import { CATCH_UP_MAX, CatchUp } from './catch-up.ts';
import { ClockSetter } from './clock-setter.ts';
import type { ProtocolDriver, StreamDecoder } from './driver.ts';
import type { Link, LinkHandlers } from './link.ts';
import { Paced } from './paced.ts';
import { type ResumePoint, resumeFrom } from './resume.ts';

/** Implausible history answers in a row after which a board's history is no longer asked. */
const DISTRUST_AFTER = 3;

/** A setting as any other: what `clockRoute` asks the protocol about. */
const ANY_CLOCK_SETTING: SetClockCommand = { type: 'set-clock', white: 0, black: 0, running: null };

export class BoardConnection {
  private readonly timing: ConnectionTiming;
  private readonly now: () => number;
  private readonly eventTime: () => number;
  private link: Link | undefined;
  /** The configured driver, or the one of the board's calibrated profile once its serial is known. */
  private driver: ProtocolDriver;
  private decoder: StreamDecoder | undefined;
  private state: ConnectionState = 'connecting';
  /** Why the link last failed to open (said once until it changes or the link opens). */
  private readonly openProblem: OpenProblem;
  private serial: string | undefined;
  private identified = false;
  private identifiedAt = 0;
  private lastRx = 0;
  /** Event time of the last bytes received. */
  private lastStamp = 0;
  private openedAt = 0;
  private lastResync = Number.NEGATIVE_INFINITY;
  private backoff: number;
  private stopped = false;
  /** Stops the liveness checks. */
  private stopWatchdog: (() => void) | undefined;
  private retry: NodeJS.Timeout | undefined;
  /** What the journal holds of the board this link feeds, as routing last said (`remember`). */
  private stored: ResumePoint | undefined;
  /** Events and bytes that arrived before the hello. */
  private early: BoardEvent[] = [];
  /** Bytes no event has carried yet. */
  private readonly raw = new RawKept();
  /** Counts links opened, so a late callback of an old link is ignored. */
  private generation = 0;
  /** What the board said of itself on this link (its capabilities decide the optional commands). */
  private hello: HelloEvent | undefined;
  private readonly clockSetter: ClockSetter;
  /** While set, the board's bytes go here undecoded (see `divert`). */
  private readonly diversion = new Diversion();
  /** A history board was asked for the changes the host missed: what the link says waits for them. */
  private catchUp: CatchUp | undefined;
  /** Implausible history answers in a row, and whether the board's history is asked no more. */
  private implausibleAnswers = 0;
  private distrusted = false;
  /** What is handed on, a slice at a time (a long recalled history leaves the event loop free). */
  private readonly paced: Paced;

  constructor(private readonly options: ConnectionOptions) {
    this.timing = { ...DEFAULT_TIMING, ...options.timing };
    this.now = options.now ?? Date.now;
    this.eventTime = options.eventTime ?? this.now;
    this.backoff = this.timing.backoffMs;
    this.driver = options.driver;
    this.paced = new Paced((serial, events, raw) => options.events.onEvents(serial, events, raw));
    this.openProblem = new OpenProblem(options.source, options.events, (message, fields) =>
      this.log('warn', message, fields),
    );
    this.clockSetter = new ClockSetter(
      {
        route: (command) => this.driver.route(command, this.hello),
        write: (command) => this.write(command),
        now: this.now,
      },
      { tries: CLOCK_RETRY.tries, ackMs: this.timing.clockAckMs, backoffMs: this.timing.clockBackoffMs },
    );
  }

  start(): void {
    this.stopped = false;
    void this.connect();
  }

  stop(): void {
    this.stopped = true;
    clearTimeout(this.retry);
    this.stopWatchdog?.();
    this.drop();
    this.diversion.end('the connection stopped');
    this.paced.flush();
  }

  /** The protocol as configured (not a profile's). */
  get configuredDriver(): ProtocolDriver {
    return this.options.driver;
  }

  /**
   * Hands what the board sends to `handlers`, undecoded, until the link returned is closed: a
   * calibration reads the board raw meanwhile, and the board's game hears nothing of it. Liveness
   * goes on. Undefined when no identified board is connected, or the board is diverted already.
   */
  divert(handlers: LinkHandlers): Link | undefined {
    if (!this.link || !this.identified) return undefined;
    const write = (bytes: Uint8Array) => this.link?.write(bytes);
    return this.diversion.open(handlers, this.hello, write, () => {
      // Bytes cut mid-message belong to no one; the game reads the board afresh.
      this.decoder = this.driver.createDecoder();
      this.raw.clear();
      this.requestSnapshot();
    });
  }

  /** The board's profile may be new (calibrated just now): read the board through it from here on. */
  refreshProfile(): void {
    if (this.serial === undefined || !this.link) return;
    this.useProfile(this.serial);
    this.requestSnapshot();
  }

  /** Ask the board for a full dump (after a gap, or when the controller wants to reconcile). */
  requestSnapshot(): void {
    this.send({ type: 'snapshot' });
  }

  private log(level: 'debug' | 'info' | 'warn', message: string, fields?: Record<string, unknown>): void {
    this.options.events.onLog?.(level, message, { source: this.options.source, ...fields });
  }

  private setState(state: ConnectionState, reason?: string): void {
    if (state === this.state) return;
    this.state = state;
    this.options.events.onState(state, { serial: this.serial, reason });
  }

  private async connect(): Promise<void> {
    if (this.stopped) return;
    const generation = ++this.generation;
    let link: Link;
    try {
      link = await this.options.open({
        onData: (bytes) => {
          if (generation === this.generation) this.receive(bytes);
        },
        onClose: (reason) => {
          if (generation === this.generation) this.lose(reason);
        },
      });
    } catch (e) {
      if (generation !== this.generation || this.stopped) return;
      this.openProblem.failed((e as Error).message);
      this.scheduleRetry();
      return;
    }
    this.openProblem.opened();
    if (this.stopped || generation !== this.generation) {
      link.close();
      return;
    }
    this.link = link;
    this.driver = this.options.driver;
    this.decoder = this.driver.createDecoder();
    this.identified = false;
    this.hello = link.hello;
    this.early = [];
    this.raw.clear();
    this.openedAt = this.lastRx = this.now();
    this.log('info', 'link open');
    for (const command of this.driver.startCommands) this.send(command);
    if (link.hello) {
      this.lastStamp = this.eventTime();
      this.early.push({ ...link.hello, t: this.lastStamp });
      this.identify(link.hello.serial);
    } else if (this.driver.canIdentify) this.send({ type: 'identify' });
    else this.identify(this.options.fallbackSerial ?? this.options.source);
    this.stopWatchdog?.();
    // After the turn's reads: bytes already waiting after a pause of the daemon are no silence.
    this.stopWatchdog = everyAfterIo(() => this.check(), this.timing.livenessMs);
  }

  /**
   * Sends a command to the board; false when the protocol cannot say it, the board did not announce
   * the capability it needs (line `caps=`), or no link is open.
   */
  send(command: HostCommand): boolean {
    return this.write(command, true);
  }

  /**
   * What the journal holds of the board this link feeds (its resume point): where a board that
   * remembers is asked from when it comes back, or asked again.
   */
  remember(stored: ResumePoint | undefined): void {
    this.stored = stored;
  }

  /** Whether the board, as it said hello on this link, takes clock settings at all. */
  clockRoute(): CommandRoute {
    return this.driver.route(ANY_CLOCK_SETTING, this.hello);
  }

  /** Sets the board's clock, tried again until the clock acknowledges it (DGT); what became of it. */
  setClock(command: SetClockCommand): Promise<ClockCommandOutcome> {
    return this.clockSetter.set(command);
  }

  /** `check`: whether the board takes the command is checked here (the clock setter routed it already). */
  private write(command: HostCommand, check = false): boolean {
    const bytes = this.driver.encode(command);
    if (!this.link || bytes.length === 0) return false;
    if (check && !this.driver.route(command, this.hello, true).send) return false;
    this.link.write(bytes);
    return true;
  }

  private receive(bytes: Uint8Array): void {
    this.lastRx = this.now();
    const t = this.eventTime();
    this.lastStamp = t;
    if (this.identified && this.state === 'silent') this.setState('active');
    if (this.diversion.take(bytes)) return;
    const decoded = this.decoder ? this.decoder.push(bytes, t) : [];
    this.raw.keep(bytes);
    const events: BoardEvent[] = [];
    for (const event of decoded) {
      this.clockSetter.heard(event);
      // A pong or an ack is liveness only; the controller makes its own journaled ticks.
      if (event.type === 'tick') continue;
      if (event.type === 'history-end' || event.type === 'history-log') {
        events.push(...this.caughtUp(event));
        continue;
      }
      if (event.type === 'hello') {
        // Another power-up: the changes asked for are another boot's.
        if (this.catchUp && event.boot !== this.hello?.boot)
          events.push(...this.endCatchUp('the board started again'));
        this.hello = event;
        // What came before it in this chunk waits with the rest of what was said before the hello.
        if (!this.identified) this.early.push(...events.splice(0));
        this.identify(event.serial);
        events.push(event);
        continue;
      }
      if (this.catchUp) {
        if (!this.catchUp.take(event, this.now()))
          events.push(...this.endCatchUp(`its answer passed ${CATCH_UP_MAX} lines`));
        continue;
      }
      // A recalled change nobody waits for (an answer that came after its time): the board was read afresh.
      if (isRecalled(event)) continue;
      if (event.type === 'fault' && event.resync) this.resync();
      events.push(event);
    }
    if (events.length === 0) return;
    if (!this.identified) {
      this.early.push(...events);
      return;
    }
    this.emit(events);
  }

  private emit(events: BoardEvent[]): void {
    this.paced.push(this.serial!, events, this.raw.take());
  }

  private identify(serial: string): void {
    const changed = serial !== this.serial;
    this.serial = serial;
    this.useProfile(serial);
    if (this.identified && !changed) {
      // A hello long after the first means the board restarted and may have lost its state: dump
      // again. (One right after, answering our identify, is just the reply to a board that greets.)
      if (this.now() - this.identifiedAt > this.timing.helloMs) this.reconcile(true);
      return;
    }
    this.identifiedAt = this.now();
    this.identified = true;
    this.catchUp = undefined;
    this.backoff = this.timing.backoffMs;
    // A state change carries the serial, so report it even when already active under another serial.
    if (changed && this.state === 'active') this.state = 'connecting';
    this.setState('active');
    this.log('info', 'board identified', { serial });
    const early = this.early;
    this.early = [];
    // After every (re)connect: the changes missed, or the full position, so the tracker reconciles
    // whatever happened meanwhile.
    this.reconcile(true);
    // What the board said before it was known (a DGT board streams its changes from the update mode
    // on, before its serial number comes) happened after the changes asked for: it waits for them.
    const asking = this.catchUp as CatchUp | undefined;
    const first = asking ? early.filter((e) => e.type === 'hello' || !asking.take(e, this.now())) : early;
    if (first.length > 0) this.emit(first);
  }

  /** What the host missed: asked of a history board, else the full position (the tracker searches). */
  private reconcile(onConnect: boolean): void {
    if (this.catchUp) return;
    if (!this.askHistory(onConnect)) this.requestSnapshot();
  }

  /**
   * Asks a board that remembers for what the host missed: a history board (PROTOCOL.md 1.13) every
   * change after the last one stored of its boot, a DGT board its record (EE_MOVES, section 2.9).
   * False when the board keeps nothing, or nothing stored is of this board (and boot).
   */
  private askHistory(onConnect: boolean): boolean {
    if (!this.hello || this.serial === undefined || this.distrusted) return false;
    const ask = resumeFrom(this.stored, this.serial, this.hello, this.driver.memory);
    if (!ask) return false;
    const after = 'after' in ask ? ask.after : 0;
    if (!this.send({ type: 'history', after })) return false;
    this.catchUp = CatchUp.asking(ask, onConnect, this.now());
    if ('tail' in ask) this.log('info', "reading the board's record for the changes missed");
    else this.log('info', 'asking the board for the changes missed', { after });
    return true;
  }

  /** The board's answer ended: the changes it recalled (or those its record holds), then what came meanwhile. */
  private caughtUp(end: HistoryEndEvent | HistoryLogEvent): BoardEvent[] {
    const asked = this.catchUp;
    if (!asked) return [];
    this.catchUp = undefined;
    // A record nobody asked for (a line board's answer ends with `recs`) changes nothing.
    if (end.type === 'history-log' && !asked.tail) return asked.abandon();
    const answer =
      end.type === 'history-log' ? asked.record(end, this.now()) : asked.end(end, end.t, this.now());
    if (answer.kind === 'again') {
      this.catchUp = answer.next;
      this.send({ type: 'history', after: answer.next.after });
      return answer.events;
    }
    if (answer.kind === 'fallback') {
      this.log('warn', `the board's history does not reach: read afresh (${answer.reason})`);
      if (answer.implausible) this.doubted(answer.reason);
      this.requestSnapshot();
      return answer.events;
    }
    this.implausibleAnswers = 0;
    this.log('info', "caught up from the board's history", {
      changes: answer.events.filter(isRecalled).length,
    });
    // The picture after the changes: it matches what they built unless something else went wrong.
    if (asked.onConnect) this.requestSnapshot();
    return answer.events;
  }

  /**
   * An answer no game can hold. A board that keeps sending them is held apart: its history is not
   * asked again (it is read afresh after every break), and the arbiter is told, beside the board.
   */
  private doubted(reason: string): void {
    if (++this.implausibleAnswers < DISTRUST_AFTER) return;
    this.distrusted = true;
    const problem = `${this.options.source}: its history is implausible (${reason}) — damlink reads the board afresh after every break instead; check the board (its firmware, or whatever answers in its place)`;
    this.log('warn', 'board history no longer asked', { reason });
    this.options.events.onOpenProblem?.(problem);
  }

  /** No answer comes: what was held goes on, and the board is read afresh. */
  private endCatchUp(reason: string): BoardEvent[] {
    const held = this.catchUp?.abandon() ?? [];
    this.catchUp = undefined;
    this.log('warn', `no history from the board: read afresh (${reason})`);
    this.requestSnapshot();
    return held;
  }

  /** A calibrated board: what it says from now on is read through its profile. */
  private useProfile(serial: string): void {
    const profiled = this.options.driver.forSerial?.(serial);
    if (!profiled || profiled === this.driver) return;
    this.driver = profiled;
    this.decoder = profiled.createDecoder();
    const replaced = profiled.replaced ?? [];
    // The profile wins; settings it overrides were probably meant for another board, or are stale.
    if (replaced.length > 0)
      this.log('warn', `board profile applied; it replaces protocol ${replaced.join(', ')}`, { serial });
    else this.log('info', 'board profile applied', { serial });
  }

  private resync(): void {
    // A history board sends the lines lost again; its answer is awaited before anything else.
    if (this.catchUp || this.askHistory(false)) return;
    const t = this.now();
    if (t - this.lastResync < this.timing.resyncMs) return;
    this.lastResync = t;
    this.requestSnapshot();
  }

  private check(): void {
    if (!this.link) return;
    const t = this.now();
    const quiet = t - this.lastRx;
    if (!this.identified) {
      if (t - this.openedAt >= this.timing.lostMs) {
        this.lose('no hello from the board');
        return;
      }
      if (t - this.openedAt >= this.timing.helloMs) this.send({ type: 'identify' });
      return;
    }
    if (this.catchUp?.stalled(t)) {
      const held = this.endCatchUp('the board stopped answering');
      if (held.length > 0) this.emit(held);
    }
    if (!this.driver.canPing) return;
    if (quiet >= this.timing.lostMs) {
      this.lose(`silent for ${quiet} ms`);
      return;
    }
    if (quiet >= this.timing.silentMs) this.setState('silent', `silent for ${quiet} ms`);
    // A board that spoke within the last period has shown it is alive: ping only the quiet ones
    // (200 busy boards' pings and pongs were a tenth of the daemon's work).
    if (quiet >= this.timing.livenessMs) this.send({ type: 'ping' });
  }

  private drop(): void {
    this.generation++;
    // Whatever was held comes again: the next link asks from what was stored.
    this.catchUp = undefined;
    this.clockSetter.drop();
    const link = this.link;
    this.link = undefined;
    if (this.decoder) {
      // The time of the last bytes: a link that died says nothing about the time after it.
      const rest = this.decoder.flush(this.lastStamp);
      this.decoder = undefined;
      if (this.identified && rest.length > 0) this.emit(rest);
    }
    link?.close();
  }

  private lose(reason: string): void {
    this.stopWatchdog?.();
    this.drop();
    this.diversion.end(reason);
    this.log('warn', 'link lost', { reason });
    // A board seen once stays `lost` until it is back; `connecting` is for one never seen yet.
    this.setState(this.state === 'connecting' ? 'connecting' : 'lost', reason);
    this.identified = false;
    this.scheduleRetry();
  }

  private scheduleRetry(): void {
    if (this.stopped) return;
    clearTimeout(this.retry);
    const delay = this.backoff;
    this.backoff = Math.min(this.backoff * 2, this.timing.backoffCapMs);
    this.retry = setTimeout(() => void this.connect(), delay);
  }
}
