// Alerts carry their facts as data (`params`) beside the English `message`, from the same facts.
import { describe, expect, it } from 'vitest';
import { alertMessage } from '../../../src/tracker/messages.ts';
import { fen, run, Script, sequence } from './fixtures/hands.ts';

describe('alert params', () => {
  it('4.11: side and move as data, and the message says the same', () => {
    const start = fen('W:W32:B9,19,28');
    const s = new Script(start).play(sequence(start, '32x3'), 'white', { order: [19, 28, 9] });
    const [alert] = run(s.events, { start }).alerts;
    expect(alert.rule).toBe('4.11');
    expect(alert.params).toEqual({ side: 'white', move: '32x3' });
    expect(alert.message).toBe(alertMessage('4.11', alert.params!));
  });

  it('5.4.7: the squares concerned travel as a list of numbers', () => {
    // Black takes a piece of his off the board, then plays on: the removal stands (5.7).
    const start = fen('W:W32,46:B19,43');
    const s = new Script(start);
    s.carry(32, 28).wait(400).press('white').wait(1000).tick();
    s.remove(43).wait(5000).tick();
    s.carry(19, 24).wait(400).press('black').wait(1000).tick();
    const alerts = run(s.events, { start }).alerts;
    const removed = alerts.find((a) => a.rule === '5.4.7');
    expect(removed?.params).toEqual({ side: 'black', move: '19-24', squares: [43] });
    expect(removed?.message).toBe(alertMessage('5.4.7', removed!.params!));
  });
});
