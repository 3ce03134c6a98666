import fc from 'fast-check';
import { REFERENCE_PATHS as P } from '../../lib/testing';
import { attemptTimes, compare, expectError, settle, stats, type Predicted } from './compare';
import {
  backendConsume,
  FREE_PERIOD_MS,
  inFreePeriod,
  simulateCall,
  expectedUsage,
  type Model,
  type ModelFault,
} from './model-state';
import { TOKEN, type Real } from './real-system';

type Command = fc.AsyncCommand<Model, Real>;

const repeat = (n: number, request: Predicted): Predicted[] => Array.from({ length: n }, () => request);

/** Balance refresh as the model sees it; applies a success to the cache. */
function refreshBalance(model: Model) {
  const call = simulateCall(model, P.balance, () => model.backend.balance);
  if (call.ok && model.client.quota !== null) model.client.quota.creditsBalance = call.value;
  return call;
}

class GetUsage implements Command {
  check = () => true;
  async run(model: Model, real: Real): Promise<void> {
    stats.commands += 1;
    const from = real.sent.length;
    const startedAt = real.clock.now();
    const settled = await settle(real.run(real.client.billing.getUsage()));
    const b = model.backend;
    const count = simulateCall(model, P.freeTrialCount, () => ({ freeRemaining: b.free, freeTotal: b.freeTotal }));
    const balance = simulateCall(model, P.balance, () => b.balance);
    attemptTimes(real.sent.slice(from), P.freeTrialCount);
    attemptTimes(real.sent.slice(from), P.balance);
    if (count.ok && balance.ok) {
      model.client.quota = { ...count.value, creditsPerUse: b.price, creditsBalance: balance.value };
      expect(settled).toEqual({ ok: expectedUsage(model.client, real.clock.now()) });
    } else {
      expectError(settled, count.ok ? (balance as { code: string }).code : count.code);
    }
    compare(model, real, from, startedAt, [
      ...repeat(count.attempts, { path: P.freeTrialCount }),
      ...repeat(balance.attempts, { path: P.balance }),
    ]);
  }
  toString = () => 'getUsage()';
}

class Consume implements Command {
  constructor(readonly externalId: string | undefined) {}
  check = () => true;
  async run(model: Model, real: Real): Promise<void> {
    stats.commands += 1;
    const from = real.sent.length;
    const startedAt = real.clock.now();
    const options = this.externalId === undefined ? {} : { externalId: this.externalId };
    const settled = await settle(real.run(real.client.billing.consume(options)));
    const sent = real.sent.slice(from);
    const client = model.client;
    const cachedFree = client.quota?.freeRemaining ?? 0;
    if (inFreePeriod(client, startedAt)) {
      expect(settled).toEqual({ ok: { freeRemaining: cachedFree, isCredit: false, isBlacklisted: false } });
      compare(model, real, from, startedAt, []);
      return;
    }
    // A generated id is a fresh UUID: read it off the wire.
    const id = this.externalId ?? sent.find((r) => r.path === P.consume)?.externalId ?? 'missing';
    const post = simulateCall(model, P.consume, () => backendConsume(model.backend, id));
    const posts = attemptTimes(sent, P.consume);
    const predicted = repeat(post.attempts, { path: P.consume, externalId: id });
    if (!post.ok) {
      expectError(settled, post.code, { externalId: id });
    } else if (post.value.code === 20102) {
      expect(settled).toEqual({ ok: { freeRemaining: cachedFree, isCredit: false, isBlacklisted: true } });
    } else if (post.value.code === 20101) {
      if (client.quota !== null) client.quota.freeRemaining = 0;
      // A refusal refreshes the balance, as a credit charge does (issue 18 item 11).
      const refresh = refreshBalance(model);
      expect(attemptTimes(sent, P.balance)[0]).toBe(posts.at(-1));
      predicted.push(...repeat(refresh.attempts, { path: P.balance }));
      expectError(settled, 'insufficient_credits', { externalId: id, backendCode: 20101 });
    } else if (post.value.code === 0) {
      const { freeRemaining, isCredit } = post.value;
      client.freePeriodEnd = (posts.at(-1) as number) + FREE_PERIOD_MS;
      if (client.quota !== null) {
        client.quota.freeRemaining = freeRemaining;
        if (isCredit)
          client.quota.creditsBalance = Math.max(0, client.quota.creditsBalance - client.quota.creditsPerUse);
      }
      if (isCredit) {
        const refresh = refreshBalance(model);
        const refreshes = attemptTimes(sent, P.balance);
        expect(refreshes[0]).toBe(posts.at(-1));
        predicted.push(...repeat(refresh.attempts, { path: P.balance }));
      }
      expect(settled).toEqual({ ok: { freeRemaining, isCredit, isBlacklisted: false } });
    }
    compare(model, real, from, startedAt, predicted);
  }
  toString = () => `consume(${this.externalId ?? ''})`;
}

