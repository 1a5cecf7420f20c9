// The board protocols damlink speaks: one descriptor each, from its folder. The names are this
// list's keys, so a new protocol is its folder and one line here.
import { DGT } from './dgt/index.ts';
import type { ProtocolDescriptor } from './descriptor.ts';
import { HID } from './hid/index.ts';
import { LINE } from './line/index.ts';

export const DESCRIPTORS = { line: LINE, dgt: DGT, hid: HID } as const satisfies Record<
  string,
  ProtocolDescriptor
>;

export type ProtocolName = keyof typeof DESCRIPTORS;
export const PROTOCOLS = Object.keys(DESCRIPTORS) as readonly ProtocolName[];
