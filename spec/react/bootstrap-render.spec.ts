import { act, createElement as h } from 'react';
import { renderToString } from 'react-dom/server';
import { useBillingCheck, useBillingStatus, useUsage } from '../../lib/react';
import type { BillingModule } from '../../lib';
import { fixture } from '../helpers/client-fixture';
import { reactRoot } from './react-root';

// Issue 19 §1, React, through the public API: a server-side client's snapshot(), sent as JSON,
// bootstraps the client that renders on the server and the browser's. Needs the engine's
// snapshot() and `bootstrap` option. (Hydration itself, in Chromium: spec/browser/ssr-bootstrap.spec.ts.)

const dom = reactRoot();

function ExportLabel({ billing, shown }: { billing: BillingModule; shown: string[] }) {
  const { loaded } = useBillingStatus(billing);
  const { canProceed } = useBillingCheck(billing);
  const usage = useUsage(billing);
  const text = !loaded
    ? 'Loading…'
    : `${canProceed ? 'Export' : 'Top up'} (${usage?.freeRemaining} free, ${usage?.creditsBalance} credits)`;
  shown.push(text);
  return h('p', null, text);
}

async function serverSnapshot() {
  const server = fixture({ freeRemaining: 3, balance: 10 });
  await server.client.billing.getUsage();
  const snapshot = server.client.billing.snapshot();
  server.client.billing.dispose();
  // What a framework does between the server and the page: JSON.
  return JSON.parse(JSON.stringify(snapshot)) as typeof snapshot;
}

describe('a page rendered from a bootstrap', () => {
  it('renders the quota on the server, and the browser renders the same with no request and no "Loading…"', async () => {
    const bootstrap = await serverSnapshot();
    const ssr = fixture({}, { bootstrap });
    const shown: string[] = [];
    const html = renderToString(h(ExportLabel, { billing: ssr.client.billing, shown }));
    expect(html).toBe('<p>Export (3 free, 10 credits)</p>');

    const browser = fixture({}, { bootstrap });
    expect(renderToString(h(ExportLabel, { billing: browser.client.billing, shown }))).toBe(html);
    await dom.render(h(ExportLabel, { billing: browser.client.billing, shown }));
    expect(dom.text()).toBe('Export (3 free, 10 credits)');
    expect(shown).not.toContain('Loading…');
    expect(browser.backend.requests).toEqual([]);
    expect(ssr.backend.requests).toEqual([]);
  });

  it('a later answer replaces the bootstrap on screen', async () => {
    const bootstrap = await serverSnapshot();
    const browser = fixture({ freeRemaining: 1, balance: 4 }, { bootstrap });
    const shown: string[] = [];
    await dom.render(h(ExportLabel, { billing: browser.client.billing, shown }));
    expect(dom.text()).toBe('Export (3 free, 10 credits)');
    await act(async () => void (await browser.client.billing.getUsage()));
    expect(dom.text()).toBe('Export (1 free, 4 credits)');
  });

  it('with a null bootstrap, the server and the browser render "Loading…" as before', () => {
    const { client } = fixture({}, { bootstrap: null });
    expect(renderToString(h(ExportLabel, { billing: client.billing, shown: [] }))).toBe('<p>Loading…</p>');
  });
});
