// The clock's flag as the boards report it (DGT BWTIME flag bit, the line protocol's clock FLAG),
// and the set-and-run bytes damlink sends a DGT clock for Appendix G.4.
import { describe, expect, it } from 'vitest';
import {
  type BoardEvent,
  createBoardEncoder,
  createDecoder,
  encodeHostCommand,
} from '../../firmware-protocol/index.ts';
import { GameRecord } from '../../src/game/index.ts';
import type { GameEvent } from '../../src/game/types.ts';

describe('DGT BWTIME flag bit', () => {
  it('bit4 of a side’s hours byte is that side’s fallen flag', () => {
    const dec = createDecoder('dgt');
    // 8d 00 0a | right 0:00:00 with the flag bit | left 1:30:00 | running, right player's turn.
    const bytes = Uint8Array.of(0x8d, 0x00, 0x0a, 0x10, 0x00, 0x00, 0x01, 0x30, 0x00, 0x01 | 0x08);
    expect(dec.push(bytes, 5)).toEqual([
      { t: 5, type: 'clock', white: 5_400_000, black: 0, running: 'black', flag: 'black' },
    ]);
  });

  it('no flag bit, no flag field; the board encoder sets the bit back', () => {
    const dec = createDecoder('dgt');
    const plain = Uint8Array.of(0x8d, 0x00, 0x0a, 0x00, 0x00, 0x05, 0x01, 0x30, 0x00, 0x01 | 0x08);
    expect(dec.push(plain, 1)).toEqual([
      { t: 1, type: 'clock', white: 5_400_000, black: 5000, running: 'black' },
    ]);
    const event: BoardEvent = {
      t: 2,
      type: 'clock',
      white: 0,
      black: 60_000,
      running: 'white',
      flag: 'white',
    };
    expect(createDecoder('dgt').push(createBoardEncoder('dgt').encode(event), 2)).toEqual([event]);
  });
});

describe('line protocol clock FLAG', () => {
  const decode = (event: BoardEvent) =>
    createDecoder('line').push(createBoardEncoder('line').encode(event), event.t);

  it('carries the flag both ways, and stays a plain reading without it', () => {
    const flagged: BoardEvent = {
      t: 3,
      type: 'clock',
      white: 0,
      black: 300_000,
      running: 'white',
      flag: 'white',
    };
    expect(decode(flagged)).toEqual([flagged]);
    const plain: BoardEvent = { t: 4, type: 'clock', white: 1000, black: 300_000, running: 'white' };
    expect(decode(plain)).toEqual([plain]);
  });
});

describe('G.4 on a DGT clock: set-and-run', () => {
  it('two minutes to the opponent, then 5 s after each press, as SETNRUN bytes', () => {
    const rec = new GameRecord({
      info: { board: 1, round: 1, variant: 'international', timeControl: '3600' },
      quickplayFinish: true,
    });
    const clockSets = (events: GameEvent[]) => events.filter((e) => e.kind === 'clock-set');
    rec.clockEvent({ t: 0, type: 'clock', white: 90_000, black: 600_000, running: 'white' });
    const [added] = clockSets(rec.act({ type: 'increment', side: 'white' }, 1000));
    const dgt = (e: GameEvent) => {
      if (e.kind !== 'clock-set') throw new Error(e.kind);
      const { white, black, running } = e;
      return Buffer.from(encodeHostCommand('dgt', { type: 'set-clock', white, black, running })).toString(
        'hex',
      );
    };
    // 2b 0a 03 0a | left (White) 0:01:29 | right (Black) 0:12:00 | 01 left counts down | 00, then
    // the end message the open drivers send after a set-and-run: 2b 03 03 03 00.
    const END = '2b03030300';
    expect(dgt(added)).toBe('2b0a030a' + '00011d' + '000c00' + '01' + '00' + END);
    rec.clockEvent({ t: 20_000, type: 'press', side: 'white' });
    const [increment] = clockSets(
      rec.clockEvent({ t: 20_000, type: 'clock', white: 70_000, black: 720_000, running: 'black' }),
    );
    // White 70 s + 5 s = 0:01:15, Black 0:12:00, 02 right counts down.
    expect(dgt(increment)).toBe('2b0a030a' + '00010f' + '000c00' + '02' + '00' + END);
  });
});
