// A game's info as the configuration gives it (players, event…).
import type { GameInfo } from '../../src/game/types.ts';
import type { BoardSetup, LoadedConfig } from '../config/index.ts';

export type InfoConfig = Pick<LoadedConfig, 'event' | 'site' | 'date' | 'timeControl'>;

const today = (t: number): string => new Date(t).toISOString().slice(0, 10).replaceAll('-', '.');

/** What the configuration changes in a game's info (at time `t`), or undefined when nothing. */
export function configuredInfo(
  config: InfoConfig,
  setup: BoardSetup,
  current: GameInfo,
  t: number,
): Partial<GameInfo> | undefined {
  const wanted: Partial<GameInfo> = {
    event: config.event,
    site: config.site,
    date: config.date ?? current.date ?? today(t),
    white: setup.white,
    black: setup.black,
    whiteFmjdId: setup.whiteFmjdId,
    blackFmjdId: setup.blackFmjdId,
    timeControl: config.timeControl,
  };
  const change = Object.fromEntries(
    Object.entries(wanted).filter(([k, v]) => v !== undefined && current[k as keyof GameInfo] !== v),
  ) as Partial<GameInfo>;
  return Object.keys(change).length > 0 ? change : undefined;
}
