import type { BillingAction, ConsumeSettled } from '../../core/actions';
import type { BillingState } from '../../core/state';
import type { BillingEvent, ConsumeOrigin } from '../../shared/billing-event';
import type { BillingError } from '../../shared/errors';
import { PATHS } from '../../shared/wire';
import type { RetryNotice } from '../../transport/config';

// A consume (or replay) between its start and its end.
interface OpenConsume {
  readonly call: number;
  readonly origin: ConsumeOrigin;
  externalId: string | null;
  attempts: number;
}

/** Builds one event from its type and facts; the time is added by the caller. */
export type AddEvent = (type: BillingEvent['type'], facts?: object) => void;

type Fetch = 'usage' | 'refresh';
// What the events do on each fact they tell; facts not named here tell nothing.
type Handlers = { [T in BillingAction['type']]?: (action: Extract<BillingAction, { type: T }>) => void };

const CANCELED = /^(aborted|disposed)$/;

/**
 * What the events feature remembers between facts, so each operation's end
 * carries its number and its attempts: the consumes open (by the store's
 * number; the events number them per client, 1 for the first, and give one to
 * a consume answered at once, which has no start of its own), and the usage
 * fetches and balance refreshes open, oldest first. A retry notice of a POST
 * finds its consume by `externalId`; one of a GET, the newest fetch or refresh
 * open on its path. What it returns are the events feature's store hooks
 * `observe` and `onRetry`.
 */
export function eventState(add: AddEvent) {
  let count = 0;
  // Keyed by the store's number; a consume without a start of its own has none.
  const consumes = new Map<number | undefined, OpenConsume>();
  // The consume whose POST is out: its retries are this one's.
  let posting: OpenConsume | undefined;
  const fetches: Record<Fetch, Array<{ attempts: number }>> = { usage: [], refresh: [] };

  const begin = (externalId: string | null, origin: ConsumeOrigin): OpenConsume => {
    const call = ++count;
    if (origin === 'app') add('consume:started', { call, externalId });
    else add('replay:started', { call, externalId, origin });
    return { call, origin, externalId, attempts: 0 };
  };
  // An operation ended by an error: canceled by the caller's abort or dispose() (no error of billing), or failed.
  const fail = (kind: Fetch | 'consume', facts: object, error: BillingError, rest?: object) =>
    CANCELED.test(error.code)
      ? add(`${kind}:canceled`, { ...facts, reason: error.code, ...rest })
      : add(`${kind}:failed`, { ...facts, error, ...rest });
  const start = (kind: Fetch) => {
    fetches[kind].push({ attempts: 1 });
    add(`${kind}:started`);
  };
  const end = (kind: Fetch, error?: BillingError) => {
    const facts = { attempts: fetches[kind].shift()?.attempts ?? 1 };
    if (error) fail(kind, facts, error);
    else add(`${kind}:loaded`, facts);
  };

  const on: Handlers = {
    'usage/started': () => start('usage'),
    'usage/loaded': () => end('usage'),
    'usage/failed': ({ error }) => end('usage', error),
    'balance/started': () => start('refresh'),
    'balance/loaded': () => end('refresh'),
    'balance/failed': ({ error }) => end('refresh', error),
    'consume/started': ({ call, externalId = null, origin = 'app' }) => consumes.set(call, begin(externalId, origin)),
    'consume/locked': () => {
      // Held by the consume whose turn it is: the oldest open one (a tab's re-send runs under it, later).
      const open = [...consumes.values()].find((consume) => consume.origin !== 'tab');
      if (open) add('lock:acquired', { call: open.call });
    },
    'consume/sent': ({ externalId }) => {
      // One POST at a time (in its consume's turn, or under the lock): a replayed or given id names its
      // consume; an id made for the POST is the oldest open consume's, whose turn it is.
      const open = [...consumes.values()];
      posting =
        open.find((consume) => consume.externalId === externalId) ??
        open.find((consume) => consume.externalId === null);
      if (posting) Object.assign(posting, { externalId, attempts: 1 });
    },
    'consume/settled': settled,
  };

  return {
    /** The events one applied fact tells, from the fact and the states around it (a free period is a change). */
    observe(action: BillingAction, before: BillingState, after: BillingState): void {
      const ended = after.freePeriodEnd === null;
      if ((before.freePeriodEnd === null) !== ended) add(ended ? 'freePeriod:ended' : 'freePeriod:started');
      (on[action.type] as ((action: BillingAction) => void) | undefined)?.(action);
    },
    /** The events of a retry notice of the transport, and the attempts it adds to its operation. */
    onRetry({ attempt, delayMs, path, error }: RetryNotice): void {
      const post = path === PATHS.consume;
      const fetching = path === PATHS.balance && fetches.refresh.length > 0 ? fetches.refresh : fetches.usage;
      const open = post ? posting : fetching[fetching.length - 1];
      const externalId = post ? (posting?.externalId ?? null) : null;
      if (open) open.attempts = Math.max(open.attempts, attempt);
      if (delayMs === null) return add('request:unauthorized', { path, externalId });
      const status = error.status ?? null;
      add('request:retry', { attempt: attempt - 1, delayMs, path, externalId, code: error.code, status });
    },
  };

  function settled({ call, externalId, result, error, charged, unanswered }: ConsumeSettled): void {
    // Answered at once (a free period), or refused before anything was sent: its start is its end.
    const open = consumes.get(call) ?? begin(externalId, 'app');
    consumes.delete(call);
    if (open === posting) posting = undefined;
    const facts = { call: open.call, externalId, attempts: open.attempts };
    if (open.origin !== 'app') {
      const outcome = result ? { ok: true, result } : { ok: false, error };
      add('replay:settled', { ...facts, origin: open.origin, outcome });
    } else if (error === null) {
      // Only a consume without a request can lack an id: charged, blacklisted and denied ones have theirs.
      if (result?.isBlacklisted) add('consume:blacklisted', facts);
      else if (charged) add('consume:charged', { ...facts, isCredit: !!result?.isCredit });
      else add('consume:free', facts);
    } else if (error.code === 'insufficient_credits') add('consume:denied', facts);
    else fail('consume', facts, error, { unanswered });
  }
}
