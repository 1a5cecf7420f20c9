// Calibration of boards scrambled in several ways: the wizard learns the field order, the piece
// codes and the light squares from a person following its prompts; the profile it writes decodes
// the board's own bytes into the right squares; a person who strays gets a message and no profile.
import { describe, expect, it } from 'vitest';
import {
  type BoardEvent,
  type BoardProfile,
  checkBoardProfile,
  createBoardEncoder,
  createDecoder,
  DEFAULT_HID_LAYOUT,
  darkScanFieldMap,
  fieldOrder,
  fullScanFieldMap,
  type ProtocolOptions,
  profileOptions,
  renumberSquares,
  startPosition,
} from '../../firmware-protocol/index.ts';
import {
  calibrateBoard,
  mirroredFields100,
  mirroredFields50,
  randomFields50,
  rotatedFields50,
} from './fixtures/calibration-boards.ts';

const START = startPosition(10);
/** A middle game with kings of both colours. */
const MIDGAME = `bbbbb.bbb.b.B......b..w...W.....ww.w.wwwww.w..w.w.`;

function profileOf(options: ProtocolOptions, follow = {}): BoardProfile {
  const session = calibrateBoard('dgt', options, follow);
  expect(session.last?.type, JSON.stringify(session.last)).toBe('done');
  if (session.last?.type !== 'done') throw new Error('no profile');
  return session.last.profile;
}

/** The board's own bytes for a position, decoded with the learned profile, give the position. */
function readsBack(board: ProtocolOptions, profile: BoardProfile, position: string): string | undefined {
  const bytes = createBoardEncoder('dgt', board).encode({ t: 0, type: 'snapshot', board: position });
  const events = createDecoder('dgt', { ...profileOptions(profile), orientation: 'normal' }).push(bytes, 0);
  const snap = events.find((e) => e.type === 'snapshot');
  return snap?.type === 'snapshot' ? snap.board : undefined;
}

