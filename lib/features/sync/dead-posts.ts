import type { SchedulerLike } from 'rxjs';
import type { BillingAction } from '../../core/actions';
import { inBackground } from '../../shared/scheduler';
import type { LocksLike } from '../../shared/feature-types';
import { holdLock, lockFree } from '../web-locks';
import type { SyncMessage } from './messages';

// How long a holder that found a page gone waits for that page's `sent`: a page disposed right after its
// answer (or by the dispose) told it before letting its lock go, but a message may come after a lock grant.
const GRACE_MS = 500;
// Announcements kept at most: a page that floods `sending` (forged) cannot grow a tab's memory, only lose its own.
const MAX_OPEN = 64;

/**
 * The POSTs of a page that died before their answer (issue 23 point 6). Each
 * tab holds `<base>:tab:<page id>` for its client's life; under the consume
 * lock it tells `sending {id, page}` as its POST goes out, and `sent {id}` once
 * the answer is applied or its caller has the outcome. A tab keeps the
 * announcements still open; the next holder of the consume lock probes each
 * one's page lock (`ifAvailable`): free means that page is gone, so it sends
 * the id again (the backend's idempotency makes it one charge) and the engine
 * applies the answer. A forged `sending` makes at most one POST of that id:
 * whatever it earns (a free period) is what the backend answered.
 */
export interface DeadPosts {
  /** Holds this page's lock; the function returned lets it go (dispose). */
  hold(): () => void;
  /** Another tab's `sending` or `sent`. */
  heard(message: SyncMessage): void;
  /** This client's own facts: tells `sending` at its POST and `sent` at its answer or its outcome. */
  own(action: BillingAction): void;
  /** Under the consume lock: sends again (`send`, which applies the answer) each announced POST whose page is gone, until `cut`. */
  resend(send: (externalId: string, cut: AbortSignal) => Promise<void>, cut: AbortSignal): Promise<void>;
}

export function deadPosts(
  locks: LocksLike | null,
  base: string,
  pageId: string,
  scheduler: SchedulerLike,
  tell: (message: SyncMessage) => void,
): DeadPosts {
  const pageLock = (page: string) => `${base}:tab:${page}`;
  // Open announcements of other pages: external id to page id, oldest first.
  const open = new Map<string, string>();
  // This client's own POST in flight (consumes run one at a time per client).
  let sending: string | null = null;
  // Called after each message heard: ends a grace once every announcement it waits on is closed.
  let heardOne = (): void => undefined;
  const stillOpen = (gone: ReadonlyArray<readonly [string, string]>) =>
    gone.some(([id, page]) => open.get(id) === page);
  // Resolves after `ms` on the scheduler, once none of `gone` is open any more, or at once when `cut` aborts.
  const grace = (gone: ReadonlyArray<readonly [string, string]>, ms: number, cut: AbortSignal) =>
    new Promise<void>((resolve) => {
      const done = () => {
        timer.unsubscribe();
        cut.removeEventListener('abort', done);
        heardOne = () => undefined;
        resolve();
      };
      const timer = inBackground(scheduler).schedule(done, ms);
      cut.addEventListener('abort', done, { once: true });
      heardOne = () => void (stillOpen(gone) || done());
      if (cut.aborted) done();
    });
  const close = () => {
    if (sending !== null) tell({ kind: 'sent', id: sending });
    sending = null;
  };
  return {
    hold: () => (locks === null ? () => undefined : holdLock(locks, pageLock(pageId))),
    heard(message) {
      if (message.kind === 'sent') open.delete(message.id);
      if (message.kind === 'sending' && message.page !== pageId) {
        open.delete(message.id);
        open.set(message.id, message.page);
        if (open.size > MAX_OPEN) open.delete(open.keys().next().value as string);
      }
      heardOne();
    },
    own(action) {
      if (action.type === 'consume/sent') {
        sending = action.externalId;
        tell({ kind: 'sending', id: sending, page: pageId });
      }
      // The answer is in (and a charge's `period` told just before), or the caller was told: an aborted
      // or disposed caller's POST is never sent again by another tab, as its journal entry is not replayed.
      const answered = action.type === 'consume/charged' || action.type === 'consume/insufficient';
      if (
        (answered && action.resent !== true) ||
        (action.type === 'consume/settled' && action.externalId === sending)
      ) {
        close();
      }
    },
    async resend(send, cut) {
      if (locks === null) return;
      const gone: Array<[string, string]> = [];
      for (const [id, page] of [...open]) if (await lockFree(locks, pageLock(page))) gone.push([id, page]);
      if (gone.length === 0 || cut.aborted) return;
      // Only a `sending` left open past the grace is a dead page's: a disposed one's `sent` closes it meanwhile.
      await grace(gone, GRACE_MS, cut);
      for (const [id, page] of gone) {
        if (cut.aborted) return;
        if (open.get(id) !== page) continue;
        open.delete(id);
        // Announced as this page's own: if this tab dies before the answer, the next holder sends it again.
        tell({ kind: 'sending', id, page: pageId });
        try {
          await send(id, cut);
          tell({ kind: 'sent', id });
        } catch {
          // Outcome still unknown (the network, the wait's bound): this tab tries again at its next
          // consume, and the others keep it as this page's, to send again if this page dies.
          if (!open.has(id)) open.set(id, page);
        }
      }
    },
  };
}
