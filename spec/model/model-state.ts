import type { UsageInfo } from '../../lib/shared/types';

/** Faults the model knows how to predict (`status` 503 is retryable, 400 is not). */
export type ModelFault = 'drop' | 'dropAfterApply' | 'status503' | 'status400' | 'malformed';

export interface BackendModel {
  free: number;
  freeTotal: number;
  readonly price: number;
  balance: number;
  blacklisted: boolean;
  /** First answer of every applied external_id. */
  readonly applied: Map<string, { freeRemaining: number; isCredit: boolean }>;
  readonly charges: Array<{ externalId: string; kind: 'free' | 'credits'; amount: number }>;
}

export interface CachedQuota {
  freeRemaining: number;
  freeTotal: number;
  creditsPerUse: number;
  creditsBalance: number;
}

/** What the client should know, per the contract and docs/decisions.md. */
export interface ClientModel {
  quota: CachedQuota | null;
  freePeriodEnd: number | null;
}

export interface Model {
  readonly backend: BackendModel;
  readonly client: ClientModel;
  /** Faults queued on the backend, per path, first in first out. */
  readonly faults: Map<string, ModelFault[]>;
}

export const FREE_PERIOD_MS = 30_000;
export const ATTEMPTS = 3;

/** The backend's answer to a consume, applying it (the reference backend's rules). */
export type ConsumeAnswer =
  { readonly code: 0; readonly freeRemaining: number; readonly isCredit: boolean } | { readonly code: 20101 | 20102 };

export function backendConsume(backend: BackendModel, externalId: string): ConsumeAnswer {
  const first = backend.applied.get(externalId);
  if (first !== undefined) return { code: 0, ...first };
  if (backend.blacklisted) return { code: 20102 };
  let answer: { freeRemaining: number; isCredit: boolean };
  if (backend.free > 0) {
    backend.free -= 1;
    backend.charges.push({ externalId, kind: 'free', amount: 1 });
    answer = { freeRemaining: backend.free, isCredit: false };
  } else if (backend.balance >= backend.price) {
    backend.balance -= backend.price;
    backend.charges.push({ externalId, kind: 'credits', amount: backend.price });
    answer = { freeRemaining: backend.free, isCredit: true };
  } else {
    return { code: 20101 };
  }
  backend.applied.set(externalId, answer);
  return { code: 0, ...answer };
}

/** How one logical call ended, and how many requests it took. */
export type CallResult<T> =
  | { readonly ok: true; readonly value: T; readonly attempts: number }
  | { readonly ok: false; readonly code: 'network' | 'http' | 'decode'; readonly attempts: number };

/** One call with the client's retries, each attempt taking the path's next fault. */
export function simulateCall<T>(model: Model, path: string, handle: () => T): CallResult<T> {
  const queue = model.faults.get(path) ?? [];
  let last: CallResult<T> = { ok: false, code: 'network', attempts: 0 };
  for (let attempt = 1; attempt <= ATTEMPTS; attempt++) {
    const fault = queue.shift();
    switch (fault) {
      case undefined:
        return { ok: true, value: handle(), attempts: attempt };
      case 'drop':
        last = { ok: false, code: 'network', attempts: attempt };
        break;
      case 'dropAfterApply':
        handle();
        last = { ok: false, code: 'network', attempts: attempt };
        break;
      case 'status503':
        last = { ok: false, code: 'http', attempts: attempt };
        break;
      case 'status400':
        return { ok: false, code: 'http', attempts: attempt };
      case 'malformed':
        return { ok: false, code: 'decode', attempts: attempt };
    }
  }
  return last;
}

export function inFreePeriod(client: ClientModel, now: number): boolean {
  return client.freePeriodEnd !== null && now < client.freePeriodEnd;
}

/** The `UsageInfo` the client should show at `now`. */
export function expectedUsage(client: ClientModel, now: number): UsageInfo | null {
  if (client.quota === null) return null;
  const active = inFreePeriod(client, now);
  const remaining = active ? Math.ceil(Math.min((client.freePeriodEnd as number) - now, FREE_PERIOD_MS) / 1000) : 0;
  return { isEnabled: true, ...client.quota, inFreePeriod: active, freePeriodRemaining: remaining };
}

export function expectedReason(client: ClientModel, now: number): string {
  if (inFreePeriod(client, now)) return 'free_period';
  const quota = client.quota;
  if (quota === null) return 'insufficient';
  if (quota.freeRemaining > 0) return 'free_count';
  return quota.creditsBalance >= quota.creditsPerUse ? 'credits' : 'insufficient';
}
