// One descriptor per protocol (firmware-protocol/<name>/index.ts), listed in protocols.ts: the list
// is the protocol folders, and each descriptor's parts speak the protocol it is listed under.
import { existsSync, readdirSync, readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { DESCRIPTORS, PROTOCOLS, startPosition } from '../../firmware-protocol/index.ts';

const root = new URL('../../firmware-protocol/', import.meta.url);
const folders = readdirSync(root, { withFileTypes: true })
  .filter((d) => d.isDirectory() && existsSync(new URL(`${d.name}/index.ts`, root)))
  .map((d) => d.name)
  // A protocol's folder exports a descriptor (calibration/ is not a protocol).
  .filter((name) =>
    readFileSync(new URL(`${name}/index.ts`, root), 'utf8').includes(': ProtocolDescriptor ='),
  );

describe('protocol descriptors', () => {
  it('the protocols are the folders with a descriptor, each listed once', () => {
    expect([...PROTOCOLS].sort()).toEqual(folders.sort());
    expect(PROTOCOLS).toEqual(Object.keys(DESCRIPTORS));
  });

  it.each(PROTOCOLS)('%s: its codecs are its own, and a board it encodes decodes back', (name) => {
    const d = DESCRIPTORS[name];
    const decoder = d.decoder({});
    expect([decoder.protocol, d.boardEncoder({}).protocol, d.commandParser({}).protocol]).toEqual([
      name,
      name,
      name,
    ]);
    const board = startPosition(10);
    const events = decoder.push(d.boardEncoder({}).encode({ t: 0, type: 'snapshot', board }), 5);
    expect(events.filter((e) => e.type === 'snapshot').map((e) => 'board' in e && e.board)).toEqual([board]);
    // Every start command is one it can say.
    for (const c of d.startCommands) expect(d.encodeCommand(c, {}).length, c.type).toBeGreaterThan(0);
  });
});
