import { unlessThrows } from '../../shared/errors';

// What the page tells of its own life, read from the platform where it exists (nothing in Node):
// how this document was reached, and when it is hidden or shown again (`pagehide`, `pageshow`).

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

/**
 * Calls `hidden(true)` at `pagehide` and `hidden(false)` at `pageshow` (a page back from the
 * back/forward cache); returns the function that stops listening. Nothing where there is no page.
 */
export function onPageHidden(hidden: (isHidden: boolean) => void): () => void {
  // Taken now, so the listeners are removed from the page they were added to.
  const page = globalThis as Partial<Pick<Window, 'addEventListener' | 'removeEventListener'>>;
  const { addEventListener: add, removeEventListener: remove } = page;
  if (typeof add !== 'function' || typeof remove !== 'function') return () => undefined;
  const listeners = { pagehide: () => hidden(true), pageshow: () => hidden(false) };
  const forEachListener = (act: typeof add) =>
    Object.entries(listeners).forEach(([type, listener]) => act.call(page, type, listener));
  forEachListener(add);
  return () => forEachListener(remove);
}
