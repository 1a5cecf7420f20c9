// ProtocolDriver for each firmware protocol, built on firmware-protocol's decoders and encoders.
import {
  type BoardProfile,
  canEncodeHostCommand,
  commandRoute,
  createDecoder,
  encodeHostCommand,
  profileOptions,
  replacedByProfile,
} from '../../firmware-protocol/index.ts';
import type { HostCommand, ProtocolName, ProtocolOptions } from '../../firmware-protocol/types.ts';
import type { ProtocolDriver } from './driver.ts';

const BAUD: Record<ProtocolName, number> = { line: 115200, dgt: 9600, hid: 0 };

/** Commands that put a board into event mode on each new link. */
const START: Record<ProtocolName, HostCommand[]> = {
  line: [],
  // Field changes plus the clock whenever it changes (DGT 0x4b); never a scan-mode (EEPROM) command.
  dgt: [{ type: 'reset' }, { type: 'update-mode', mode: 'changes+clock-nice' }],
  hid: [{ type: 'realtime' }],
};

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
  return {
    ...(profiles ? { forSerial } : {}),
    name,
    createDecoder: () => createDecoder(name, options),
    encode: (command) => encodeHostCommand(name, command, options),
    route: (command, hello, encodable = canEncodeHostCommand(name, command, options)) =>
      commandRoute(name, command, encodable, hello),
    startCommands: START[name],
    canIdentify: canEncodeHostCommand(name, { type: 'identify' }, options),
    canPing: canEncodeHostCommand(name, { type: 'ping' }, options),
    baudRate: baudRate ?? BAUD[name],
  };
}
