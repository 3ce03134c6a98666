import type { BillingAction } from './actions';
import { withBalanceAnswer, withCharge } from './balance-ledger';
import { subtractAmount } from '../shared/subtract-amount';
import { FREE_PERIOD_MS, type BalanceLedger, type BillingState, type Quota } from './state';

// The cached quota after the ledger moved: the newest balance answer lowered by the price per newer
// charge, never below 0; nothing to show before the first usage answer.
function withLedger(state: BillingState, ledger: BalanceLedger): BillingState {
  const quota = state.quota;
  const price = quota?.creditsPerUse ?? 0;
  const balance = ledger.debits.reduce((left) => subtractAmount(left, price), ledger.balance ?? 0);
  return { ...state, ledger, quota: quota && { ...quota, creditsBalance: Math.max(0, balance) } };
}

// The same, or the same state when the ledger did not change.
const updateLedger = (state: BillingState, ledger: BalanceLedger) =>
  ledger === state.ledger ? state : withLedger(state, ledger);

// A free count from a charge or a refusal, applied if no newer answer set it.
function withFree(state: BillingState, seq: number, freeRemaining: number): BillingState {
  const quota = state.quota;
  if (seq < state.freeSeq) return state;
  return quota === null
    ? { ...state, freeSeq: seq, earlyFree: freeRemaining }
    : { ...state, freeSeq: seq, quota: { ...quota, freeRemaining } };
}

// A usage answer (both GETs): each field group applied unless a newer answer already set it.
function loaded(state: BillingState, seq: number, balanceSeq: number, quota: Quota): BillingState {
  const ledger = withBalanceAnswer(state.ledger, balanceSeq, quota.creditsBalance);
  const fresh = seq >= state.freeSeq;
  if (state.quota !== null && !fresh) return updateLedger(state, ledger);
  // Not fresh before the first usage answer: a newer free count came, which withFree kept in `earlyFree`.
  const freeRemaining = fresh ? quota.freeRemaining : (state.earlyFree as number);
  const next = { ...state, quota: { ...quota, freeRemaining }, freeSeq: Math.max(seq, state.freeSeq), earlyFree: null };
  return withLedger(next, ledger);
}

// A free period learned elsewhere: clamped, so a corrupt store or a hostile message can neither grant
// more than one period nor go negative; the later end wins, so adopting never cuts a known period.
function adopted(state: BillingState, now: number, remainingMs: number): BillingState {
  const end = now + Math.min(Math.max(remainingMs, 0), FREE_PERIOD_MS);
  return end > now && (state.freePeriodEnd ?? -Infinity) < end ? { ...state, freePeriodEnd: end } : state;
}

/**
 * The pure reducer: the next state from the current one and an action. Each
 * request is numbered when sent; an answer older than the newest applied to
 * its field group loses, whatever order answers arrive in, the first usage
 * answer included (answers that beat it are laid over it).
 *
 * The status is folded from the same action, and stays the same object when
 * nothing in it changed, so `status$` emits only on change. The caller's own
 * doing (`aborted`, `disposed`, a bad argument refused before anything was
 * sent) is no error of billing; `insufficient_credits` is an answer, a success.
 */
export function reduce(state: BillingState, action: BillingAction): BillingState {
  // The free consume's hot path: a success that clears nothing changes nothing.
  if (action.type === 'consume/settled' && !action.error && !action.unanswered && state.failed !== 'consume')
    return state;
  let next = state;
  let { fetches, failed } = state;
  const status = state.status;
  let { fetchedAt, pending, error } = status;
  // The call that ended with this action, and how: its failure shows in the status until its next success.
  let call: BillingState['failed'] = null;
  const failure = 'error' in action ? action.error : null;
  switch (action.type) {
    // First, so no case falls into it: a fact no field reads (a consume started, a lock taken, a balance
    // request sent) leaves the same state.
    default:
      return state;
    case 'usage/started':
      fetches++;
      break;
    case 'usage/loaded':
      next = loaded(state, action.seq, action.balanceSeq ?? action.seq, action.quota);
      fetches--;
      fetchedAt = action.now;
      call = 'usage';
      break;
    case 'usage/failed':
      fetches--;
      call = 'usage';
      break;
    case 'usage/bootstrapped':
      // Numbered 0: every answer of this client is newer.
      next = adopted(loaded(state, 0, 0, action.quota), action.now, action.remainingMs);
      fetchedAt = action.fetchedAt;
      break;
    case 'balance/loaded':
      next = updateLedger(state, withBalanceAnswer(state.ledger, action.seq, action.balance));
      call = 'refresh';
      break;
    case 'balance/failed':
      call = 'refresh';
      break;
    case 'consume/sent':
      pending++;
      break;
    case 'consume/charged':
      next = { ...withFree(state, action.seq, action.freeRemaining), freePeriodEnd: action.now + FREE_PERIOD_MS };
      // Lowered at once by the price, so the cache is right even if the
      // balance refresh that follows fails; a successful refresh replaces it.
      if (action.isCredit) next = withLedger(next, withCharge(next.ledger, action.seq));
      pending--;
      break;
    case 'consume/insufficient':
      // The backend said no free use is left; the balance refresh that follows tells the rest.
      next = withFree(state, action.seq, 0);
      pending--;
      break;
    case 'consume/settled':
      if (action.unanswered) pending--;
      // A bad argument refused before anything was sent ends no call of billing.
      if (action.unanswered || action.error?.code !== 'invalid_argument') call = 'consume';
      break;
    case 'freePeriod/ended':
      // The timer is the authority: the period ends when its own timer fires,
      // whatever a wall clock says, and a stale timer ends nothing.
      if (state.freePeriodEnd === action.end) next = { ...state, freePeriodEnd: null };
      break;
    case 'freePeriod/adopted':
      next = adopted(state, action.now, action.remainingMs);
  }
  const code = failure?.code;
  if (!failure || code === 'insufficient_credits') {
    // getUsage also fetches the balance, so its success clears a failed refresh too.
    if (call && (failed === call || (call === 'usage' && failed === 'refresh'))) failed = error = null;
  } else if (call && code !== 'aborted' && code !== 'disposed') {
    failed = call;
    error = failure;
  }
  // A usage answer always follows its own `usage/started` (store/usage.ts), so only `pending` is clamped.
  pending = Math.max(pending, 0);
  // Field by field, and built only when one changed: most facts change none.
  const sameFlags = (next.quota !== null) === status.loaded && fetches > 0 === status.loading;
  const same = sameFlags && fetchedAt === status.fetchedAt && pending === status.pending && error === status.error;
  if (same && fetches === state.fetches && failed === state.failed) return next;
  const folded = { loaded: next.quota !== null, loading: fetches > 0, fetchedAt, pending, error };
  return { ...next, status: same ? status : Object.freeze(folded), fetches, failed };
}
