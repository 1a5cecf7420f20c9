// DGT boards (PROTOCOL.md part 2): binary messages at 9600 baud, field updates in scan order, a clock
// that acknowledges its commands, and the game kept in the board's EEPROM.
import { DgtRawReader } from '../calibration/raw.ts';
import type { ProtocolDescriptor } from '../descriptor.ts';
import type { ProtocolOptions } from '../types.ts';
import { CLOCK } from './constants.ts';
import { DgtDecoder } from './decoder.ts';
import { DgtBoardEncoder, DgtCommandParser, encodeDgtCommand } from './encoder.ts';
import { DgtMessageReader } from './messages.ts';

export const DGT: ProtocolDescriptor = {
  decoder: (options) => new DgtDecoder(options),
  encodeCommand: encodeDgtCommand,
  boardEncoder: (options) => new DgtBoardEncoder(options),
  commandParser: (options) => new DgtCommandParser(options),
  baud: 9600,
  // Field changes plus the clock whenever it changes (0x4b); never a scan-mode (EEPROM) command.
  startCommands: [{ type: 'reset' }, { type: 'update-mode', mode: 'changes+clock-nice' }],
  commandCapability: {},
  clockAck: { 'set-clock': CLOCK.SETNRUN, display: CLOCK.ASCII },
  memory: 'tail',
  rawReader: () => new DgtRawReader(),
  profileOptions: (profile, described) => {
    const options: ProtocolOptions = { ...described };
    if (profile.pieces) options.pieceCodes = profile.pieces;
    if (profile.occupied !== undefined) options.occupiedCode = profile.occupied;
    const key = profile.fields === 50 ? 'fields50' : profile.fields === 100 ? 'fields100' : 'fields64';
    options.fieldMap = { [key]: profile.fieldMap };
    if (profile.size === 10) options.scan = profile.fields === 100 ? '100' : '50';
    return options;
  },
  messages: () => new DgtMessageReader(),
};
