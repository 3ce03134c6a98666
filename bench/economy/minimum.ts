/** What the backend holds for the user at the start of a session. */
export interface QuotaModel {
  readonly freeRemaining: number;
  readonly creditsPerUse: number;
  readonly creditsBalance: number;
}

/** A scripted session: `getUsage()` calls at the start (all concurrent), then consumes at virtual times. */
export interface Script {
  readonly getUsageCalls: number;
  readonly consumesAt: readonly number[];
  readonly quota: QuotaModel;
}

const FREE_PERIOD_MS = 30_000;

/**
 * The fewest backend requests the spec allows for a script, from the spec's
 * rules alone (not from the library): one pair of GETs however many
 * concurrent `getUsage()` calls; no request inside a free period; one POST
 * for any other consume (the backend decides, contract 3.6); one balance GET
 * after a credits charge, and after a refusal (20101: issue 18 item 11, so
 * `check()` stops offering what the backend refused). Only a charge starts a
 * free period.
 */
export function minimumRequests(script: Script): number {
  let requests = script.getUsageCalls > 0 ? 2 : 0;
  let free = script.quota.freeRemaining;
  let balance = script.quota.creditsBalance;
  let periodEnd = -Infinity;
  for (const at of script.consumesAt) {
    if (at < periodEnd) continue;
    requests += 1;
    if (free > 0) free -= 1;
    else if (balance >= script.quota.creditsPerUse) {
      balance -= script.quota.creditsPerUse;
      requests += 1;
    } else {
      requests += 1;
      continue;
    }
    periodEnd = at + FREE_PERIOD_MS;
  }
  return requests;
}

/** `count` times in [0, spanMs), sorted, from a fixed seed: the same session on every run. */
export function spreadTimes(count: number, spanMs: number, seed = 42): number[] {
  let state = seed >>> 0;
  const next = () => {
    // Numerical Recipes' LCG: enough to scatter clicks, reproducible everywhere.
    state = (Math.imul(state, 1664525) + 1013904223) >>> 0;
    return state / 2 ** 32;
  };
  return Array.from({ length: count }, () => Math.floor(next() * spanMs)).sort((a, b) => a - b);
}
