// `--field-map FILE`: a board description (field maps, piece codes, orientation, clock side, HID
// layout) as firmware-protocol reads it; the same file for decode, simulate, calibrate and capture.
import { readFileSync } from 'node:fs';
import { parseBoardConfig, type ProtocolOptions } from '../../firmware-protocol/index.ts';
import { usageError } from '../failure.ts';

export const FIELD_MAP_HELP =
  'board description JSON: field map, piece codes, orientation, clock side, HID layout';

/** The description in `path` (none: no options); a file that cannot be read or used is a usage error. */
export function readBoardDescription(path: string | undefined): ProtocolOptions {
  if (!path) return {};
  let text: string;
  try {
    text = readFileSync(path, 'utf8');
  } catch (e) {
    throw usageError(`cannot read ${path}: ${(e as Error).message}`);
  }
  const parsed = parseBoardConfig(text);
  if (!parsed.ok) throw usageError(`${path}: ${parsed.error.message}`);
  return parsed.value;
}
