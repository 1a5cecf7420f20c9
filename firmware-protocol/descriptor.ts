// What a board protocol is, said once: each protocol folder's index.ts exports one descriptor, and
// protocols.ts lists them (the protocol names are the list's keys). A new protocol is a folder and a
// line there; the compiler asks for every part below.
import type { RawReader } from './calibration/raw.ts';
import type { LearnedBoard } from './calibration/learned.ts';
import type {
  BoardEncoder,
  CommandParser,
  Decoder,
  HostCommand,
  HostCommandType,
  ProtocolOptions,
} from './types.ts';

/**
 * How a board remembers what happened on it while no host listened:
 * - `numbered`: changes numbered since the board's boot, sent again from a number on request;
 * - `tail`: a log of the game (DGT's EEPROM), read whole and matched by the changes last seen;
 * - `none`: it forgets.
 */
export type BoardMemory = 'numbered' | 'tail' | 'none';

/** A board's messages beyond its events (serial, version, clock acks), for `decode` and `doctor`. */
export interface MessageReader {
  push(chunk: Uint8Array, t: number): ReadonlyArray<{ t: number; offset: number; message: string }>;
}

export interface ProtocolDescriptor {
  /** Host side: a fresh decoder for one link. */
  decoder(options: ProtocolOptions): Decoder;
  /** Host side: a command's bytes; empty when the protocol (or these options) cannot say it. */
  encodeCommand(command: HostCommand, options: ProtocolOptions): Uint8Array;
  /** Board side (simulator): events → bytes. */
  boardEncoder(options: ProtocolOptions): BoardEncoder;
  /** Board side (simulator): host bytes → commands. */
  commandParser(options: ProtocolOptions): CommandParser;
  /** A serial link's speed; 0 where the link has none (HID). */
  readonly baud: number;
  /** Sent first on every new link: what puts the board into event mode. */
  readonly startCommands: readonly HostCommand[];
  /** Commands a board takes only once its hello announced this capability. */
  readonly commandCapability: Partial<Readonly<Record<HostCommandType, string>>>;
  /** Commands the board's clock acknowledges, with the command byte its ack names. */
  readonly clockAck: Partial<Readonly<Record<HostCommandType, number>>>;
  readonly memory: BoardMemory;
  /** What the board says before calibration: fields and raw codes. */
  rawReader(options: ProtocolOptions): RawReader;
  /** A calibrated profile laid over a board description (without the keys a profile replaces). */
  profileOptions(profile: LearnedBoard, options: ProtocolOptions): ProtocolOptions;
  /** Messages beyond events, where the protocol has them. */
  messages?(): MessageReader;
  /** Captures hold whole reports back to back: a report's length (HID). */
  reportLength?(options: ProtocolOptions): number;
}
