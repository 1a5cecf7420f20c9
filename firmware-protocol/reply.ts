// Board side: what a board answers to a host command, for the simulator. The board's state comes in;
// the bytes go out through that board's encoder (so sequence numbers and the DGT lever stay right).
import type { BoardString, HelloEvent } from './events.ts';
import { CLOCK } from './dgt/constants.ts';
import { encodeDgtClockAck, encodeDgtMessage } from './dgt/encoder.ts';
import type { BoardEncoder, HostCommand } from './types.ts';

export interface BoardState {
  /** The board as it stands (board string or FEN). */
  board: BoardString;
  /** Who the board is (serial, firmware, squares, senses, capabilities). */
  hello: HelloEvent;
}

const concat = (parts: Uint8Array[]): Uint8Array => {
  const out = new Uint8Array(parts.reduce((n, p) => n + p.length, 0));
  let at = 0;
  for (const p of parts) {
    out.set(p, at);
    at += p.length;
  }
  return out;
};

/** The bytes a board sends in answer to `cmd` (empty when it sends nothing), stamped with time `t`. */
export function boardReply(
  encoder: BoardEncoder,
  cmd: HostCommand,
  state: BoardState,
  t: number,
): Uint8Array {
  const snapshot = () => encoder.encode({ t, type: 'snapshot', board: state.board });
  const hello = () => encoder.encode({ ...state.hello, t });
  switch (cmd.type) {
    case 'snapshot':
      return snapshot();
    case 'ping':
    case 'serial':
      if (encoder.protocol !== 'dgt') return encoder.encode({ t, type: 'tick', reply: 'pong' });
      return encodeDgtMessage(
        cmd.type === 'serial' && cmd.long
          ? { kind: 'long-serial', serial: state.hello.serial }
          : { kind: 'serial', serial: state.hello.serial },
      );
    case 'identify':
      // A hello restarts the line protocol's sequence count: follow it with the board (PROTOCOL.md 1.7).
      return encoder.protocol === 'line' ? concat([hello(), snapshot()]) : hello();
    case 'version': {
      const [major, minor] = (state.hello.firmware ?? '1.0')
        .split('.')
        .map((x) => Number.parseInt(x, 10) || 0);
      return encoder.protocol === 'dgt'
        ? encodeDgtMessage({ kind: 'version', major: major ?? 1, minor: minor ?? 0 })
        : new Uint8Array(0);
    }
    case 'set-clock':
      return encoder.protocol === 'dgt' ? encodeDgtClockAck(CLOCK.SETNRUN) : new Uint8Array(0);
    case 'display':
      return encoder.protocol === 'dgt' ? encodeDgtClockAck(CLOCK.ASCII) : new Uint8Array(0);
    default:
      return new Uint8Array(0);
  }
}
