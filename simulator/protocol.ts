// The board side of each firmware protocol the simulator speaks: encoder + host-command parser.
import { DgtBoardEncoder, DgtCommandParser } from '../firmware-protocol/dgt/encoder.ts';
import { LineBoardEncoder, LineCommandParser } from '../firmware-protocol/line/encoder.ts';
import type { BoardEncoder, CommandParser, ProtocolOptions } from '../firmware-protocol/types.ts';

export type SimProtocol = 'line' | 'dgt';
export const SIM_PROTOCOLS: readonly SimProtocol[] = ['line', 'dgt'];

export function boardSide(
  protocol: SimProtocol,
  options: ProtocolOptions = {},
): { encoder: BoardEncoder; parser: CommandParser } {
  return protocol === 'dgt'
    ? { encoder: new DgtBoardEncoder(options), parser: new DgtCommandParser(options) }
    : { encoder: new LineBoardEncoder(), parser: new LineCommandParser() };
}