describe('calibration learns a scrambled board', () => {
  const cases: [string, ProtocolOptions][] = [
    ['a random permutation of the 50 fields', { fieldMap: { fields50: randomFields50(7) } }],
    ['a board turned 180°', { fieldMap: { fields50: rotatedFields50() } }],
    ['a board read mirrored', { fieldMap: { fields50: mirroredFields50() } }],
    [
      'swapped piece codes',
      { fieldMap: { fields50: randomFields50(8) }, pieceCodes: { w: 4, b: 1, W: 10, B: 7 } },
    ],
  ];
  for (const [name, board] of cases) {
    it(`${name}: field map and piece codes learned, positions read back`, () => {
      const profile = profileOf(board);
      expect(profile.fieldMap).toEqual(board.fieldMap?.fields50);
      expect(profile.pieces).toEqual(board.pieceCodes ?? { w: 1, b: 4, W: 7, B: 10 });
      expect(profile.kings).toBe('crown');
      expect(profile.lightFields).toEqual([]);
      expect(readsBack(board, profile, MIDGAME)).toBe(MIDGAME);
      expect(checkBoardProfile(JSON.parse(JSON.stringify(profile)))).toEqual({ ok: true, value: profile });
    });
  }

  it('a 100-field scan read mirrored: the light squares are the fields left over', () => {
    const board: ProtocolOptions = { scan: '100', fieldMap: { fields100: mirroredFields100() } };
    const profile = profileOf(board);
    expect(profile.fields).toBe(100);
    expect(profile.fieldMap).toEqual(mirroredFields100());
    expect(profile.lightFields).toEqual(mirroredFields100().flatMap((sq, f) => (sq === 0 ? [f] : [])));
    expect(profile.lightFields).toHaveLength(50);
    expect(readsBack(board, profile, MIDGAME)).toBe(MIDGAME);
  });

  it('an occupancy-only board: one code for every piece, no king prompts', () => {
    const board: ProtocolOptions = {
      fieldMap: { fields50: randomFields50(9) },
      senses: 'occupancy',
      occupiedCode: 2,
    };
    const session = calibrateBoard('dgt', board);
    const prompts = session.outputs.flatMap((o) => (o.type === 'prompt' ? [o.prompt.action] : []));
    expect(prompts).not.toContain('king');
    const profile = profileOf(board);
    expect(profile).toMatchObject({ senses: 'occupancy', occupied: 2, fieldMap: board.fieldMap?.fields50 });
    expect(readsBack(board, profile, START)).toBe(START.replace(/[wb]/g, 'o'));
  });

  it('kings made of two stacked men: read as codes of their own, marked stacked', () => {
    const board: ProtocolOptions = { pieceCodes: { w: 1, b: 4, W: 0x11, B: 0x14 } };
    const profile = profileOf(board, { kings: 'stacked' });
    expect(profile.kings).toBe('stacked');
    expect(profile.pieces).toEqual({ w: 1, b: 4, W: 0x11, B: 0x14 });
  });

  it('a board that reads kings as men: kings as-man, men read as men', () => {
    const board: ProtocolOptions = { pieceCodes: { w: 1, b: 4, W: 1, B: 4 } };
    const profile = profileOf(board);
    expect(profile.kings).toBe('as-man');
    expect(readsBack(board, profile, START)).toBe(START);
  });

  it('asks for every square once, then two kings and the check: 54 prompts on 10×10', () => {
    const session = calibrateBoard('dgt', {});
    const prompts = session.outputs.flatMap((o) => (o.type === 'prompt' ? [o.prompt] : []));
    expect(prompts).toHaveLength(54);
    expect(prompts[0]).toMatchObject({ action: 'setup', n: 1, of: 54 });
    expect(prompts[1]).toMatchObject({
      action: 'lift-return',
      square: 1,
      text: 'Lift the piece on 1 and put it back.',
    });
    expect(prompts.at(-1)).toMatchObject({ action: 'check', n: 54 });
    const learned = session.outputs.filter((o) => o.type === 'learned');
    expect(learned).toHaveLength(50);
  });

  it('an 8×8 line board whose firmware numbers the squares backwards: the profile renumbers them', () => {
    const backwards = Array.from({ length: 32 }, (_, i) => 32 - i);
    const firmware = (e: BoardEvent) => renumberSquares(e, backwards);
    const session = calibrateBoard('line', { size: 8 }, {}, undefined, undefined, firmware);
    expect(session.last?.type).toBe('done');
    if (session.last?.type !== 'done') return;
    const profile = session.last.profile;
    expect(profile).toMatchObject({ size: 8, fields: 32, senses: 'pieces', fieldMap: backwards });
    const decoder = createDecoder('line', profileOptions(profile));
    const encoder = createBoardEncoder('line', { size: 8 });
    const lift = firmware({ t: 0, type: 'lift', square: 3 });
    expect(lift).toMatchObject({ square: 30 });
    const decoded = decoder.push(encoder.encode(lift), 0);
    expect(decoded.at(-1)).toMatchObject({ type: 'lift', square: 3 });
  });
});

describe('calibration of a HID board', () => {
  it('a report whose cells are in a random order, other codes: the profile reads it back', () => {
    const hidLayout = {
      ...DEFAULT_HID_LAYOUT,
      cellMap: randomFields50(12),
      codes: { empty: 0, w: 2, b: 1, W: 4, B: 3, occupied: 5 },
    };
    const session = calibrateBoard('hid', { hidLayout });
    expect(session.last?.type, JSON.stringify(session.last)).toBe('done');
    if (session.last?.type !== 'done') return;
    const profile = session.last.profile;
    expect(profile.fieldMap).toEqual(hidLayout.cellMap);
    const options = profileOptions(profile, { hidLayout: DEFAULT_HID_LAYOUT });
    expect(options.hidLayout?.codes).toMatchObject({ w: 2, b: 1, W: 4, B: 3 });
    const report = createBoardEncoder('hid', { hidLayout }).encode({
      t: 0,
      type: 'snapshot',
      board: MIDGAME,
    });
    const [snap] = createDecoder('hid', { ...options, orientation: 'normal' }).push(report, 0);
    expect(snap).toMatchObject({ type: 'snapshot', board: MIDGAME });
  });
});

