import { act, createElement as h, type ReactNode } from 'react';
import { renderToString } from 'react-dom/server';
import { billingStores, useBillingCheck, useFreePeriodRemaining, useUsage } from '../../lib/react';
import type { BillingModule } from '../../lib';
import { fixture } from '../helpers/client-fixture';
import { reactRoot } from './react-root';

const dom = reactRoot();

/** Renders `component` and counts its renders. */
function counted(component: (billing: BillingModule) => ReactNode) {
  const renders = { count: 0 };
  function Probe({ billing }: { billing: BillingModule }) {
    renders.count++;
    return h('p', null, component(billing));
  }
  return { renders, element: (billing: BillingModule) => h(Probe, { billing }) };
}

function QuotaText(billing: BillingModule): string {
  const usage = useUsage(billing);
  return usage === null ? 'loading' : `${usage.freeRemaining}/${usage.freeTotal} free, ${usage.creditsBalance} credits`;
}

function CountdownText(billing: BillingModule): string {
  const seconds = useFreePeriodRemaining(billing);
  return seconds > 0 ? `free for ${seconds} s` : 'no free period';
}

function VerdictText(billing: BillingModule): string {
  return useBillingCheck(billing).reason;
}

describe('unified-billing/react', () => {
  it('useUsage shows the quota, and re-renders only when a shown field changes', async () => {
    const { client, backend } = fixture();
    const { renders, element } = counted(QuotaText);
    await dom.render(element(client.billing));
    expect(dom.text()).toBe('loading');
    await act(() => client.billing.getUsage());
    expect(dom.text()).toBe('3/5 free, 10 credits');
    expect(renders.count).toBe(2);

    // Same answers again: nothing the component shows changed.
    await act(() => client.billing.getUsage());
    await act(() => client.billing.refreshCredits());
    expect(renders.count).toBe(2);

    backend.quota.balance = 7;
    await act(() => client.billing.refreshCredits());
    expect(dom.text()).toBe('3/5 free, 7 credits');
    expect(renders.count).toBe(3);
  });

  it('useFreePeriodRemaining counts down once a second, one render per second, then shows 0', async () => {
    const { client, clock } = fixture();
    const { renders, element } = counted(CountdownText);
    await dom.render(element(client.billing));
    expect(dom.text()).toBe('no free period');
    await act(async () => void (await client.billing.consume()));
    expect(dom.text()).toBe('free for 30 s');
    const shown: string[] = [];
    for (let second = 0; second < 30; second++) {
      await act(async () => clock.advanceBy(1_000));
      shown.push(dom.text());
    }
    expect(shown.slice(0, 3)).toEqual(['free for 29 s', 'free for 28 s', 'free for 27 s']);
    expect(shown.at(-1)).toBe('no free period');
    // 0, then 30..1, then 0 again.
    expect(renders.count).toBe(32);
  });

  it('useBillingCheck re-renders when the verdict changes, not on every countdown tick', async () => {
    const { client, clock } = fixture({ freeRemaining: 1 });
    const { renders, element } = counted(VerdictText);
    await dom.render(element(client.billing));
    expect(dom.text()).toBe('insufficient');
    await act(async () => void (await client.billing.getUsage()));
    expect(dom.text()).toBe('free_count');
    await act(async () => void (await client.billing.consume()));
    expect(dom.text()).toBe('free_period');
    const rendersInPeriod = renders.count;
    for (let second = 0; second < 29; second++) await act(async () => clock.advanceBy(1_000));
    expect(renders.count).toBe(rendersInPeriod);
    await act(async () => clock.advanceBy(1_000));
    expect(dom.text()).toBe('credits');
    expect(renders.count).toBe(4);
  });

  it('a component mounted when the client is disposed keeps its last value', async () => {
    const { client } = fixture();
    await client.billing.getUsage();
    const { element } = counted(QuotaText);
    await dom.render(element(client.billing));
    client.billing.dispose();
    await dom.render(element(client.billing));
    expect(dom.text()).toBe('3/5 free, 10 credits');
  });

  it('renders on the server with what the client knows', async () => {
    const { client } = fixture();
    const page = (billing: BillingModule) =>
      renderToString(h('main', null, counted(QuotaText).element(billing), counted(VerdictText).element(billing)));
    expect(page(client.billing)).toBe('<main><p>loading</p><p>insufficient</p></main>');
    await client.billing.getUsage();
    expect(page(client.billing)).toBe('<main><p>3/5 free, 10 credits</p><p>free_count</p></main>');
  });

  it('snapshots keep their identity until something shown changes', async () => {
    const { client, clock } = fixture();
    const { usage, check, freePeriodRemaining } = billingStores(client.billing);
    expect(billingStores(client.billing).usage).toBe(usage);
    await client.billing.getUsage();
    const first = usage.getSnapshot();
    await client.billing.getUsage();
    expect(usage.getSnapshot()).toBe(first);
    await client.billing.consume();
    const inPeriod = usage.getSnapshot();
    expect(inPeriod).not.toBe(first);
    expect(check.getSnapshot()).toBe(check.getSnapshot());
    clock.advanceBy(5_000);
    expect(usage.getSnapshot()).toBe(inPeriod);
    expect(freePeriodRemaining.getSnapshot()).toBe(25);
  });
});
