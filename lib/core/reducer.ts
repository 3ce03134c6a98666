import type { BillingError } from '../errors';
import type { BillingAction } from './actions';
import { answered, balanceOf, debited } from './balance-ledger';
import { FREE_PERIOD_MS, type BalanceLedger, type BillingState } from './state';

// The cached quota after the ledger or the free count moved; nothing to show before the first usage answer.
function withLedger(state: BillingState, ledger: BalanceLedger): BillingState {
  const quota = state.quota;
  if (quota === null) return { ...state, ledger };
  const creditsBalance = balanceOf(ledger, quota.creditsPerUse);
  return { ...state, ledger, quota: { ...quota, creditsBalance } };
}

// A free count from a charge or a refusal, applied if no newer answer set it.
function withFree(state: BillingState, seq: number, freeRemaining: number): BillingState {
  if (seq < state.freeSeq) return state;
  if (state.quota === null) return { ...state, freeSeq: seq, earlyFree: freeRemaining };
  return { ...state, freeSeq: seq, quota: { ...state.quota, freeRemaining } };
}

// A usage answer (both GETs): each field group applied unless a newer answer already set it.
function loaded(state: BillingState, seq: number, balanceSeq: number, quota: BillingState['quota'] & object) {
  const ledger = answered(state.ledger, balanceSeq, quota.creditsBalance);
  const fresh = seq >= state.freeSeq;
  if (state.quota !== null && !fresh) return ledger === state.ledger ? state : withLedger(state, ledger);
  const freeRemaining = fresh || state.earlyFree === null ? quota.freeRemaining : state.earlyFree;
  const next = { ...state, quota: { ...quota, freeRemaining }, freeSeq: Math.max(seq, state.freeSeq), earlyFree: null };
  return withLedger(next, ledger);
}

// A free period learned elsewhere: clamped, so a corrupt store or a hostile message can neither grant
// more than one period nor go negative; the later end wins, so adopting never cuts a known period.
function adopted(state: BillingState, now: number, remainingMs: number): BillingState {
  const remaining = Math.min(Math.max(remainingMs, 0), FREE_PERIOD_MS);
  if (!(remaining > 0)) return state;
  const end = now + remaining;
  if (state.freePeriodEnd !== null && state.freePeriodEnd >= end) return state;
  return { ...state, freePeriodEnd: end };
}

type Call = NonNullable<BillingState['failed']>;

/**
 * The status part of the reducer: `state` (its quota already folded) with the
 * status after `action`; the same object when nothing changed, so `status$`
 * emits only on change. The caller's own doing (`aborted`, `disposed`, a bad
 * argument refused before anything was sent) is no error of billing;
 * `insufficient_credits` is an answer, a success.
 */
function foldStatus(state: BillingState, action: BillingAction): BillingState {
  // The free consume's hot path: a success that clears nothing changes nothing.
  if (action.type === 'consume/settled' && action.error === null && !action.open && state.failed !== 'consume') {
    return state;
  }
  let { fetches, failed } = state;
  let { fetchedAt, pending, error } = state.status;
  const settled = (call: Call, err: BillingError | null) => {
    const code = err?.code;
    if (err === null || code === 'insufficient_credits') {
      // getUsage also fetches the balance, so its success clears a failed refresh too.
      if (failed === call || (call === 'usage' && failed === 'refresh')) failed = error = null;
    } else if (code !== 'aborted' && code !== 'disposed') {
      failed = call;
      error = err;
    }
  };
  switch (action.type) {
    case 'usage/started':
      fetches++;
      break;
    case 'usage/loaded':
      fetches--;
      fetchedAt = action.now;
      settled('usage', null);
      break;
    case 'usage/failed':
      fetches--;
      settled('usage', action.error);
      break;
    case 'usage/bootstrapped':
      fetchedAt = action.fetchedAt;
      break;
    case 'balance/loaded':
      settled('refresh', null);
      break;
    case 'balance/failed':
      settled('refresh', action.error);
      break;
    case 'consume/sent':
      pending++;
      break;
    case 'consume/charged':
    case 'consume/insufficient':
      pending--;
      break;
    case 'consume/settled':
      if (action.open) pending--;
      if (action.open || action.error?.code !== 'invalid_argument') settled('consume', action.error);
  }
  fetches = Math.max(fetches, 0);
  pending = Math.max(pending, 0);
  const loaded = state.quota !== null;
  const loading = fetches > 0;
  const s = state.status;
  const same =
    s.loaded === loaded &&
    s.loading === loading &&
    s.fetchedAt === fetchedAt &&
    s.pending === pending &&
    s.error === error;
  if (same && fetches === state.fetches && failed === state.failed) return state;
  const status = same ? s : Object.freeze({ loaded, loading, fetchedAt, pending, error });
  return { ...state, status, fetches, failed };
}

function reduceQuota(state: BillingState, action: BillingAction): BillingState {
  switch (action.type) {
    case 'usage/loaded':
      return loaded(state, action.seq, action.balanceSeq ?? action.seq, action.quota);
    case 'usage/bootstrapped':
      // Numbered 0: every answer of this client is newer.
      return adopted(loaded(state, 0, 0, action.quota), action.now, action.remainingMs);
    case 'balance/loaded': {
      const ledger = answered(state.ledger, action.seq, action.balance);
      return ledger === state.ledger ? state : withLedger(state, ledger);
    }
    case 'consume/charged': {
      const counted = withFree(state, action.seq, action.freeRemaining);
      // Lowered at once by the price, so the cache is right even if the
      // balance refresh that follows fails; a successful refresh replaces it.
      const next = action.isCredit ? withLedger(counted, debited(counted.ledger, action.seq)) : counted;
      return { ...next, freePeriodEnd: action.now + FREE_PERIOD_MS };
    }
    case 'consume/insufficient':
      // The backend said no free use is left; the balance refresh that follows tells the rest.
      return withFree(state, action.seq, 0);
    case 'freePeriod/ended':
      // The timer is the authority: the period ends when its own timer fires,
      // whatever a wall clock says, and a stale timer ends nothing.
      return state.freePeriodEnd === action.end ? { ...state, freePeriodEnd: null } : state;
    case 'freePeriod/adopted':
      return adopted(state, action.now, action.remainingMs);
    default:
      return state;
  }
}

/**
 * The pure reducer: the next state from the current one and an action. Each
 * request is numbered when sent; an answer older than the newest applied to
 * its field group loses, whatever order answers arrive in, the first usage
 * answer included (answers that beat it are laid over it). The status is
 * folded from the same action.
 */
export function reduce(state: BillingState, action: BillingAction): BillingState {
  return foldStatus(reduceQuota(state, action), action);
}
