import { Observable, ignoreElements, tap } from 'rxjs';
import type { BillingAction } from '../../lib/core/actions';
import type { BillingFeature } from '../../lib/features/feature';
import type { BillingEvent } from '../../lib/shared/billing-event';
import { cleanup, fixture } from '../helpers/client-fixture';
import { settle } from '../helpers/virtual-clock';
import { billingEvents } from '../../lib';

afterEach(cleanup);

// The reducer's vocabulary (lib/core/actions.ts): nothing else may travel on action$.
const FACTS = new Set([
  'usage/started',
  'usage/loaded',
  'usage/failed',
  'usage/bootstrapped',
  'balance/started',
  'balance/loaded',
  'balance/failed',
  'consume/started',
  'consume/locked',
  'consume/sent',
  'consume/charged',
  'consume/insufficient',
  'consume/settled',
  'freePeriod/ended',
  'freePeriod/adopted',
]);

// A feature whose one effect records every action it sees on action$.
function recorder(seen: string[]): BillingFeature<'sync'> {
  return {
    kind: 'sync',
    install: () => ({
      effects: [
        (action$: Observable<BillingAction>) =>
          action$.pipe(
            tap((action) => seen.push(action.type)),
            ignoreElements(),
          ),
      ],
    }),
  };
}

describe('the lean paths of the engine (issue 11)', () => {
  it('a free-period consume with nothing queued sends nothing and is one settled promise while the count holds', async () => {
    const { client, backend } = fixture({ freeRemaining: 2 });
    await client.billing.getUsage();
    await client.billing.consume();
    const sent = backend.requests.length;
    const first = client.billing.consume();
    const second = client.billing.consume();
    expect(second).toBe(first);
    await expect(first).resolves.toEqual({ freeRemaining: 1, isCredit: false, isBlacklisted: false });
    expect(Object.isFrozen(await first)).toBe(true);
    expect(backend.requests.length).toBe(sent);
  });

  it('no id is made for a consume that sends nothing', async () => {
    const events: BillingEvent[] = [];
    const { client, backend } = fixture(
      { freeRemaining: 2 },
      { events: billingEvents({ onEvent: (event) => events.push(event) }) },
    );
    const controller = new AbortController();
    controller.abort();
    const refused = await client.billing.consume({ signal: controller.signal }).catch((error: unknown) => error);
    expect(refused).toMatchObject({ code: 'aborted' });
    expect((refused as { externalId?: string }).externalId).toBeUndefined();
    await client.billing.getUsage();
    await client.billing.consume();
    await client.billing.consume();
    expect(events.filter((event) => event.type === 'consume:free')).toEqual([
      expect.objectContaining({ externalId: null }),
    ]);
    // The one POST carried the one id made.
    const posts = backend.requests.filter((request) => request.method === 'POST');
    expect(posts).toHaveLength(1);
  });

  it("action$ carries only the reducer's facts (the status's included): no request object, no reply", async () => {
    const seen: string[] = [];
    const { client, clock } = fixture({ freeRemaining: 1, balance: 20, creditsPerUse: 10 }, { sync: recorder(seen) });
    await client.billing.getUsage();
    await client.billing.consume();
    await client.billing.consume();
    clock.advanceBy(31_000);
    await client.billing.consume();
    await client.billing.refreshCredits();
    expect(seen).toEqual([
      'usage/started',
      'usage/loaded',
      'consume/started',
      'consume/sent',
      'consume/charged',
      'consume/settled',
      'consume/settled', // the free one: answered at once, still a fact the status and events read
      'freePeriod/ended',
      'consume/started',
      'consume/sent',
      'consume/charged',
      'balance/started',
      'balance/loaded',
      'consume/settled', // after the balance refresh, as the spec orders it
      'balance/started',
      'balance/loaded',
    ]);
    expect(seen.filter((type) => !FACTS.has(type))).toEqual([]);
  });

  it("a charged consume given no signal makes one AbortController, its POST attempt's; dispose() still ends its work", async () => {
    const { client, backend, clock } = fixture({ freeRemaining: 5 });
    await client.billing.getUsage();
    const Original = globalThis.AbortController;
    let made = 0;
    globalThis.AbortController = class extends Original {
      constructor() {
        super();
        made++;
      }
    };
    try {
      await client.billing.consume();
      expect(made).toBe(1);
    } finally {
      globalThis.AbortController = Original;
    }
    clock.advanceBy(31_000);
    backend.holding = true;
    const held = client.billing.consume({ externalId: 'held' }).catch((error: unknown) => error);
    await settle();
    client.billing.dispose();
    expect(await held).toMatchObject({ code: 'disposed' });
    expect(backend.requests.at(-1)?.signal?.aborted).toBe(true);
  });
});
