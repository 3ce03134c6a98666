import type { BillingAction } from '../../core/actions';
import { deadline, deferred } from '../../shared/deadline';
import type { LocksLike } from '../../shared/feature-types';
import { inBackground } from '../../shared/scheduler';
import type { FeatureSetup } from '../feature';
import { gonePages } from '../web-locks';
import type { SyncMessage } from './messages';

// How long a holder that found a page gone waits for that page's `sent`: a page disposed right after its
// answer told it before letting its lock go, but a message may come after a lock grant.
const WAIT_FOR_SENT_MS = 500;
// Announcements kept at most: a page that floods `sending` (forged) cannot grow a tab's memory, only lose its own.
const MAX_UNANSWERED = 64;

/** Whether `action` is the backend's answer to a consume's POST: it charged, or it refused. */
export const isConsumeAnswer = (action: BillingAction): boolean =>
  action.type === 'consume/charged' || action.type === 'consume/insufficient';

/**
 * The POSTs of pages that died before their answer, found through the channel: a `sending` still
 * unanswered whose page lock is free. `orphans` hands them to the consume lock's holder, which sends
 * each again as its own; `onMessage` hears another tab's `sending` or `sent`, `onAction` tells this
 * client's own.
 */
export function deadPosts(locks: LocksLike, setup: FeatureSetup, post: (message: SyncMessage) => void) {
  const { scope, pageId, scheduler } = setup;
  // Announcements of other pages not answered yet: external id to page id, oldest first.
  const unanswered = new Map<string, string>();
  // This client's own POST in flight (consumes and replays run one at a time per client).
  let sending: string | null = null;
  let afterMessage = (): void => undefined;
  return {
    onMessage(message: Extract<SyncMessage, { kind: 'sending' | 'sent' }>) {
      unanswered.delete(message.id);
      if (message.kind === 'sending' && message.page !== pageId) {
        unanswered.set(message.id, message.page);
        if (unanswered.size > MAX_UNANSWERED) unanswered.delete(unanswered.keys().next().value as string);
      }
      afterMessage();
    },
    onAction(action: BillingAction) {
      if (action.type === 'consume/sent') {
        sending = action.externalId;
        post({ kind: 'sending', id: sending, page: pageId });
      }
      // The answer is in, or the caller (or recovered$) was told: nobody sends it again.
      const closed = isConsumeAnswer(action) || (action.type === 'consume/settled' && action.externalId === sending);
      if (closed && sending !== null) post({ kind: 'sent', id: sending });
      if (closed) sending = null;
    },
    /**
     * Under the consume lock: the announced POSTs whose page is gone and whose `sent` did not come within
     * the wait, each handed over once. None once `signal` aborts.
     */
    async orphans(signal: AbortSignal): Promise<string[]> {
      const gonePageIds = await gonePages(locks, scope, unanswered.values());
      const gone = [...unanswered].filter(([, page]) => gonePageIds.has(page));
      if (gone.length === 0 || signal.aborted) return [];
      // Only a `sending` still unanswered after the wait is a dead page's: a disposed one's `sent` comes meanwhile.
      const allSent = deferred();
      const unsent = () => gone.filter(([id, page]) => unanswered.get(id) === page).map(([id]) => id);
      afterMessage = () => void (unsent().length > 0 || allSent.resolve());
      await deadline(() => allSent.promise, { scheduler: inBackground(scheduler), ms: WAIT_FOR_SENT_MS, signal });
      afterMessage = () => undefined;
      if (signal.aborted) return [];
      // Each handed over once: forgotten as it is handed (every one is still there, so each is kept).
      return unsent().filter((id) => unanswered.delete(id));
    },
  };
}
