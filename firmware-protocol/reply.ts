// Board side: what a board answers to a host command, for the simulator. The board's state comes in;
// the bytes go out through that board's encoder (so sequence numbers and the DGT lever stay right).
import type { BoardString, HelloEvent } from './events.ts';
import { CLOCK } from './dgt/constants.ts';
import { concatBytes } from './bytes.ts';
import { encodeDgtClockAck, encodeDgtMessage, versionMessage } from './dgt/encoder.ts';
import type { BoardEncoder, HostCommand } from './types.ts';

/** What a simulated board answers from: its position and who it is. */
export interface SimulatedBoardState {
  /** The board as it stands (board string or FEN). */
  board: BoardString;
  /** Who the board is (serial, firmware, squares, senses, capabilities). */
  hello: HelloEvent;
}

/** The bytes a board sends in answer to `cmd` (empty when it sends nothing), stamped with time `t`. */
export function boardReply(
  encoder: BoardEncoder,
  cmd: HostCommand,
  state: SimulatedBoardState,
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
      return encoder.protocol === 'line' ? concatBytes([hello(), snapshot()]) : hello();
    case 'version':
      return encoder.protocol === 'dgt'
        ? encodeDgtMessage(versionMessage(state.hello.firmware))
        : new Uint8Array(0);
    case 'set-clock':
      return encoder.protocol === 'dgt' ? encodeDgtClockAck(CLOCK.SETNRUN) : new Uint8Array(0);
    case 'display':
      return encoder.protocol === 'dgt' ? encodeDgtClockAck(CLOCK.ASCII) : new Uint8Array(0);
    default:
      return new Uint8Array(0);
  }
}
