// The publishing the benchmarks time: one target, the daemon's default timing (a 250 ms coalesce
// window), failures said on stderr.
import type { PublishTarget } from '../daemon/config/index.ts';
import type { Hub } from '../daemon/hub.ts';
import { type Publishing, startPublishing } from '../daemon/publish/index.ts';
import type { TournamentSource } from '../daemon/tournament/access.ts';

export function benchPublishing(hub: Hub, target: PublishTarget, tournament?: TournamentSource): Publishing {
  return startPublishing({
    hub,
    config: {
      targets: [target],
      coalesceMs: 250,
      retry: { firstMs: 1000, maxMs: 30_000 },
      timeoutMs: 10_000,
    },
    log: { info() {}, warn: (_o: object, msg: string) => console.error(msg) },
    tournament,
  });
}
