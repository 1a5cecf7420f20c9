// The board description file (`damlink decode --field-map FILE`, daemon config): JSON with the field
// map, piece codes, orientation, clock side and HID layout. Parsed without throwing.
import { fieldMapProblem } from './board-string.ts';
import { isScanPeriod, SCAN_MS_MAX, SCAN_MS_MIN } from './events.ts';
import { err, ok, type Result } from './result.ts';
import type { FieldMap, HidLayout, PieceCodes, ProtocolOptions } from './types.ts';

const fail = (message: string) => err({ code: 'bad-board-config', message });
const isObject = (x: unknown): x is Record<string, unknown> =>
  typeof x === 'object' && x !== null && !Array.isArray(x);
const isByte = (x: unknown): x is number =>
  Number.isInteger(x) && (x as number) >= 0 && (x as number) <= 0xff;

/** Checks parsed JSON (or a daemon config section) and returns typed options. */
export function checkBoardConfig(json: unknown): Result<ProtocolOptions> {
  if (!isObject(json)) return fail('expected a JSON object');
  const options: ProtocolOptions = {};
  if (json.size !== undefined) {
    if (json.size !== 10 && json.size !== 8) return fail('size must be 10 or 8');
    options.size = json.size;
  }
  const fieldMap: FieldMap = {};
  const maps: [keyof FieldMap, number][] = [
    ['fields50', 50],
    ['fields50W', 50],
    ['fields100', 100],
    ['fields64', 64],
  ];
  for (const [key, fields] of maps) {
    const value = json[key] ?? (isObject(json.fieldMap) ? json.fieldMap[key] : undefined);
    if (value === undefined) continue;
    if (!Array.isArray(value)) return fail(`${key} must be an array`);
    const problem = fieldMapProblem(value as number[], fields, fields === 64 ? 32 : 50);
    if (problem) return fail(`${key} ${problem}`);
    fieldMap[key] = value as number[];
  }
  if (Object.keys(fieldMap).length) options.fieldMap = fieldMap;
  const pieces = json.pieces ?? json.pieceCodes;
  if (pieces !== undefined) {
    if (
      !isObject(pieces) ||
      !(['w', 'b', 'W', 'B'] as const).every((k) => isByte(pieces[k]) && pieces[k] !== 0)
    ) {
      return fail('pieces must give w, b, W and B as non-zero byte values');
    }
    options.pieceCodes = pieces as unknown as PieceCodes;
  }
  if (json.orientation !== undefined) {
    if (json.orientation !== 'auto' && json.orientation !== 'normal' && json.orientation !== 'rotated') {
      return fail('orientation must be auto, normal or rotated');
    }
    options.orientation = json.orientation;
  }
  if (json.scan !== undefined) {
    if (json.scan !== '50' && json.scan !== '100') return fail('scan must be "50" or "100"');
    options.scan = json.scan;
  }
  if (json.scanMs !== undefined) {
    const ms = json.scanMs;
    if (ms !== 0 && !isScanPeriod(ms))
      return fail(`scanMs must be 0 or a whole number of ms from ${SCAN_MS_MIN} to ${SCAN_MS_MAX}`);
    options.scanMs = ms;
  }
  if (json.clockWhite !== undefined) {
    if (json.clockWhite !== 'left' && json.clockWhite !== 'right')
      return fail('clockWhite must be left or right');
    options.clockWhite = json.clockWhite;
  }
  if (json.senses !== undefined) {
    if (json.senses !== 'pieces' && json.senses !== 'occupancy')
      return fail('senses must be pieces or occupancy');
    options.senses = json.senses;
  }
  if (json.occupied !== undefined) {
    if (!isByte(json.occupied) || json.occupied === 0) return fail('occupied must be a non-zero byte value');
    options.occupiedCode = json.occupied;
  }
  if (json.allowEepromScanCommands !== undefined)
    options.allowEepromScanCommands = json.allowEepromScanCommands === true;
  if (json.hidLayout !== undefined) {
    const layout = checkHidLayout(json.hidLayout);
    if (!layout.ok) return layout;
    options.hidLayout = layout.value;
  }
  return ok(options);
}

export function parseBoardConfig(text: string): Result<ProtocolOptions> {
  let json: unknown;
  try {
    json = JSON.parse(text);
  } catch (e) {
    return fail(`not JSON: ${(e as Error).message}`);
  }
  return checkBoardConfig(json);
}

function checkHidLayout(x: unknown): Result<HidLayout> {
  const no = (message: string) => fail(`hidLayout: ${message}`);
  if (!isObject(x)) return no('expected an object');
  const {
    reportId,
    offset,
    cells,
    bitsPerCell,
    nibbleOrder,
    codes,
    realtimeCommand,
    snapshotCommand,
    cellMap,
  } = x;
  if (reportId !== null && !isByte(reportId)) return no('reportId must be a byte or null');
  if (!Number.isInteger(offset) || (offset as number) < 0) return no('offset must be a non-negative integer');
  if (cells !== 50 && cells !== 32 && cells !== 100 && cells !== 64)
    return no('cells must be 50, 32, 100 or 64');
  if (bitsPerCell !== 4 && bitsPerCell !== 8) return no('bitsPerCell must be 4 or 8');
  if (nibbleOrder !== undefined && nibbleOrder !== 'low-first' && nibbleOrder !== 'high-first')
    return no('nibbleOrder must be low-first or high-first');
  if (!isObject(codes) || !(['empty', 'w', 'b', 'W', 'B'] as const).every((k) => isByte(codes[k])))
    return no('codes must give empty, w, b, W, B');
  if (codes.occupied !== undefined && !isByte(codes.occupied)) return no('codes.occupied must be a byte');
  const bytes = (v: unknown) => Array.isArray(v) && v.every(isByte);
  if (!bytes(realtimeCommand)) return no('realtimeCommand must be an array of bytes');
  if (snapshotCommand !== undefined && !bytes(snapshotCommand))
    return no('snapshotCommand must be an array of bytes');
  const squares = cells === 50 || cells === 100 ? 50 : 32;
  if (cellMap !== undefined) {
    if (!Array.isArray(cellMap)) return no('cellMap must be an array');
    const problem = fieldMapProblem(cellMap as number[], cells, squares);
    if (problem) return no(`cellMap ${problem}`);
  }
  const layout: HidLayout = {
    reportId: reportId as number | null,
    offset: offset as number,
    cells,
    bitsPerCell,
    nibbleOrder: (nibbleOrder as HidLayout['nibbleOrder']) ?? 'low-first',
    codes: codes as HidLayout['codes'],
    realtimeCommand: realtimeCommand as number[],
  };
  if (snapshotCommand) layout.snapshotCommand = snapshotCommand as number[];
  if (cellMap) layout.cellMap = cellMap as number[];
  for (const k of ['vendorId', 'productId', 'usagePage'] as const)
    if (Number.isInteger(x[k])) layout[k] = x[k] as number;
  if (x.senses === 'occupancy' || x.senses === 'pieces') layout.senses = x.senses;
  return ok(layout);
}
