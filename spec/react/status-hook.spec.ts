import { act, createElement as h } from 'react';
import { renderToString } from 'react-dom/server';
import { billingStores, useBillingCheck, useBillingStatus, useUsage } from '../../lib/react';
import type { BillingModule } from '../../lib';
import { fixture, PATH } from '../helpers/client-fixture';
import { settle } from '../helpers/virtual-clock';
import { reactRoot } from './react-root';

// Issue 12 item 1: useBillingStatus renders "loading" instead of a refusal.

const dom = reactRoot();

/** The README's label: "Loading…" until the quota is there, never "Top up" before; then the quota. */
function ExportLabel({ billing, renders }: { billing: BillingModule; renders: { count: number } }) {
  renders.count++;
  const { loaded, loading, pending, error } = useBillingStatus(billing);
  const { canProceed } = useBillingCheck(billing);
  const usage = useUsage(billing);
  const flag = h('i', null, loading ? ' (fetching)' : '');
  if (!loaded) return h('p', null, error ? `Could not load your quota (${error.code})` : 'Loading…', flag);
  if (pending > 0) return h('p', null, 'Exporting…');
  const quota = `${usage?.freeRemaining ?? '?'} free, ${usage?.creditsBalance ?? '?'} credits`;
  return h('p', null, canProceed ? `Export (${quota})` : `Top up to export (${quota})`, flag);
}

describe('useBillingStatus', () => {
  it('renders "Loading…" before and during the first fetch, then the usage and verdict, never "Top up" before', async () => {
    const { client, backend } = fixture({ freeRemaining: 0, balance: 0 });
    const renders = { count: 0 };
    await dom.render(h(ExportLabel, { billing: client.billing, renders }));
    expect(dom.text()).toBe('Loading…');

    backend.holding = true;
    // Inside act(): starting the fetch sets the status to loading at once, a render React must see.
    let usage: Promise<unknown> = Promise.resolve();
    await act(async () => {
      usage = client.billing.getUsage();
      usage.catch(() => undefined);
      await settle();
    });
    expect(dom.text()).toBe('Loading… (fetching)');

    backend.holding = false;
    await act(async () => {
      backend.release();
      await usage;
    });
    expect(dom.text()).toBe('Top up to export (0 free, 0 credits)');
  });

  it('shows the failed load, then the quota once a retry succeeds', async () => {
    const { client, backend } = fixture({}, { retries: 0 });
    const renders = { count: 0 };
    await dom.render(h(ExportLabel, { billing: client.billing, renders }));
    backend.script(PATH.count, { status: 500, body: 'down' });
    await act(() => client.billing.getUsage().catch(() => undefined));
    expect(dom.text()).toBe('Could not load your quota (http)');
    await act(() => client.billing.getUsage());
    expect(dom.text()).toBe('Export (3 free, 10 credits)');
  });

  it('shows a consume in flight, and re-renders only on a status change', async () => {
    const { client, backend } = fixture();
    await client.billing.getUsage();
    const renders = { count: 0 };
    await dom.render(h(ExportLabel, { billing: client.billing, renders }));
    expect(dom.text()).toBe('Export (3 free, 10 credits)');
    backend.holding = true;
    const consumed = client.billing.consume();
    consumed.catch(() => undefined);
    await act(() => settle());
    expect(dom.text()).toBe('Exporting…');
    backend.holding = false;
    await act(async () => {
      backend.release();
      await consumed;
    });
    expect(dom.text()).toBe('Export (2 free, 10 credits)');
    const settled = renders.count;
    // Free consumes in the free period change nothing shown.
    await act(async () => void (await client.billing.consume()));
    await act(async () => void (await client.billing.consume()));
    expect(renders.count).toBe(settled);
  });

  it('the server renders "not loaded" whatever the client knows, so hydration starts from loading', async () => {
    const { client } = fixture();
    const page = (billing: BillingModule) => renderToString(h(ExportLabel, { billing, renders: { count: 0 } }));
    expect(page(client.billing)).toBe('<p>Loading…<i></i></p>');
    await client.billing.getUsage();
    expect(page(client.billing)).toBe('<p>Loading…<i></i></p>');
    expect(billingStores(client.billing).status.getServerSnapshot()).toMatchObject({ loaded: false, loading: false });
  });

  it('the snapshot is getStatus() itself, stable until the status changes, the last one after dispose', async () => {
    const { client } = fixture();
    const { status } = billingStores(client.billing);
    expect(status.getSnapshot()).toBe(client.billing.getStatus());
    await client.billing.getUsage();
    const loaded = status.getSnapshot();
    expect(loaded).toBe(client.billing.getStatus());
    expect(status.getSnapshot()).toBe(loaded);
    client.billing.dispose();
    expect(status.getSnapshot()).toBe(loaded);
  });
});
