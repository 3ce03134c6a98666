import { BehaviorSubject, type Subscription } from 'rxjs';
import { createClient } from '../../lib/client/create-client';
import type { UsageInfo } from '../../lib/shared/types';
import { UserBackend } from '../../spec/helpers/client-fixture';
import { median } from '../harness/stats';

/** One quota change delivered to many `usage$` subscribers, against a bare BehaviorSubject. */
export interface FanOutFigures {
  readonly subscribers: number;
  /** Median ms from the first subscriber's callback to the last one's, for one change. */
  readonly deliveryMs: number;
  /** The same for `BehaviorSubject.next()` of one object to as many plain subscribers. */
  readonly baselineDeliveryMs: number;
  /** deliveryMs / baselineDeliveryMs; the goal is <= 2. */
  readonly ratio: number;
  /** Median `refreshCredits()` with the subscribers minus median without any: the delivery as the caller sees it. */
  readonly wholeCallExtraMs: number;
  /** Median of the whole `subject.next()` call with the subscribers. */
  readonly baselineWholeCallMs: number;
}

/** Counts deliveries and stamps the first and the last one; the same callback on both sides. */
class Probe {
  armed = false;
  count = 0;
  first = NaN;
  last = NaN;
  seen: unknown = null;

  constructor(private readonly expected: number) {}

  readonly onValue = (value: unknown): void => {
    if (!this.armed) return;
    this.seen = value;
    if (this.count === 0) this.first = performance.now();
    if (++this.count === this.expected) this.last = performance.now();
  };

  arm(): void {
    this.armed = true;
    this.count = 0;
    this.first = NaN;
    this.last = NaN;
  }

  /** First-to-last delivery time of the change just made; throws if some subscriber missed it. */
  disarm(): number {
    this.armed = false;
    if (this.count !== this.expected)
      throw new Error(`fan-out: ${this.count} of ${this.expected} subscribers got the change`);
    return this.last - this.first;
  }
}

/**
 * A real change through the public API: the in-process backend's balance
 * moves, `refreshCredits()` fetches it, and every `usage$` subscriber gets the
 * new `UsageInfo`. The figure is the time from the first subscriber's callback
 * to the last one's, so the request, the decoding and the reducer are not in
 * it; the bare `BehaviorSubject` side is timed the same way. A second figure
 * takes the whole `refreshCredits()` with the subscribers minus the same call
 * on a client with none, alternated, as a cross-check that no per-subscriber
 * work happens before the first callback.
 */
export async function measureFanOut({ subscribers = 10_000, quick = false } = {}): Promise<FanOutFigures> {
  const rounds = quick ? 5 : 31;
  const backend = new UserBackend({ balance: 100 });
  const options = { baseUrl: 'http://billing.bench', appKey: 'bench', fetch: backend.fetch };
  const client = createClient(options);
  const bare = createClient(options);
  await client.billing.getUsage();
  await bare.billing.getUsage();

  const probe = new Probe(subscribers);
  const subscriptions: Subscription[] = [];
  for (let i = 0; i < subscribers; i++) subscriptions.push(client.billing.usage$.subscribe(probe.onValue));
  const subject = new BehaviorSubject<UsageInfo>(client.billing.getCachedUsage() as UsageInfo);
  const baseProbe = new Probe(subscribers);
  for (let i = 0; i < subscribers; i++) subscriptions.push(subject.subscribe(baseProbe.onValue));

  const delivery: number[] = [];
  const baseDelivery: number[] = [];
  const withSubscribers: number[] = [];
  const without: number[] = [];
  const baseWhole: number[] = [];
  let balance = 100;
  const change = () => {
    balance = balance === 100 ? 101 : 100;
    backend.quota.balance = balance;
  };
  try {
    for (let round = -2; round < rounds; round++) {
      // Both clients see the same change: the bare one first on even rounds, second on odd ones.
      change();
      const order = round % 2 === 0 ? [bare, client] : [client, bare];
      for (const which of order) {
        if (which === client) probe.arm();
        const started = performance.now();
        await which.billing.refreshCredits();
        const ms = performance.now() - started;
        // An engine may deliver after the call resolves: wait for the last subscriber (still timed by the probe).
        for (let turn = 0; which === client && turn < 20 && probe.count < subscribers; turn++) {
          await new Promise((resolve) => setImmediate(resolve));
        }
        if (which === client) {
          const fanned = probe.disarm();
          if ((probe.seen as UsageInfo).creditsBalance !== balance) throw new Error('fan-out: a stale balance');
          if (round >= 0) {
            delivery.push(fanned);
            withSubscribers.push(ms);
          }
        } else if (round >= 0) without.push(ms);
      }
      const next = { ...(subject.value as UsageInfo), creditsBalance: balance };
      baseProbe.arm();
      const started = performance.now();
      subject.next(next);
      const whole = performance.now() - started;
      const fanned = baseProbe.disarm();
      if (round >= 0) {
        baseDelivery.push(fanned);
        baseWhole.push(whole);
      }
    }
  } finally {
    for (const subscription of subscriptions) subscription.unsubscribe();
    client.billing.dispose();
    bare.billing.dispose();
  }
  const deliveryMs = median(delivery);
  const baselineDeliveryMs = median(baseDelivery);
  return {
    subscribers,
    deliveryMs,
    baselineDeliveryMs,
    ratio: deliveryMs / baselineDeliveryMs,
    wholeCallExtraMs: median(withSubscribers) - median(without),
    baselineWholeCallMs: median(baseWhole),
  };
}
