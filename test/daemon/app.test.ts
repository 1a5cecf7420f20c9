// The daemon's services (daemon/app.ts): started in order, stopped in phases — the boards' inputs,
// then the goodbyes within their time limit, storage last — and a failed start stops what started.
import { describe, expect, it } from 'vitest';
import { App, type Service, type StopPhase } from '../../daemon/app.ts';

function recorder() {
  const said: string[] = [];
  const service = (name: string, stopIn: StopPhase, more: Partial<Service> = {}): Service => ({
    name,
    stopIn,
    start: () => void said.push(`start ${name}`),
    stop: () => void said.push(`stop ${name}`),
    ...more,
  });
  return { said, service };
}

describe('App', () => {
  it('starts in order and stops the inputs first, then the goodbyes, storage last (newest first)', async () => {
    const { said, service } = recorder();
    const app = new App();
    app.adopt(service('lock', 'storage'));
    await app.start([
      service('journal', 'storage'),
      service('server', 'goodbye'),
      service('boards', 'inputs'),
      service('publish', 'goodbye'),
    ]);
    expect(await app.stop(1000)).toEqual({ late: [] });
    expect(said).toEqual([
      'start journal',
      'start server',
      'start boards',
      'start publish',
      'stop boards',
      'stop publish',
      'stop server',
      'stop journal',
      'stop lock',
    ]);
    // Once: a second stop has nothing left.
    said.length = 0;
    await app.stop(1000);
    expect(said).toEqual([]);
  });

  it('a start that fails stops what had started, and its failure is the answer', async () => {
    const { said, service } = recorder();
    const app = new App();
    app.adopt(service('lock', 'storage'));
    const failure = new Error('cannot serve on 127.0.0.1:80');
    const started = app.start([
      service('journal', 'storage'),
      service('server', 'goodbye', {
        start: () => {
          throw failure;
        },
      }),
      service('publish', 'goodbye'),
    ]);
    await expect(started).rejects.toBe(failure);
    expect(said).toEqual(['start journal', 'stop journal', 'stop lock']);
  });

  it('a goodbye that does not end within the limit is named, and storage still stops', async () => {
    const { said, service } = recorder();
    const app = new App();
    await app.start([
      service('journal', 'storage'),
      service('mqtt', 'goodbye', { stop: () => new Promise(() => {}) }),
      service('publish', 'goodbye'),
    ]);
    expect(await app.stop(50)).toEqual({ late: ['mqtt'] });
    expect(said.at(-1)).toBe('stop journal');
  });

  it("/health gathers the running services' facts in the order they started", async () => {
    const { service } = recorder();
    const app = new App();
    app.adopt(service('log', 'storage', { health: () => ({ log: { ok: true } }) }));
    await app.start([service('publish', 'goodbye', { health: () => ({ publish: [] }) })]);
    expect(Object.keys(app.health())).toEqual(['log', 'publish']);
    await app.stop(1000);
    expect(app.health()).toEqual({});
  });
});
