import type { BillingAction } from './actions';
import { FREE_PERIOD_MS, type BillingState, type Quota } from './state';

function withQuota(state: BillingState, patch: Partial<Quota>): Quota | null {
  return state.quota === null ? null : { ...state.quota, ...patch };
}

/**
 * The pure reducer: the next state from the current one and an action. Late
 * answers (a `seq` older than the one applied) leave the state as it is.
 */
export function reduce(state: BillingState, action: BillingAction): BillingState {
  switch (action.type) {
    case 'usage/loaded': {
      const current = state.quota;
      const freeFresh = current === null || action.seq >= state.freeSeq;
      const balanceFresh = current === null || action.seq >= state.balanceSeq;
      if (!freeFresh && !balanceFresh) return state;
      const free = freeFresh || current === null ? action.quota : current;
      const balance = balanceFresh || current === null ? action.quota : current;
      return {
        ...state,
        quota: { ...free, creditsBalance: balance.creditsBalance },
        freeSeq: Math.max(state.freeSeq, action.seq),
        balanceSeq: Math.max(state.balanceSeq, action.seq),
      };
    }
    case 'balance/loaded': {
      if (action.seq < state.balanceSeq || state.quota === null) return state;
      return { ...state, quota: withQuota(state, { creditsBalance: action.balance }), balanceSeq: action.seq };
    }
    case 'consume/charged': {
      const quota = state.quota;
      const patch: { freeRemaining: number; creditsBalance?: number } = { freeRemaining: action.freeRemaining };
      // Lowered at once by the price, so the cache is right even if the
      // balance refresh that follows fails; a successful refresh replaces it.
      if (action.isCredit && quota !== null) {
        patch.creditsBalance = Math.max(0, quota.creditsBalance - quota.creditsPerUse);
      }
      const freePeriodEnd = action.now + FREE_PERIOD_MS;
      // Before the first fetch there is no quota to patch; the free period still starts.
      if (quota === null) return { ...state, freePeriodEnd };
      return {
        ...state,
        quota: action.seq < state.freeSeq ? quota : withQuota(state, patch),
        freeSeq: Math.max(state.freeSeq, action.seq),
        balanceSeq: action.isCredit ? Math.max(state.balanceSeq, action.seq) : state.balanceSeq,
        freePeriodEnd,
      };
    }
    case 'consume/insufficient': {
      // The backend said no free use is left; the balance is left for a refresh to tell.
      if (action.seq < state.freeSeq || state.quota === null) return state;
      return { ...state, quota: withQuota(state, { freeRemaining: 0 }), freeSeq: action.seq };
    }
    case 'freePeriod/ended': {
      // The timer is the authority: the period ends when its own timer fires,
      // whatever a wall clock says, and a stale timer ends nothing.
      if (state.freePeriodEnd !== action.end) return state;
      return { ...state, freePeriodEnd: null };
    }
    case 'tab/shared': {
      const { quota, now, remainingMs } = action;
      // Above the newest answer applied, so an older local answer cannot roll it back, but below any
      // local request already sent (the next integer), whose fresher answer wins; equal ranks go to
      // the later message. A new tab's getUsage() thus resolves with its own server answer.
      const seq = Math.floor(Math.max(state.freeSeq, state.balanceSeq)) + 0.5;
      const learned = quota === null ? state : reduce(state, { type: 'usage/loaded', seq, quota });
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
