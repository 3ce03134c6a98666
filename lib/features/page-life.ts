import { unlessThrows } from '../shared/errors';

// What the page tells of its own life, read from the platform where it exists (nothing in Node):
// how this document was reached, and its events (hidden or shown again, focus, visibility, online).

/**
 * Whether this document is a reload of the one before it in this tab (the reload button,
 * `location.reload()`): that document then went away after this one's navigation started, so
 * this page's monotonic clock (its origin is the navigation's start) has run at least as long
 * as the time since the old one's last word. A tab the browser discarded to save memory, then
 * reloaded, is not: its last page was frozen, not hidden.
 */
export const isReload = (): boolean =>
  unlessThrows(() => {
    if ((globalThis as { document?: { wasDiscarded?: unknown } }).document?.wasDiscarded === true) return false;
    const [navigation] = performance.getEntriesByType?.('navigation') ?? [];
    return (navigation as { type?: unknown } | undefined)?.type === 'reload';
  }) === true;

/** What a page's event target must have for a feature to listen to it. */
export type Listenable = Pick<EventTarget, 'addEventListener' | 'removeEventListener'>;

/**
 * Listens for `type` on `on`; returns the function that removes the listener from the target it was
 * added to, or `undefined` where the target has no events: none in Node, and React Native's `window`
 * is globalThis without addEventListener.
 */
export function listen(on: Partial<Listenable> | undefined, type: string, listener: () => void) {
  const { addEventListener: add, removeEventListener: remove } = on ?? {};
  if (typeof add !== 'function' || typeof remove !== 'function') return undefined;
  add.call(on, type, listener);
  return () => remove.call(on, type, listener);
}
