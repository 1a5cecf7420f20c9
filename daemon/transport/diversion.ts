// A board's bytes handed elsewhere, undecoded, for a while: a calibration reads the board raw
// meanwhile and the board's game hears nothing of it. Liveness goes on.
import type { Link, LinkHandlers } from './link.ts';

export class Diversion {
  private handlers: LinkHandlers | undefined;

  /**
   * The link the diverted reader writes (through `write`) and closes; undefined while diverted
   * already. `ended` runs when the reader closes it.
   */
  open(
    handlers: LinkHandlers,
    hello: Link['hello'],
    write: (bytes: Uint8Array) => void,
    ended: () => void,
  ): Link | undefined {
    if (this.handlers) return undefined;
    this.handlers = handlers;
    const mine = () => this.handlers === handlers;
    return {
      hello,
      write: (bytes) => {
        if (mine()) write(bytes);
      },
      close: () => {
        if (!mine()) return;
        this.handlers = undefined;
        ended();
      },
    };
  }

  /** The board's bytes, taken while diverted: false when they are the game's. */
  take(bytes: Uint8Array): boolean {
    const handlers = this.handlers;
    // Asked before the reader hears them: a reader that closes on these bytes still had them.
    handlers?.onData(bytes);
    return handlers !== undefined;
  }

  /** The board's link is gone: the reader hears why. */
  end(reason: string): void {
    const handlers = this.handlers;
    this.handlers = undefined;
    handlers?.onClose(reason);
  }
}
