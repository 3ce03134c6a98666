import { BillingError } from '../../lib/shared/errors';
import { REFERENCE_PATHS as P } from '../../lib/testing';
import type { SentRequest } from '../helpers/wire-log';
import { expectedReason, expectedUsage, type Model } from './model-state';
import { MODULE, TOKEN, type Real } from './real-system';

export const stats = { commands: 0, comparisons: 0 };

/** A request the model predicts, by path and (for the POST) external_id. */
export interface Predicted {
  readonly path: string;
  readonly externalId?: string;
}

const key = (r: { path: string; externalId?: string | undefined }) => `${r.path} ${r.externalId ?? ''}`;

export type Settled = { readonly ok: unknown } | { readonly error: unknown };

export async function settle(promise: Promise<unknown>): Promise<Settled> {
  return promise.then(
    (ok) => ({ ok }),
    (error: unknown) => ({ error }),
  );
}

export function expectError(settled: Settled, code: string, extra: Record<string, unknown> = {}): void {
  expect(settled).toEqual({ error: expect.any(BillingError) });
  expect((settled as { error: unknown }).error).toMatchObject({ code, ...extra });
}

/**
 * Checks the retries' timing: every attempt after the first on a path waits
 * less than the backoff ceiling (250 ms, doubling); returns the attempts' times.
 */
export function attemptTimes(sent: readonly SentRequest[], path: string): number[] {
  const times = sent.filter((r) => r.path === path).map((r) => r.at);
  for (let i = 1; i < times.length; i++) {
    const gap = (times[i] as number) - (times[i - 1] as number);
    expect(gap).toBeGreaterThanOrEqual(0);
    expect(gap).toBeLessThan(Math.min(8_000, 250 * 2 ** (i - 1)));
  }
  return times;
}

/** Requests sent since `from`, the clock, the charges, the backend and the cache, all against the model. */
export function compare(
  model: Model,
  real: Real,
  from: number,
  startedAt: number,
  predicted: readonly Predicted[],
): void {
  stats.comparisons += 1;
  const sent = real.sent.slice(from);
  expect(sent.map(key).sort()).toEqual(predicted.map(key).sort());
  // Virtual time moved only for backoffs: the clock stops at the last attempt.
  expect(real.clock.now()).toBe(Math.max(startedAt, ...sent.map((r) => r.at)));
  expect(real.backend.charges().map(({ externalId, kind, amount }) => ({ externalId, kind, amount }))).toEqual(
    model.backend.charges,
  );
  const user = real.backend.getUser(TOKEN, MODULE);
  expect({ free: user.freeRemaining, balance: user.creditsBalance, blacklisted: user.blacklisted }).toEqual({
    free: model.backend.free,
    balance: model.backend.balance,
    blacklisted: model.backend.blacklisted,
  });
  const now = real.clock.now();
  expect(real.client.billing.getCachedUsage()).toEqual(expectedUsage(model.client, now));
  expect(real.client.billing.check().reason).toBe(expectedReason(model.client, now));
  for (const path of [P.freeTrialCount, P.balance, P.consume]) {
    expect(real.backend.pendingFaults(path)).toBe(model.faults.get(path)?.length ?? 0);
  }
}
