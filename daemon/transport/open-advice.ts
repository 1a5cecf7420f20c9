// What to do when a board's link cannot be opened: said by `damlink doctor` and by `run` (its log
// and the console's board row), the same words in both.

export function openAdvice(message: string): string {
  if (/EACCES|permission/i.test(message))
    return 'add yourself to the dialout group (sudo usermod -aG dialout $USER) or install docs/ops/99-damlink.rules';
  if (/ENOENT|no such|not connected/i.test(message))
    return 'plug the board in; `damlink ports` lists the devices there are';
  if (/EBUSY|lock/i.test(message)) return 'another program has the port open (another damlink?): stop it';
  if (/ECONNREFUSED|EHOSTUNREACH|ETIMEDOUT|ENETUNREACH/i.test(message))
    return 'is the serial bridge on, and are its address and port right?';
  return 'check the source in the config';
}

/**
 * A link that cannot be opened, said once per kind of failure (not at every retry) where the
 * organiser looks, and said to be over once the link opens.
 */
export class OpenProblem {
  private said: string | undefined;

  constructor(
    private readonly source: string,
    private readonly events: { onOpenProblem?(problem: string | undefined): void },
    private readonly warn: (message: string, fields: Record<string, unknown>) => void,
  ) {}

  failed(error: string): void {
    const advice = openAdvice(error);
    const problem = `cannot open ${this.source}: ${error} — ${advice}`;
    if (problem === this.said) return;
    this.said = problem;
    this.warn('cannot open the board', { error, advice });
    this.events.onOpenProblem?.(problem);
  }

  opened(): void {
    if (this.said === undefined) return;
    this.said = undefined;
    this.events.onOpenProblem?.(undefined);
  }
}
