import type { BillingAction } from './actions';
import { answered, balanceOf, debited, newestLedgerSeq } from './balance-ledger';
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

/**
 * The pure reducer: the next state from the current one and an action. Each
 * request is numbered when sent; an answer older than the newest applied to
 * its field group loses, whatever order answers arrive in, the first usage
 * answer included (answers that beat it are laid over it).
 */
export function reduce(state: BillingState, action: BillingAction): BillingState {
  switch (action.type) {
    case 'usage/loaded': {
      const { seq, quota } = action;
      const ledger = answered(state.ledger, action.balanceSeq ?? seq, quota.creditsBalance);
      const fresh = seq >= state.freeSeq;
      if (state.quota !== null && !fresh) return ledger === state.ledger ? state : withLedger(state, ledger);
      const freeRemaining = fresh || state.earlyFree === null ? quota.freeRemaining : state.earlyFree;
      const next = {
        ...state,
        quota: { ...quota, freeRemaining },
        freeSeq: Math.max(seq, state.freeSeq),
        earlyFree: null,
      };
      return withLedger(next, ledger);
    }
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
      // The backend said no free use is left; the balance is left for a refresh to tell.
      return withFree(state, action.seq, 0);
    case 'freePeriod/ended': {
      // The timer is the authority: the period ends when its own timer fires,
      // whatever a wall clock says, and a stale timer ends nothing.
      if (state.freePeriodEnd !== action.end) return state;
      return { ...state, freePeriodEnd: null };
    }
    case 'tab/shared': {
      const { quota, now, remainingMs, fresh = { free: true, balance: true } } = action;
      // Per field group: just above the newest answer applied, so an older local answer cannot roll it
      // back, but below any local request already sent for that group (the next integer), whose answer
      // wins; equal ranks go to the later message. A group the other tab has older news of ranks 0.
      const seq = fresh.free ? Math.floor(state.freeSeq) + 0.5 : 0;
      const balanceSeq = fresh.balance ? Math.floor(newestLedgerSeq(state.ledger)) + 0.5 : 0;
      const learned = quota === null ? state : reduce(state, { type: 'usage/loaded', seq, balanceSeq, quota });
      return reduce(learned, { type: 'freePeriod/adopted', now, remainingMs });
    }
    case 'freePeriod/adopted': {
      // Clamped, so a corrupt store or a hostile message can neither grant more than one period nor go negative.
      const remaining = Math.min(Math.max(action.remainingMs, 0), FREE_PERIOD_MS);
      if (!(remaining > 0)) return state;
      const end = action.now + remaining;
      // The later end wins: adopting never cuts a period this client already knows.
      if (state.freePeriodEnd !== null && state.freePeriodEnd >= end) return state;
      return { ...state, freePeriodEnd: end };
    }
  }
}
