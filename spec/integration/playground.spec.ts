import crossFetch from 'cross-fetch';
import { DEMO_USERS, PLAYGROUND_APP_KEY } from '../../playground/server/demo-users';
import { startPlayground, type Playground } from '../../playground/server/start-playground';
import { runWalkthrough } from '../../playground/demo/walkthrough';
import { renderTable } from '../../playground/demo/step-report';
import type { FetchLike } from '../../lib';
import { drivenClient } from '../helpers/drive';

describe('the playground, in process', () => {
  let playground: Playground;
  beforeAll(async () => {
    playground = await startPlayground({ port: 0 });
  });
  afterAll(() => playground.close());

  test('serves the page with its test ids and the inlined demo users, and the bundled library', async () => {
    const page = await fetch(`${playground.url}/`);
    expect(page.headers.get('content-type')).toContain('text/html');
    const html = await page.text();
    for (const id of [
      'user-select',
      'export',
      'free-remaining',
      'credits-balance',
      'verdict',
      'countdown',
      'log',
      'status',
      'preview',
      'events',
    ]) {
      expect(html).toContain(`data-testid="${id}"`);
    }
    for (const user of DEMO_USERS) expect(html).toContain(user.token);
    const script = await fetch(`${playground.url}/app.js`);
    expect(script.headers.get('content-type')).toContain('javascript');
    // The real library is in the bundle: its error class and the three paths.
    const code = await script.text();
    expect(code).toContain('/ai/v5/service/free_trial/count');
    expect(code).toContain('/ai/v1/credit/getBalance');
  });

  test('other paths still get the backend’s JSON 404', async () => {
    const answer = await fetch(`${playground.url}/nope`);
    expect(answer.status).toBe(404);
    expect(await answer.json()).toMatchObject({ code: 404, data: null });
  });

  test('the four demo users land on the four outcomes, and reset restores them', async () => {
    const outcomes: string[] = [];
    for (const user of DEMO_USERS) {
      const { client, run } = drivenClient(crossFetch as FetchLike, {
        baseUrl: playground.url,
        appKey: PLAYGROUND_APP_KEY,
        headers: { Authorization: `Bearer ${user.token}` },
      });
      await run(client.billing.getUsage());
      const verdict = client.billing.check().reason;
      const outcome = await run(client.billing.consume()).then(
        (r) => (r.isBlacklisted ? 'blacklisted' : r.isCredit ? 'credits' : 'free'),
        (e: { code: string }) => e.code,
      );
      outcomes.push(`${verdict} → ${outcome}`);
      client.billing.dispose();
    }
    expect(outcomes).toEqual([
      'free_count → free',
      'credits → credits',
      'insufficient → insufficient_credits',
      'free_count → blacklisted',
    ]);
    expect(playground.backend.charges()).toHaveLength(2);
    const reset = await fetch(`${playground.url}/playground/reset`, { method: 'POST' });
    expect(reset.status).toBe(200);
    expect(playground.backend.charges()).toEqual([]);
    expect(playground.backend.getUser('demo-free').creditsBalance).toBe(50);
  });
});

describe('the demo walk-through, in process', () => {
  test('every step behaves and the table lists the requests', async () => {
    const steps = await runWalkthrough();
    expect(steps.map((step) => [step.title, step.problems])).toEqual(steps.map((step) => [step.title, []]));
    expect(steps.map((step) => step.verdict)).toEqual([
      'insufficient',
      'free_count',
      'free_period',
      'credits',
      'insufficient',
      'insufficient',
    ]);
    expect(steps.map((step) => step.preview)).toEqual([
      'Loading the price…',
      'This export uses 1 free use (1 → 0)',
      'This export is free (free period)',
      'This export costs 10 credits (15 → 5)',
      'Not enough credits: needs 10, has 5',
      'Not enough credits: needs 10, has 5',
    ]);
    expect(steps.every((step) => step.status.startsWith('Ready'))).toBe(true);
    // The refusal is followed by its balance refresh (issue 18 item 11).
    expect(steps.map((step) => step.requests.length)).toEqual([2, 1, 0, 2, 2, 1]);
    const table = renderTable(steps);
    expect(table).toContain('POST /ai/v5/service/free_trial external_id=export-4 → 200 code 20101');
    expect(table).toContain('(none)');
  });
});
