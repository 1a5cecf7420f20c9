// A byte pipe to one board, whatever carries it (serial port, TCP socket, HID device, in-process
// stream). Transports open one; the connection speaks the protocol over it.
import type { HelloEvent } from '../../firmware-protocol/events.ts';

export interface LinkHandlers {
  /** Bytes as received (HID: one input report per call). */
  onData(bytes: Uint8Array): void;
  /** The link is gone (closed by the other side, or an error); called at most once. */
  onClose(reason: string): void;
}

export interface Link {
  /** Transports that know the board without asking (HID: the OS's device info) say hello themselves. */
  readonly hello?: HelloEvent;
  write(bytes: Uint8Array): void;
  /** Close from our side; onClose is not called for it. */
  close(): void;
}

export type LinkOpener = (handlers: LinkHandlers) => Promise<Link>;

/**
 * The minimal Duplex-like shape shared by net.Socket, SerialPort, stream.Duplex — and what the
 * simulator's in-process boards hand out.
 */
export interface DuplexLike {
  write(chunk: Uint8Array): unknown;
  on(event: 'data', listener: (chunk: Uint8Array) => void): unknown;
  on(event: 'close' | 'end', listener: () => void): unknown;
  on(event: 'error', listener: (error: Error) => void): unknown;
  destroy(): unknown;
}

/** Wraps an open Duplex-like stream as a Link; `end` closes it from our side (default: destroy). */
export function duplexLink(
  stream: DuplexLike,
  handlers: LinkHandlers,
  end: () => void = () => stream.destroy(),
): Link {
  let done = false;
  const finish = (reason: string): void => {
    if (done) return;
    done = true;
    handlers.onClose(reason);
  };
  stream.on('data', (chunk) => {
    if (!done) handlers.onData(chunk);
  });
  stream.on('error', (e) => finish(e.message));
  stream.on('end', () => finish('closed by the board'));
  stream.on('close', () => finish('closed'));
  return {
    write(bytes) {
      if (!done && bytes.length > 0) stream.write(bytes);
    },
    close() {
      done = true;
      end();
    },
  };
}
