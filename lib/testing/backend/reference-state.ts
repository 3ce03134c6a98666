import type {
  ChargeRecord,
  ModuleQuota,
  ReferenceChange,
  ReferenceUser,
  ReferenceUserPatch,
  ReferenceUserSnapshot,
} from '../types';
import { subtractAmount } from '../../shared/subtract-amount';
import { assertValidPatch, assertValidUser } from './user-config';
import { BACKEND_CODES, type Envelope } from './wire';

// The snapshot's fields (its free counts are what a module not seen yet starts with), kept mutable here.
type UserState = { -readonly [K in keyof Omit<ReferenceUserSnapshot, 'modules'>]: ReferenceUserSnapshot[K] } & {
  modules: Map<string, ModuleQuota>;
  // First answer of every applied external_id, per user (not per module).
  applied: Map<string, Envelope>;
};

/**
 * The in-memory state of the reference backend and its transitions; no I/O,
 * no timers, every method synchronous, so that a consume reads and writes the
 * state in one turn of the event loop and concurrent consumes cannot lose an
 * update. Its choices (a user-level wallet, per-module free quotas, only
 * applied consumes kept for idempotency, ids unique per user) are in the
 * decisions log, "The reference backend".
 */
export class ReferenceState {
  private readonly users = new Map<string, UserState>();
  private readonly chargeLog: ChargeRecord[] = [];
  // Who listens to each user's changes, by token; kept across reset(), as open connections are.
  private readonly watchers = new Map<string, Set<(change: ReferenceChange) => void>>();

  constructor(private readonly initialUsers: readonly ReferenceUser[] = []) {
    this.reset();
  }

  /** Back to the users given to the constructor; charges and idempotency records are forgotten. */
  reset(): void {
    this.users.clear();
    this.chargeLog.length = 0;
    for (const user of this.initialUsers) this.addUser(user);
  }

  has(token: string): boolean {
    return this.users.has(token);
  }

  addUser(user: ReferenceUser): void {
    assertValidUser(user);
    if (this.users.has(user.token)) throw new Error('a user with this token already exists');
    this.users.set(user.token, {
      token: user.token,
      freeRemaining: user.freeRemaining,
      freeTotal: user.freeTotal,
      creditsPerUse: user.creditsPerUse,
      creditsBalance: user.creditsBalance,
      blacklisted: user.blacklisted ?? false,
      isEnabled: user.isEnabled ?? true,
      modules: new Map(),
      applied: new Map(),
    });
  }

  setUser(token: string, patch: ReferenceUserPatch, module?: string): void {
    assertValidPatch(patch);
    const user = this.user(token);
    if (patch.creditsPerUse !== undefined) user.creditsPerUse = patch.creditsPerUse;
    if (patch.creditsBalance !== undefined) user.creditsBalance = patch.creditsBalance;
    if (patch.blacklisted !== undefined) user.blacklisted = patch.blacklisted;
    if (patch.isEnabled !== undefined) user.isEnabled = patch.isEnabled;
    const quotas = module === undefined ? [user, ...user.modules.values()] : [this.quota(user, module)];
    for (const quota of quotas) {
      if (patch.freeRemaining !== undefined) quota.freeRemaining = patch.freeRemaining;
      if (patch.freeTotal !== undefined) quota.freeTotal = patch.freeTotal;
    }
  }

  /** Adds `credits` (a finite number > 0) to the user's balance and tells the change; returns the new balance. */
  topUp(token: string, credits: number): number {
    if (!(typeof credits === 'number' && Number.isFinite(credits) && credits > 0)) {
      throw new TypeError('credits must be a finite number > 0');
    }
    const user = this.user(token);
    // Added as the client subtracts, without float noise: 0.1 + 0.2 is 0.3.
    user.creditsBalance = subtractAmount(user.creditsBalance, -credits);
    this.tell(token, { kind: 'top-up' });
    return user.creditsBalance;
  }

