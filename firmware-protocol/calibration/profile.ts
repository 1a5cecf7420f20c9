// A board profile: what calibration learned about one physical board (by serial number), and how it
// becomes the board description the decoders read.
import {
  type BoardSize,
  darkScanFieldMap,
  fieldMapProblem,
  fullScanFieldMap,
  squareCount,
} from '../board-string.ts';
import { err, ok, type Result } from '../result.ts';
import type { ProtocolOptions } from '../types.ts';
import { DESCRIPTORS, PROTOCOLS, type ProtocolName } from '../protocols.ts';
import type { LearnedBoard } from './learned.ts';

export type { KingSensing, LearnedBoard } from './learned.ts';

export const PROFILE_FORMAT = 'damlink-board-profile/1';

/** A board's calibration, kept by its serial number. */
export interface BoardProfile extends LearnedBoard {
  format: typeof PROFILE_FORMAT;
  serial: string;
  protocol: ProtocolName;
}

const FIELD_COUNTS: Record<number, { size: BoardSize }> = {
  50: { size: 10 },
  100: { size: 10 },
  32: { size: 8 },
  64: { size: 8 },
};

export const sizeOfFieldCount = (fields: number): BoardSize | undefined => FIELD_COUNTS[fields]?.size;

const fail = (message: string) => err({ code: 'bad-profile', message });
const isObject = (x: unknown): x is Record<string, unknown> =>
  typeof x === 'object' && x !== null && !Array.isArray(x);
const isCode = (x: unknown): x is number => Number.isInteger(x) && (x as number) > 0 && (x as number) <= 0xff;

/** Checks a profile read from a file (parsed JSON); never throws. */
export function checkBoardProfile(json: unknown): Result<BoardProfile> {
  if (!isObject(json)) return fail('expected a JSON object');
  if (json.format !== PROFILE_FORMAT) return fail(`format must be "${PROFILE_FORMAT}"`);
  if (typeof json.serial !== 'string' || json.serial === '') return fail('serial must be a string');
  if (!(PROTOCOLS as readonly unknown[]).includes(json.protocol))
    return fail(`protocol must be ${PROTOCOLS.join(', ')}`);
  const fields = json.fields as number;
  const size = sizeOfFieldCount(fields);
  if (!size || json.size !== size) return fail('fields must be 50 or 100 (size 10), 32 or 64 (size 8)');
  if (!Array.isArray(json.fieldMap)) return fail('fieldMap must be an array');
  const problem = fieldMapProblem(json.fieldMap as number[], fields, squareCount(size));
  if (problem) return fail(`fieldMap ${problem}`);
  const map = json.fieldMap as number[];
  const lightFields = map.flatMap((sq, f) => (sq === 0 ? [f] : []));
  if (json.senses === 'pieces') {
    const p = json.pieces;
    if (!isObject(p) || !(['w', 'b', 'W', 'B'] as const).every((k) => isCode(p[k])))
      return fail('pieces must give w, b, W and B as codes 1–255');
    if (json.kings !== 'crown' && json.kings !== 'stacked' && json.kings !== 'as-man')
      return fail('kings must be crown, stacked or as-man');
  } else if (json.senses === 'occupancy') {
    if (!isCode(json.occupied)) return fail('occupied must be a code 1–255');
  } else return fail('senses must be pieces or occupancy');
  return ok({ ...(json as unknown as BoardProfile), fieldMap: map, lightFields });
}

export function parseBoardProfile(text: string): Result<BoardProfile> {
  try {
    return checkBoardProfile(JSON.parse(text));
  } catch (e) {
    return fail(`not JSON: ${(e as Error).message}`);
  }
}

/** Keys of a board description that a profile replaces. */
export const PROFILE_KEYS = [
  'fieldMap',
  'pieceCodes',
  'scan',
  'senses',
  'occupiedCode',
  'squareMap',
] as const;

/** The keys of `options` a profile would replace (to warn about: both were given). */
export const replacedByProfile = (options: ProtocolOptions): string[] =>
  PROFILE_KEYS.filter((k) => options[k] !== undefined);

/**
 * The profile laid over a board description: the learned field map, scan and codes replace what
 * `base` says about them (the rest — clock side, orientation, HID report layout — stays).
 */
export function profileOptions(profile: BoardProfile, base: ProtocolOptions = {}): ProtocolOptions {
  const { fieldMap: _map, pieceCodes: _codes, senses: _senses, scan: _scan, ...rest } = base;
  const options: ProtocolOptions = { ...rest, size: profile.size, senses: profile.senses };
  return DESCRIPTORS[profile.protocol].profileOptions(profile, options);
}

/**
 * How a learned field order relates to the protocol's default numbering: the same, the board turned
 * 180°, each row read from the other end, both, or any other order.
 */
export type FieldOrder = 'default' | 'turned' | 'mirrored' | 'mirrored-turned' | 'permutation';

export function fieldOrder(profile: Pick<BoardProfile, 'size' | 'fields' | 'fieldMap'>): FieldOrder {
  const { size, fields, fieldMap } = profile;
  const standard = fields === squareCount(size) ? darkScanFieldMap(size) : fullScanFieldMap(size);
  const row = fields / size;
  const turned = (i: number) => fields - 1 - i;
  const mirrored = (i: number) => Math.floor(i / row) * row + (row - 1 - (i % row));
  const is = (field: (i: number) => number) => fieldMap.every((sq, i) => sq === standard[field(i)]);
  if (is((i) => i)) return 'default';
  if (is(turned)) return 'turned';
  if (is(mirrored)) return 'mirrored';
  if (is((i) => mirrored(turned(i)))) return 'mirrored-turned';
  return 'permutation';
}
