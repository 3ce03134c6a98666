import { createElement as h } from 'react';
import { renderToString } from 'react-dom/server';
import { billingStores, useBillingStatus, useUsage } from '../../lib/react';
import type { BillingModule } from '../../lib';
import { fixture } from '../helpers/client-fixture';
import { reactRoot } from './react-root';

// Issue 19 §1, React: the server snapshot of useUsage and useBillingStatus is what the
// bootstrap gave. A client that has `snapshot()` and knows an answer when its first hook
// renders (a bootstrapped one) is played here by a real client given that method; the
// bootstrap itself is tried through createClient in bootstrap-render.spec.ts.

reactRoot();

function withSnapshot(billing: BillingModule): BillingModule {
  return { ...billing, snapshot: () => (billing.getCachedUsage() === null ? null : { v: 1 }) } as BillingModule;
}

function Quota({ billing }: { billing: BillingModule }) {
  const { loaded } = useBillingStatus(billing);
  const usage = useUsage(billing);
  return h('p', null, loaded && usage ? `${usage.freeRemaining}/${usage.freeTotal} free` : 'loading');
}

describe('the server snapshot of a client that knew an answer when its hooks first rendered', () => {
  it('renders that answer on the server, loaded, and keeps it for hydration while the client moves on', async () => {
    const { client } = fixture();
    await client.billing.getUsage();
    const billing = withSnapshot(client.billing);
    expect(renderToString(h(Quota, { billing }))).toBe('<p>3/5 free</p>');

    const { usage, status } = billingStores(billing);
    const served = usage.getServerSnapshot();
    await client.billing.consume();
    expect(usage.getSnapshot()?.freeRemaining).toBe(2);
    expect(usage.getServerSnapshot()).toBe(served);
    expect(status.getServerSnapshot()).toMatchObject({ loaded: true, loading: false, pending: 0, error: null });
  });

  it('without an answer then (no bootstrap), the server renders "loading", as before', async () => {
    const { client } = fixture();
    const billing = withSnapshot(client.billing);
    expect(renderToString(h(Quota, { billing }))).toBe('<p>loading</p>');
    await client.billing.getUsage();
    expect(billingStores(billing).status.getServerSnapshot()).toMatchObject({ loaded: false });
  });
});
