// ProtocolDriver for each firmware protocol, built on firmware-protocol's decoders and encoders.
import {
  type BoardProfile,
  canEncodeHostCommand,
  commandRoute,
  createDecoder,
  DESCRIPTORS,
  encodeHostCommand,
  type ProtocolName,
  profileOptions,
  replacedByProfile,
} from '../../firmware-protocol/index.ts';
import type { ProtocolOptions } from '../../firmware-protocol/types.ts';
import type { ProtocolDriver } from './driver.ts';

/** Calibrated boards by serial number (`<dataDir>/profiles/`). */
export type ProfilesBySerial = ReadonlyMap<string, BoardProfile>;

export function protocolDriver(
  name: ProtocolName,
  options: ProtocolOptions = {},
  baudRate?: number,
  profiles?: ProfilesBySerial,
): ProtocolDriver {
  // One driver per profile: a board calibrated again (a new profile for its serial) gets a new one.
  const profiled = new WeakMap<BoardProfile, ProtocolDriver>();
  const forSerial = (serial: string): ProtocolDriver | undefined => {
    const profile = profiles?.get(serial);
    if (!profile || profile.protocol !== name) return undefined;
    let driver = profiled.get(profile);
    if (!driver) {
      driver = {
        ...protocolDriver(name, profileOptions(profile, options), baudRate),
        replaced: replacedByProfile(options),
      };
      profiled.set(profile, driver);
    }
    return driver;
  };
  const descriptor = DESCRIPTORS[name];
  return {
    ...(profiles ? { forSerial } : {}),
    name,
    createDecoder: () => createDecoder(name, options),
    encode: (command) => encodeHostCommand(name, command, options),
    route: (command, hello, encodable = canEncodeHostCommand(name, command, options)) =>
      commandRoute(name, command, encodable, hello),
    startCommands: descriptor.startCommands,
    memory: descriptor.memory,
    ...(descriptor.messages ? { messages: descriptor.messages } : {}),
    canIdentify: canEncodeHostCommand(name, { type: 'identify' }, options),
    canPing: canEncodeHostCommand(name, { type: 'ping' }, options),
    baudRate: baudRate ?? descriptor.baud,
  };
}
