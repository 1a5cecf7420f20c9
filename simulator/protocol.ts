// The board side of each firmware protocol the simulator speaks: encoder + host-command parser.
import { createBoardEncoder, createCommandParser } from '../firmware-protocol/index.ts';
import type { BoardEncoder, CommandParser, ProtocolOptions } from '../firmware-protocol/types.ts';

export type SimProtocol = 'line' | 'dgt';
export const SIM_PROTOCOLS: readonly SimProtocol[] = ['line', 'dgt'];

export function boardSide(
  protocol: SimProtocol,
  options: ProtocolOptions = {},
): { encoder: BoardEncoder; parser: CommandParser } {
  return { encoder: createBoardEncoder(protocol, options), parser: createCommandParser(protocol, options) };
}