describe('a board that does not follow the prompts gets a message and no profile', () => {
  const failure = (session: ReturnType<typeof calibrateBoard>) => {
    expect(session.outputs.some((o) => o.type === 'done')).toBe(false);
    expect(session.last?.type).toBe('failed');
    return session.last?.type === 'failed' ? session.last : undefined;
  };

  it('two squares touched for one prompt', () => {
    const session = calibrateBoard('dgt', {}, {}, (p, events) =>
      p.prompt.action === 'lift-return' && p.prompt.square === 3
        ? [
            events[0],
            { t: events[0].t + 1, type: 'lift', square: 4 },
            { t: events[0].t + 2, type: 'put', square: 4, piece: 'b' },
            events[1],
          ]
        : events,
    );
    expect(failure(session)).toMatchObject({ code: 'several-squares' });
    expect(failure(session)?.message).toMatch(/square 3 alone/);
  });

  it('the wrong piece lifted: found when its square comes again', () => {
    const session = calibrateBoard('dgt', {}, {}, (p, events) =>
      p.prompt.action === 'lift-return' && p.prompt.square === 5
        ? events.map((e) => ({ ...e, square: 6 }))
        : events,
    );
    expect(failure(session)).toMatchObject({ code: 'square-twice' });
  });

  it('a white man lifted where a black one stands', () => {
    const session = calibrateBoard('dgt', {}, {}, (p, events) =>
      p.prompt.action === 'lift-return' && p.prompt.square === 2
        ? events.map((e) => ({ ...e, square: 40, ...(e.type === 'put' ? { piece: 'w' as const } : {}) }))
        : events,
    );
    expect(failure(session)).toMatchObject({ code: 'wrong-piece' });
  });

  it('a board whose dumps number the fields otherwise than its updates', () => {
    const session = calibrateBoard('dgt', {}, {}, undefined, { fieldMap: { fields50: rotatedFields50() } });
    expect(failure(session)).toMatchObject({ code: 'dump-order' });
  });
});

describe('fieldOrder: how a learned field order relates to the protocol numbering', () => {
  const dark = (fieldMap: number[]) => ({ size: 10 as const, fields: 50 as const, fieldMap });
  it('names the orders real boards have, from a calibration', () => {
    expect(fieldOrder(profileOf({}))).toBe('default');
    expect(fieldOrder(profileOf({ fieldMap: { fields50: rotatedFields50() } }))).toBe('turned');
    expect(fieldOrder(profileOf({ fieldMap: { fields50: mirroredFields50() } }))).toBe('mirrored');
    expect(fieldOrder(profileOf({ fieldMap: { fields50: randomFields50(7) } }))).toBe('permutation');
    const full = profileOf({ scan: '100', fieldMap: { fields100: mirroredFields100() } });
    expect(fieldOrder(full)).toBe('mirrored');
  });

  it('mirrored and turned at once; on 8×8 and on full scans too', () => {
    expect(fieldOrder(dark(mirroredFields50().reverse()))).toBe('mirrored-turned');
    expect(fieldOrder({ size: 8, fields: 32, fieldMap: darkScanFieldMap(8).reverse() })).toBe('turned');
    expect(fieldOrder({ size: 10, fields: 100, fieldMap: fullScanFieldMap(10).reverse() })).toBe('turned');
    expect(fieldOrder({ size: 8, fields: 64, fieldMap: fullScanFieldMap(8) })).toBe('default');
  });
});
