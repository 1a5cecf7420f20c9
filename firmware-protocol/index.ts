// firmware-protocol: bytes ⇄ BoardEvents for the damlink line protocol, DGT boards and HID snapshot
// boards. Pure: no ports, no timers; the caller passes receive times in.
import type { RawReader } from './calibration/raw.ts';
import { DESCRIPTORS, type ProtocolName } from './protocols.ts';
import type { BoardEncoder, CommandParser, Decoder, HostCommand, ProtocolOptions } from './types.ts';

export * from './board-string.ts';
export * from './bytes.ts';
export * from './clock-command.ts';
export * from './config.ts';
export {
  ackData,
  bwTimeData,
  type ClockAck,
  clockAckMeaning,
  clockCommandName,
  parseBwTime,
} from './dgt/clock.ts';
export { CLOCK, CLOCK_ACK, CMD, DEFAULT_PIECE_CODES, DGT_SCAN_MS, MSG } from './dgt/constants.ts';
export { DgtDecoder } from './dgt/decoder.ts';
export {
  DgtBoardEncoder,
  DgtCommandParser,
  type DgtMessage,
  encodeDgtClockAck,
  encodeDgtCommand,
  encodeDgtMessage,
} from './dgt/encoder.ts';
export type * from './events.ts';
export { encodeHidCommand, HidBoardEncoder, HidCommandParser, HidDecoder, hidHello } from './hid/codec.ts';
export { DEFAULT_HID_LAYOUT } from './hid/layout.ts';
export { LineDecoder } from './line/decoder.ts';
export { encodeLineCommand, LineBoardEncoder, LineCommandParser } from './line/encoder.ts';
export { crc16, frameLine, LINE_PROTOCOL_VERSION, MAX_LINE, unframeLine } from './line/frame.ts';
export * from './orientation.ts';
export * from './protocols.ts';
export type * from './descriptor.ts';
export { boardReply, type SimulatedBoardState } from './reply.ts';
export * from './result.ts';
export * from './types.ts';

/** Host side: a fresh decoder for one board connection. */
export const createDecoder = (protocol: ProtocolName, options: ProtocolOptions = {}): Decoder =>
  DESCRIPTORS[protocol].decoder(options);

/** Host side: the bytes for a command; empty when this protocol (or these options) cannot say it. */
export const encodeHostCommand = (
  protocol: ProtocolName,
  cmd: HostCommand,
  options: ProtocolOptions = {},
): Uint8Array => DESCRIPTORS[protocol].encodeCommand(cmd, options);

export const canEncodeHostCommand = (
  protocol: ProtocolName,
  cmd: HostCommand,
  options: ProtocolOptions = {},
): boolean => encodeHostCommand(protocol, cmd, options).length > 0;

/** Board side (simulator): events → bytes, with the board's own state (sequence numbers, lever, picture). */
export const createBoardEncoder = (protocol: ProtocolName, options: ProtocolOptions = {}): BoardEncoder =>
  DESCRIPTORS[protocol].boardEncoder(options);

/** Board side (simulator): host bytes → commands to answer. */
export const createCommandParser = (protocol: ProtocolName, options: ProtocolOptions = {}): CommandParser =>
  DESCRIPTORS[protocol].commandParser(options);
export * from './calibration/index.ts';
export { type DgtInfo, type DgtInfoAt, DgtMessageReader, describeDgtMessage } from './dgt/messages.ts';

/** Calibration: what a board says before its fields and codes are known. */
export const createRawReader = (protocol: ProtocolName, options: ProtocolOptions = {}): RawReader =>
  DESCRIPTORS[protocol].rawReader(options);
