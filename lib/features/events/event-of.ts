import type { BillingAction } from '../../core/actions';
import type { BillingState } from '../../core/state';
import type { BillingEvent, ConsumeOrigin } from '../../shared/billing-event';
import { PATHS } from '../../shared/wire';
import type { RetryNotice } from '../../transport/config';

// A consume (or replay) between its start and its end, by the store's number.
interface OpenConsume {
  readonly call: number;
  readonly origin: ConsumeOrigin;
  externalId: string | null;
  attempts: number;
}

/** Builds one event from its type and facts; the time is added by the caller. */
export type AddEvent = (type: BillingEvent['type'], facts?: object) => void;

const CANCELED = /^(aborted|disposed)$/;
const newest = <T>(list: readonly T[]): T | undefined => list[list.length - 1];

/**
 * What the events feature remembers between facts, so each operation's end
 * carries its number and its attempts: the consumes open (the store numbers
 * them; the events number them per client, 1 for the first, and give one to a
 * consume answered at once, which has no start of its own), and the usage
 * fetches and balance refreshes open, oldest first. A retry notice of a POST
 * finds its consume by `externalId`; one of a GET, the newest fetch or refresh
 * open on its path.
 */
export function eventState() {
  let count = 0;
  const consumes = new Map<number, OpenConsume>();
  // The consume whose POST is out: its retries are this one's.
  let posting: OpenConsume | undefined;
  const fetches: Record<'usage' | 'refresh', Array<{ attempts: number }>> = { usage: [], refresh: [] };
  const start = (kind: 'usage' | 'refresh', add: AddEvent) => {
    fetches[kind].push({ attempts: 1 });
    add(`${kind}:started`);
  };
  // A fetch's end: loaded, failed, or canceled by the caller's abort or dispose().
  const end = (kind: 'usage' | 'refresh', add: AddEvent, error?: { code: string }) => {
    const attempts = fetches[kind].shift()?.attempts ?? 1;
    if (!error) add(`${kind}:loaded`, { attempts });
    else if (CANCELED.test(error.code)) add(`${kind}:canceled`, { attempts, reason: error.code });
    else add(`${kind}:failed`, { attempts, error });
  };

  return {
    /** The events one applied fact tells, from the fact and the states around it (a free period is a change). */
    observe(action: BillingAction, before: BillingState, after: BillingState, add: AddEvent): void {
      const ended = after.freePeriodEnd === null;
      if ((before.freePeriodEnd === null) !== ended) add(ended ? 'freePeriod:ended' : 'freePeriod:started');
      switch (action.type) {
        case 'usage/started':
          return start('usage', add);
        case 'balance/started':
          return start('refresh', add);
        case 'usage/loaded':
        case 'usage/failed':
          return end('usage', add, 'error' in action ? action.error : undefined);
        case 'balance/loaded':
        case 'balance/failed':
          return end('refresh', add, 'error' in action ? action.error : undefined);
        case 'consume/started': {
          const { externalId = null, origin = 'app' } = action;
          const open: OpenConsume = { call: ++count, origin, externalId, attempts: 0 };
          consumes.set(action.call, open);
          const call = open.call;
          return origin === 'app'
            ? add('consume:started', { call, externalId })
            : add('replay:started', { call, externalId, origin });
        }
        case 'consume/locked': {
          // Held by the consume whose turn it is: the oldest open one (a tab's re-send runs under it, later).
          const open = [...consumes.values()].find((consume) => consume.origin !== 'tab');
          return open && add('lock:acquired', { call: open.call });
        }
        case 'consume/sent': {
          // One POST at a time (in its consume's turn, or under the lock): a replayed or given id names its
          // consume; an id made for the POST is the oldest open consume's, whose turn it is.
          const open = [...consumes.values()];
          posting =
            open.find((consume) => consume.externalId === action.externalId) ??
            open.find((consume) => consume.externalId === null);
          if (posting) {
            posting.externalId = action.externalId;
            posting.attempts = 1;
          }
          return;
        }
        case 'consume/settled':
          return settled(action, add);
      }
    },
    /** The events of a retry notice of the transport, and the attempts it adds to its operation. */
    retry({ attempt, delayMs, path, error }: RetryNotice, add: AddEvent): void {
      const open =
        path === PATHS.consume
          ? posting
          : newest(path === PATHS.balance && fetches.refresh.length > 0 ? fetches.refresh : fetches.usage);
      const externalId = path === PATHS.consume ? (posting?.externalId ?? null) : null;
      if (open) open.attempts = Math.max(open.attempts, attempt);
      if (delayMs === null) add('request:unauthorized', { path, externalId });
      else
        add('request:retry', {
          attempt: attempt - 1,
          delayMs,
          path,
          externalId,
          code: error.code,
          status: error.status ?? null,
        });
    },
  };

  function settled(action: Extract<BillingAction, { type: 'consume/settled' }>, add: AddEvent): void {
    const { externalId, result, error, unanswered } = action;
    let open = action.call === undefined ? undefined : consumes.get(action.call);
    if (open === posting) posting = undefined;
    if (open) consumes.delete(action.call as number);
    else {
      // Answered at once (a free period), or refused before anything was sent: its start is its end.
      open = { call: ++count, origin: 'app', externalId, attempts: 0 };
      add('consume:started', { call: open.call, externalId });
    }
    const { call, attempts, origin } = open;
    const facts = { call, externalId, attempts };
    if (origin !== 'app') {
      const outcome = result ? { ok: true, result } : { ok: false, error };
      add('replay:settled', { ...facts, origin, outcome });
    } else if (error === null) {
      // Only a consume without a request can lack an id: charged, blacklisted and denied ones have theirs.
      if (result?.isBlacklisted) add('consume:blacklisted', facts);
      else if (action.charged) add('consume:charged', { ...facts, isCredit: !!result?.isCredit });
      else add('consume:free', facts);
    } else if (error.code === 'insufficient_credits') add('consume:denied', facts);
    else if (CANCELED.test(error.code)) add('consume:canceled', { ...facts, reason: error.code, unanswered });
    else add('consume:failed', { ...facts, error, unanswered });
  }
}