class RefreshCredits implements Command {
  check = () => true;
  async run(model: Model, real: Real): Promise<void> {
    stats.commands += 1;
    const from = real.sent.length;
    const startedAt = real.clock.now();
    const settled = await settle(real.run(real.client.billing.refreshCredits()));
    const call = refreshBalance(model);
    attemptTimes(real.sent.slice(from), P.balance);
    if (call.ok) expect(settled).toEqual({ ok: undefined });
    else expectError(settled, call.code);
    compare(model, real, from, startedAt, repeat(call.attempts, { path: P.balance }));
  }
  toString = () => 'refreshCredits()';
}

class Advance implements Command {
  constructor(readonly ms: number) {}
  check = () => true;
  async run(model: Model, real: Real): Promise<void> {
    stats.commands += 1;
    const from = real.sent.length;
    const target = real.clock.now() + this.ms;
    real.clock.advanceBy(this.ms);
    if (model.client.freePeriodEnd !== null && target >= model.client.freePeriodEnd) model.client.freePeriodEnd = null;
    compare(model, real, from, target, []);
  }
  toString = () => `advance(${this.ms})`;
}

class BackendChange implements Command {
  constructor(
    readonly change: 'topUp' | 'blacklist' | 'unblacklist' | 'quotaReset',
    readonly amount = 0,
  ) {}
  check = () => true;
  async run(model: Model, real: Real): Promise<void> {
    stats.commands += 1;
    const b = model.backend;
    if (this.change === 'topUp') b.balance += this.amount;
    if (this.change === 'blacklist' || this.change === 'unblacklist') b.blacklisted = this.change === 'blacklist';
    if (this.change === 'quotaReset') b.free = b.freeTotal;
    real.backend.setUser(TOKEN, { creditsBalance: b.balance, blacklisted: b.blacklisted, freeRemaining: b.free });
    compare(model, real, real.sent.length, real.clock.now(), []);
  }
  toString = () => `backend.${this.change}(${this.amount || ''})`;
}

const FAULTS: Record<ModelFault, Parameters<Real['backend']['failNext']>[2]> = {
  drop: { kind: 'drop' },
  dropAfterApply: { kind: 'dropAfterApply' },
  status503: { kind: 'status', status: 503 },
  status400: { kind: 'status', status: 400 },
  malformed: { kind: 'malformed', body: '<html>not json</html>', contentType: 'text/html' },
};

class InjectFault implements Command {
  constructor(
    readonly path: string,
    readonly fault: ModelFault,
    readonly n: number,
  ) {}
  // The two GETs of getUsage go out together: faults on both at once would make
  // the request count depend on which answer lands first.
  check = (model: Readonly<Model>) => {
    const other = this.path === P.freeTrialCount ? P.balance : this.path === P.balance ? P.freeTrialCount : null;
    return other === null || (model.faults.get(other)?.length ?? 0) === 0;
  };
  async run(model: Model, real: Real): Promise<void> {
    stats.commands += 1;
    real.backend.failNext(this.path, this.n, FAULTS[this.fault]);
    model.faults.set(this.path, [
      ...(model.faults.get(this.path) ?? []),
      ...repeat(this.n, { path: '' }).map(() => this.fault),
    ]);
    compare(model, real, real.sent.length, real.clock.now(), []);
  }
  toString = () => `failNext(${this.path}, ${this.n}, ${this.fault})`;
}

/** The command mix: client calls, time across the 30 s edge, backend changes, faults. */
export const commandArbitrary = fc.commands(
  [
    fc.constant(new GetUsage()),
    fc.option(fc.constantFrom('a', 'b', 'c'), { nil: undefined }).map((id) => new Consume(id)),
    fc.option(fc.constantFrom('a', 'b', 'c'), { nil: undefined }).map((id) => new Consume(id)),
    fc.constant(new RefreshCredits()),
    fc.constantFrom(1, 999, 1_000, 10_000, 29_999, 30_000, 30_001).map((ms) => new Advance(ms)),
    fc.integer({ min: 1, max: 10 }).map((amount) => new BackendChange('topUp', amount)),
    fc.constantFrom('blacklist', 'unblacklist', 'quotaReset' as const).map((change) => new BackendChange(change)),
    fc
      .tuple(
        fc.constantFrom(P.freeTrialCount, P.balance, P.consume),
        fc.constantFrom<ModelFault>('drop', 'dropAfterApply', 'status503', 'status400', 'malformed'),
        fc.integer({ min: 1, max: 3 }),
      )
      .map(([path, fault, n]) => new InjectFault(path, fault, n)),
  ],
  // A shrunk command list replays only with the replayPath fast-check prints after it (MODEL_REPLAY).
  {
    maxCommands: 30,
    size: 'max',
    ...(process.env['MODEL_REPLAY'] === undefined ? {} : { replayPath: process.env['MODEL_REPLAY'] }),
  },
);