  /** Calls `listener` with each change of the user's, until the returned function is called. */
  watch(token: string, listener: (change: ReferenceChange) => void): () => void {
    const listeners = this.watchers.get(token) ?? new Set();
    this.watchers.set(token, listeners.add(listener));
    return () => void listeners.delete(listener);
  }

  /** How many listen to the user's changes now. */
  watching(token: string): number {
    return this.watchers.get(token)?.size ?? 0;
  }

  snapshot(token: string, module?: string): ReferenceUserSnapshot {
    const user = this.user(token);
    // Reading must not initialise the module: a snapshot is not a request.
    const quota = (module === undefined ? undefined : user.modules.get(module)) ?? user;
    const modules: Record<string, ModuleQuota> = {};
    for (const [name, q] of user.modules) modules[name] = { ...q };
    return {
      token: user.token,
      freeRemaining: quota.freeRemaining,
      freeTotal: quota.freeTotal,
      creditsPerUse: user.creditsPerUse,
      creditsBalance: user.creditsBalance,
      blacklisted: user.blacklisted,
      isEnabled: user.isEnabled,
      modules,
    };
  }

  charges(): ChargeRecord[] {
    return this.chargeLog.map((charge) => ({ ...charge }));
  }

  /** The `data` of `GET /ai/v5/service/free_trial/count`; initialises the module. */
  freeTrialCount(token: string, module: string): Record<string, unknown> {
    const user = this.user(token);
    const quota = this.quota(user, module);
    return {
      is_enabled: user.isEnabled,
      free_remaining: quota.freeRemaining,
      free_total: quota.freeTotal,
      credits_per_use: user.creditsPerUse,
    };
  }

  /** The `data` of `GET /ai/v1/credit/getBalance`. */
  balance(token: string): Record<string, unknown> {
    return { balance: this.user(token).creditsBalance };
  }

  /** Decides and applies one consume: replay, 20102, free use, credits, or 20101. */
  consume(token: string, module: string, externalId: string, device?: string): Envelope {
    const user = this.user(token);
    const first = user.applied.get(externalId);
    // The replay comes before the blacklist: that use was already charged.
    if (first !== undefined) return cloneEnvelope(first);
    if (user.blacklisted) {
      return { code: BACKEND_CODES.blacklisted, message: 'user is blacklisted', data: null };
    }
    const quota = this.quota(user, module);
    let answer: Envelope;
    if (quota.freeRemaining > 0) {
      quota.freeRemaining -= 1;
      this.chargeLog.push({ token, module, externalId, kind: 'free', amount: 1 });
      answer = ok({ free_remaining: quota.freeRemaining, is_credit: false });
    } else if (user.creditsBalance >= user.creditsPerUse) {
      user.creditsBalance = subtractAmount(user.creditsBalance, user.creditsPerUse);
      this.chargeLog.push({ token, module, externalId, kind: 'credits', amount: user.creditsPerUse });
      answer = ok({ free_remaining: quota.freeRemaining, is_credit: true });
    } else {
      return { code: BACKEND_CODES.insufficient, message: 'insufficient credits', data: null };
    }
    user.applied.set(externalId, answer);
    this.tell(token, device === undefined ? { kind: 'charge' } : { kind: 'charge', device });
    return cloneEnvelope(answer);
  }

  private tell(token: string, change: ReferenceChange): void {
    for (const listener of [...(this.watchers.get(token) ?? [])]) listener(change);
  }

  private user(token: string): UserState {
    const user = this.users.get(token);
    if (user === undefined) throw new Error('no user with this token');
    return user;
  }

  private quota(user: UserState, module: string): ModuleQuota {
    let quota = user.modules.get(module);
    if (quota === undefined) {
      quota = { freeRemaining: user.freeRemaining, freeTotal: user.freeTotal };
      user.modules.set(module, quota);
    }
    return quota;
  }
}

function ok(data: Record<string, unknown>): Envelope {
  return { code: BACKEND_CODES.ok, message: 'ok', data };
}

function cloneEnvelope(envelope: Envelope): Envelope {
  return { ...envelope, data: envelope.data === null ? null : { ...envelope.data } };
}
