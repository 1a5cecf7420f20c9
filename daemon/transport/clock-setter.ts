// Sets a board's clock and makes sure it took: one command at a time, each try waiting for the
// clock's ack, sent again after a refusal or silence (firmware-protocol's nextClockStep decides),
// until the clock says ok or the tries are used up. A board whose protocol acknowledges nothing
// (line) is sent the command once. The timers live here; the decisions do not.
import {
  type BoardEvent,
  type ClockAnswer,
  type ClockCommandOutcome,
  type ClockRetryPolicy,
  type CommandRoute,
  clockAnswerIn,
  clockLater,
  nextClockStep,
  type SetClockCommand,
} from '../../firmware-protocol/index.ts';

export interface ClockLink {
  /** How the command goes to the board as it stands (protocol, announced capabilities). */
  route(command: SetClockCommand): CommandRoute;
  /** Writes the command; false when no link is open. */
  write(command: SetClockCommand): boolean;
  /** Wall clock (ms). */
  now(): number;
}

interface Pending {
  command: SetClockCommand;
  ack: number;
  answers: ClockAnswer[];
  sentAt: number;
  /** Answers of the try in flight arrive only while this is set. */
  listening: boolean;
  timer: NodeJS.Timeout | undefined;
  resolve: (outcome: ClockCommandOutcome) => void;
}

export class ClockSetter {
  private pending: Pending | undefined;

  constructor(
    private readonly link: ClockLink,
    private readonly policy: ClockRetryPolicy,
  ) {}

  /**
   * Sets the clock; resolves with what became of it. A newer setting replaces one still waiting for
   * its answer (that one resolves `replaced`: the newer one carries the clock as it must be).
   */
  set(command: SetClockCommand): Promise<ClockCommandOutcome> {
    this.finish({ set: false, reason: 'replaced', answers: this.pending?.answers ?? [] });
    const route = this.link.route(command);
    if (!route.send) return Promise.resolve({ set: false, reason: route.reason, answers: [] });
    if (route.ack === undefined) {
      const sent = this.link.write(command);
      return Promise.resolve(
        sent ? { set: true, answers: [] } : { set: false, reason: 'not-connected', answers: [] },
      );
    }
    const { ack } = route;
    return new Promise((resolve) => {
      this.pending = {
        command,
        ack,
        answers: [],
        sentAt: this.link.now(),
        listening: false,
        timer: undefined,
        resolve,
      };
      this.step();
    });
  }

  /** Every event the board's decoder produced: an ack (or refusal) of the try in flight ends it. */
  heard(event: BoardEvent): void {
    const p = this.pending;
    if (!p?.listening) return;
    const answer = clockAnswerIn(event, p.ack);
    if (!answer) return;
    clearTimeout(p.timer);
    this.answered(p, answer);
  }

  /** The link is gone (or the connection stops): nothing more will answer. */
  drop(): void {
    this.finish({ set: false, reason: 'not-connected', answers: this.pending?.answers ?? [] });
  }

  private answered(p: Pending, answer: ClockAnswer): void {
    p.listening = false;
    p.answers.push(answer);
    this.step();
  }

  private step(): void {
    const p = this.pending!;
    const step = nextClockStep(p.answers, this.policy);
    if (step.next === 'done') return void this.finish(step.outcome);
    const send = () => {
      if (this.pending !== p) return;
      const command = clockLater(p.command, this.link.now() - p.sentAt);
      if (!this.link.write(command))
        return void this.finish({ set: false, reason: 'not-connected', answers: p.answers });
      p.listening = true;
      p.timer = setTimeout(() => {
        if (this.pending === p) this.answered(p, 'none');
      }, step.waitMs);
    };
    if (step.delayMs === 0) send();
    else p.timer = setTimeout(send, step.delayMs);
  }

  private finish(outcome: ClockCommandOutcome): void {
    const p = this.pending;
    if (!p) return;
    this.pending = undefined;
    clearTimeout(p.timer);
    p.resolve(outcome);
  }
}
