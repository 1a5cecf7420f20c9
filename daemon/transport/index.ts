// From a configured board source to what a connection needs: how to open the link and which
// protocol to speak over it.
import type { ProtocolName } from '../../firmware-protocol/protocols.ts';
import type { ProtocolOptions } from '../../firmware-protocol/types.ts';
import type { BoardSource } from '../config/source.ts';
import type { ProtocolDriver } from './driver.ts';
import { type HidApi, hidOpener, nodeHid } from './hid.ts';
import { type DuplexLike, duplexLink, type LinkOpener } from './link.ts';
import { type ProfilesBySerial, protocolDriver } from './protocol.ts';
import { serialOpener } from './serial.ts';
import { tcpOpener } from './tcp.ts';

export type { ConnectionEvents, ConnectionOptions, ConnectionTiming } from './connection-options.ts';
export { DEFAULT_TIMING } from './connection-options.ts';
export { BoardConnection } from './connection.ts';
export type { ProtocolDriver, StreamDecoder } from './driver.ts';
export type { HidApi, HidDevice, HidDeviceInfo } from './hid.ts';
export type { DuplexLike, Link, LinkHandlers, LinkOpener } from './link.ts';
export { duplexLink } from './link.ts';
export { type ProfilesBySerial, protocolDriver } from './protocol.ts';

/** Boards living in this process (the simulator's in-process transport): a byte stream per name. */
export interface InProcessBoards {
  connect(name: string): DuplexLike | Promise<DuplexLike>;
}

export interface TransportDeps {
  inProcess?: InProcessBoards;
  hid?: () => Promise<HidApi>;
  /** Calibrated boards: a board that names one of these serials is decoded through its profile. */
  profiles?: ProfilesBySerial;
}

export interface BoardTransport {
  open: LinkOpener;
  driver: ProtocolDriver;
}

export function defaultProtocol(source: BoardSource): ProtocolName {
  return source.kind === 'hid' ? 'hid' : 'line';
}

export function boardTransport(
  source: BoardSource,
  protocol: { name: 'auto' | ProtocolName; baudRate?: number },
  options: ProtocolOptions,
  deps: TransportDeps = {},
): BoardTransport {
  const name = protocol.name === 'auto' ? defaultProtocol(source) : protocol.name;
  const driver = protocolDriver(name, options, protocol.baudRate, deps.profiles);
  switch (source.kind) {
    case 'serial':
      return { driver, open: serialOpener(source.path, driver.baudRate || 9600) };
    case 'tcp':
      return { driver, open: tcpOpener(source.host, source.port) };
    case 'hid':
      return { driver, open: hidOpener(source, options, deps.hid ?? nodeHid) };
    case 'sim': {
      const boards = deps.inProcess;
      return {
        driver,
        open: async (handlers) => {
          if (!boards) throw new Error(`${source.text}: no in-process simulator running`);
          return duplexLink(await boards.connect(source.name), handlers);
        },
      };
    }
  }
}
