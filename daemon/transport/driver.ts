// What a connection needs from a protocol: a fresh decoder per link, host commands as bytes, and
// what the protocol can ask of a board (from its descriptor, firmware-protocol/<name>/index.ts).
import type { CommandRoute } from '../../firmware-protocol/clock-command.ts';
import type { BoardMemory, MessageReader } from '../../firmware-protocol/descriptor.ts';
import type { BoardEvent, HelloEvent } from '../../firmware-protocol/events.ts';
import type { HostCommand } from '../../firmware-protocol/types.ts';

export interface StreamDecoder {
  push(chunk: Uint8Array, t: number): BoardEvent[];
  flush(t: number): BoardEvent[];
}

export interface ProtocolDriver {
  readonly name: string;
  createDecoder(): StreamDecoder;
  /** Bytes for a host command; empty when the protocol cannot say it. */
  encode(command: HostCommand): Uint8Array;
  /**
   * Whether the command goes to a board that said `hello` (capabilities), and which ack it waits
   * for; `encodable` when the caller has its bytes already (default: encoded to find out).
   */
  route(command: HostCommand, hello: HelloEvent | undefined, encodable?: boolean): CommandRoute;
  /** Sent first on every new link (DGT update mode, HID real-time mode). */
  readonly startCommands: readonly HostCommand[];
  /** The board answers `identify` with a hello carrying its serial number. */
  readonly canIdentify: boolean;
  /** The board answers a cheap request, so silence means trouble (HID boards only speak on change). */
  readonly canPing: boolean;
  readonly baudRate: number;
  /** How the board remembers what happened while no one listened. */
  readonly memory: BoardMemory;
  /** The board's messages beyond its events (DGT: serial, version, clock), where it has them. */
  messages?(): MessageReader;
  /**
   * The driver for a board whose calibrated profile is known by its serial number (undefined: none).
   * The same driver each time for one profile.
   */
  forSerial?(serial: string): ProtocolDriver | undefined;
  /** A profile's driver: the configured board description keys its profile replaced. */
  readonly replaced?: readonly string[];
}
