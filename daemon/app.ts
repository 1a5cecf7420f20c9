// The daemon as services: each starts, stops and may say its health (what /health shows of it).
// Started in order, each from what the ones before it made. Stopped in phases: the boards' inputs
// first, so that they are in the journal; then the parts that only say goodbye (the broker's
// offline states, the last uploads, the clients, the simulator), together and within a time limit,
// for none of them may hold the stop up; storage last. A start that fails stops what had started.

/** The order in which a stop reaches the services. */
export const STOP_PHASES = ['inputs', 'goodbye', 'storage'] as const;
export type StopPhase = (typeof STOP_PHASES)[number];

export interface Service {
  /** How the log names it when its stop is late. */
  readonly name: string;
  readonly stopIn: StopPhase;
  /** Throws the daemon's failure (daemon/failure.ts) when it cannot start. */
  start(): void | Promise<void>;
  stop(): unknown;
  /** Its facts for /health, keyed as /health shows them. */
  health?(): Record<string, unknown>;
}

export interface Stopped {
  /** The goodbye phase's services still stopping when the time ran out. */
  late: string[];
}

export class App {
  private readonly running: Service[] = [];

  /**
   * Starts the services in order; those already running when the app is made (the lock taken
   * before the log file opens, the simulator before the config is read) are `adopt`ed instead.
   */
  async start(services: readonly Service[]): Promise<void> {
    for (const service of services) {
      try {
        await service.start();
      } catch (e) {
        await this.stop(Number.POSITIVE_INFINITY);
        throw e;
      }
      this.running.push(service);
    }
  }

  adopt(service: Service): void {
    this.running.push(service);
  }

  /** Every running service's facts for /health, in the order they started. */
  health(): Record<string, unknown> {
    return Object.assign({}, ...this.running.map((s) => s.health?.() ?? {}));
  }

  /** Stops every running service, phase by phase, each phase's newest first; once. */
  async stop(goodbyeMs: number): Promise<Stopped> {
    const services = this.running.splice(0).reverse();
    let late: string[] = [];
    for (const phase of STOP_PHASES) {
      const stopping = services.filter((s) => s.stopIn === phase);
      const waiting = new Set(stopping.map((s) => s.name));
      const finished = Promise.all(
        stopping.map((s) =>
          Promise.resolve()
            .then(() => s.stop())
            .catch(() => {})
            .then(() => waiting.delete(s.name)),
        ),
      );
      if (phase !== 'goodbye' || !Number.isFinite(goodbyeMs)) {
        await finished;
        continue;
      }
      let timer: NodeJS.Timeout | undefined;
      const timedOut = await Promise.race([
        finished.then(() => false),
        new Promise<boolean>((r) => {
          timer = setTimeout(() => r(true), goodbyeMs);
        }),
      ]);
      clearTimeout(timer);
      if (timedOut) late = [...waiting];
    }
    return { late };
  }
}
