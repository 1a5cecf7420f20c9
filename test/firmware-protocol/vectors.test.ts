import { describe, expect, it } from 'vitest';
import {
  type BoardEvent,
  createBoardEncoder,
  createDecoder,
  DgtMessageReader,
  MSG,
} from '../../firmware-protocol/index.ts';
import { comparable, loadVectors } from './fixtures/vectors.ts';

const vectors = loadVectors();

describe('test vectors (firmware-protocol/vectors)', () => {
  it('has vectors for every protocol', () => {
    expect(new Set(vectors.map((v) => v.protocol))).toEqual(new Set(['line', 'dgt', 'hid']));
    expect(
      vectors
        .filter((v) => v.roundtrip)
        .map((v) => v.protocol)
        .sort(),
    ).toEqual(expect.arrayContaining(['dgt', 'hid', 'line']));
  });

  for (const v of vectors) {
    it(`${v.name}: decodes to the expected events — ${v.description}`, () => {
      const dec = createDecoder(v.protocol, v.options);
      const events: BoardEvent[] = [];
      for (const chunk of v.input) events.push(...dec.push(chunk.bytes, chunk.t));
      events.push(...dec.flush(v.input.at(-1)?.t ?? 0));
      expect(comparable(events, v.expected)).toEqual(v.expected);
      for (const e of events) if (e.type === 'fault') expect(e.message.length).toBeGreaterThan(0);
    });

    if (v.messages) {
      it(`${v.name}: the messages that are not board events are described`, () => {
        const reader = new DgtMessageReader();
        const described = v.input.flatMap((c) =>
          reader.push(c.bytes, c.t).map((m) => ({ type: 'message', ...m })),
        );
        expect(described).toEqual(v.messages);
      });
    }

    if (v.roundtrip) {
      it(`${v.name}: the board-side encoder gives back the same bytes`, () => {
        const enc = createBoardEncoder(v.protocol, v.options);
        const encoded = Buffer.concat(v.expected.map((e) => enc.encode(e)));
        const input = Buffer.concat(v.input.map((c) => c.bytes));
        expect(encoded.toString('hex')).toBe(input.toString('hex'));
      });
    }
  }
});

describe('DGT vectors cover every message kind', () => {
  it('each message id the decoder knows appears in some DGT vector, and an unknown one too', () => {
    const ids = new Set(
      vectors
        .filter((v) => v.protocol === 'dgt')
        .flatMap((v) => v.input.flatMap((c) => [...c.bytes].filter((b) => b & 0x80))),
    );
    for (const id of Object.values(MSG)) expect(ids, `0x${id.toString(16)}`).toContain(id);
    expect([...ids].some((id) => !(Object.values(MSG) as number[]).includes(id))).toBe(true);
  });
});

describe('PROTOCOL.md examples', () => {
  it('every complete example line in the spec carries a correct checksum', async () => {
    const { readFileSync } = await import('node:fs');
    const { unframeLine } = await import('../../firmware-protocol/index.ts');
    const spec = readFileSync(new URL('../../firmware-protocol/PROTOCOL.md', import.meta.url), 'utf8');
    const lines = spec
      .split('\n')
      .map((l) =>
        l
          .replace(/^(board|host)\s+→\s+/, '')
          .replace(/\s+\(.*\)$/, '')
          .trim(),
      )
      .filter((l) => /^[a-z]+[ a-z0-9=.,_\-:|]*\*[0-9A-F]{4}$/i.test(l));
    expect(lines.length).toBeGreaterThanOrEqual(15);
    for (const l of lines) expect(unframeLine(l), l).toMatchObject({ ok: true });
    // The worked example and the check value.
    expect(spec).toContain('`lift 7 23*4685`');
    expect(unframeLine('lift 7 23*4685')).toMatchObject({ ok: true });
    expect(unframeLine('123456789*29B1')).toMatchObject({ ok: true });
  });
});
