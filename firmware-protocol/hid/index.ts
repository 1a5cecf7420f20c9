// HID snapshot boards (PROTOCOL.md part 3): an input report holds the whole board, so its changes
// have no order; an output report starts real-time mode. No clock, no memory.
import { HidRawReader, hidRawCode } from '../calibration/raw.ts';
import type { ProtocolDescriptor } from '../descriptor.ts';
import { encodeHidCommand, HidBoardEncoder, HidCommandParser, HidDecoder } from './codec.ts';
import { DEFAULT_HID_LAYOUT, resolveLayout } from './layout.ts';

export const HID: ProtocolDescriptor = {
  decoder: (options) => new HidDecoder(options),
  encodeCommand: encodeHidCommand,
  boardEncoder: (options) => new HidBoardEncoder(options),
  commandParser: (options) => new HidCommandParser(options),
  baud: 0,
  startCommands: [{ type: 'realtime' }],
  commandCapability: {},
  clockAck: {},
  memory: 'none',
  rawReader: (options) => new HidRawReader(options),
  profileOptions: (profile, options) => {
    const layout = options.hidLayout ?? DEFAULT_HID_LAYOUT;
    const empty = layout.codes.empty;
    const code = (raw: number) => hidRawCode(raw, empty);
    const p = profile.pieces;
    const any = profile.occupied !== undefined ? code(profile.occupied) : undefined;
    return {
      ...options,
      hidLayout: {
        ...layout,
        cells: profile.fields,
        cellMap: profile.fieldMap,
        senses: profile.senses,
        codes: p
          ? { empty, w: code(p.w), b: code(p.b), W: code(p.W), B: code(p.B) }
          : { empty, w: any!, b: any!, W: any!, B: any!, occupied: any },
      },
    };
  },
  reportLength: (options) => resolveLayout(options.hidLayout).length,
};
