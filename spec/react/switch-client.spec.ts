import { act, createElement as h } from 'react';
import { Observable } from 'rxjs';
import { useBillingCheck, useBillingStatus, useFreePeriodRemaining, useUsage } from '../../lib/react';
import type { BillingModule } from '../../lib';
import { fixture } from '../helpers/client-fixture';
import { reactRoot } from './react-root';

// Issue 19 §3: switching users without remounting. The hooks follow a new `billing` object in
// place, and leave no subscription on the old one.

const dom = reactRoot();

/** The billing module as given, with its observables counting live subscribers. */
function watched(billing: BillingModule): { billing: BillingModule; subscribers: () => number } {
  let live = 0;
  const count = <T>(source$: Observable<T>) =>
    new Observable<T>((subscriber) => {
      live += 1;
      const inner = source$.subscribe(subscriber);
      return () => {
        live -= 1;
        inner.unsubscribe();
      };
    });
  return {
    billing: {
      ...billing,
      usage$: count(billing.usage$),
      status$: count(billing.status$),
      freePeriodRemaining$: count(billing.freePeriodRemaining$),
    },
    subscribers: () => live,
  };
}

function Account({ billing, renders }: { billing: BillingModule; renders: { count: number } }) {
  renders.count += 1;
  const usage = useUsage(billing);
  const { loaded } = useBillingStatus(billing);
  const { reason } = useBillingCheck(billing);
  const seconds = useFreePeriodRemaining(billing);
  if (!loaded || usage === null) return h('p', null, 'loading');
  return h('p', null, `${usage.freeRemaining} free, ${usage.creditsBalance} credits, ${reason}, ${seconds} s`);
}

describe('the hooks given another client in place', () => {
  it("show the new client's data and leave no subscription on the old one", async () => {
    const alice = fixture({ freeRemaining: 3, balance: 10 });
    const bob = fixture({ freeRemaining: 0, balance: 7 });
    const a = watched(alice.client.billing);
    const b = watched(bob.client.billing);
    const renders = { count: 0 };
    await alice.client.billing.getUsage();
    await dom.render(h(Account, { billing: a.billing, renders }));
    expect(dom.text()).toBe('3 free, 10 credits, free_count, 0 s');
    expect(a.subscribers()).toBeGreaterThan(0);

    // The app disposes Alice's client and feeds the same mounted tree Bob's.
    await dom.render(h(Account, { billing: b.billing, renders }));
    expect(dom.text()).toBe('loading');
    // Counted before the dispose, which would complete the old observables anyway.
    expect(a.subscribers()).toBe(0);
    expect(b.subscribers()).toBeGreaterThan(0);
    alice.client.billing.dispose();

    await act(async () => void (await bob.client.billing.getUsage()));
    expect(dom.text()).toBe('0 free, 7 credits, credits, 0 s');
  });

  it('a change on the old client no longer renders anything', async () => {
    const alice = fixture({ freeRemaining: 3, balance: 10 });
    const bob = fixture({ freeRemaining: 0, balance: 7 });
    await bob.client.billing.getUsage();
    const renders = { count: 0 };
    await dom.render(h(Account, { billing: alice.client.billing, renders }));
    await dom.render(h(Account, { billing: bob.client.billing, renders }));
    expect(dom.text()).toBe('0 free, 7 credits, credits, 0 s');
    const settled = renders.count;
    await act(async () => void (await alice.client.billing.getUsage()));
    await act(async () => void (await alice.client.billing.consume()));
    expect(renders.count).toBe(settled);
    expect(dom.text()).toBe('0 free, 7 credits, credits, 0 s');
  });
});
