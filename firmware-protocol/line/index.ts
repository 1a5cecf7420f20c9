// The damlink line protocol (PROTOCOL.md part 1): text lines at 115200 baud; a board numbers its
// changes from boot and sends them again on request; optional commands wait for the capability its
// hello announced.
import { LineRawReader } from '../calibration/raw.ts';
import type { ProtocolDescriptor } from '../descriptor.ts';
import { LineDecoder } from './decoder.ts';
import { encodeLineCommand, LineBoardEncoder, LineCommandParser } from './encoder.ts';
import { LINE_COMMAND_CAPABILITY } from './messages.ts';

export const LINE: ProtocolDescriptor = {
  decoder: (options) => new LineDecoder(options),
  encodeCommand: (command) => encodeLineCommand(command),
  boardEncoder: () => new LineBoardEncoder(),
  commandParser: () => new LineCommandParser(),
  baud: 115200,
  startCommands: [],
  commandCapability: LINE_COMMAND_CAPABILITY,
  clockAck: {},
  memory: 'numbered',
  rawReader: (options) => new LineRawReader(options),
  // A line board names its pieces itself: only its square numbering is learned.
  profileOptions: (profile, options) => ({ ...options, squareMap: profile.fieldMap }),
};
