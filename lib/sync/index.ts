import type { EngineExtensions, EnginePlugin } from '../engine/extensions';
import type { LocksLike } from '../types';
import { shareState } from './share-state';
import { TabChannel } from './tab-channel';
import { tabExclusive, type TabLockLimits } from './tab-lock';

/** What the `sync` option adds to the engine. */
export interface TabSync {
  readonly plugin: EnginePlugin;
  readonly exclusive: NonNullable<EngineExtensions['exclusive']>;
}

function defaultLocks(): LocksLike | null {
  const candidate = (globalThis as { navigator?: { locks?: LocksLike } }).navigator?.locks;
  return typeof candidate?.request === 'function' ? candidate : null;
}

/**
 * Tab sync over a BroadcastChannel named by `scope`; `null` where the platform
 * has no BroadcastChannel, in which case each tab bills on its own.
 */
export function createTabSync(
  scope: string,
  locks: LocksLike | null | undefined,
  limits: TabLockLimits,
): TabSync | null {
  if (typeof BroadcastChannel !== 'function') return null;
  const name = `unified-billing:${scope}`;
  const channel = new TabChannel(name);
  const lockManager = locks === undefined ? defaultLocks() : locks;
  return {
    plugin: shareState(channel, () => channel.close()),
    exclusive: tabExclusive(channel, `${name}:consume`, lockManager, limits),
  };
}
