import { createClient } from '../../lib';
import { reduxDevtools } from '../../lib/devtools';
import { createReferenceBackend } from '../../lib/testing';
import { VirtualClock } from '../helpers/virtual-clock';
import { fakeExtension } from './fake-extension';

// Issue 25 §7: the state DevTools is sent comes from the store. A browser's clocks are
// `performance.now()` (fractional ms) and `Date.now()` (whole ms, truncated): reading both
// again for every action made the free period's end move by 1 ms in actions that left it alone.
const WALL_ORIGIN = 1_780_000_000_000;

/** The browser's pair of clocks on virtual time: a fractional monotonic clock, a whole-ms wall clock. */
class BrowserClocks extends VirtualClock {
  constructor() {
    super(1_000.3);
  }

  wallNow(): number {
    return Math.floor(WALL_ORIGIN + this.now());
  }
}

/** A client on the two clocks of a page, with DevTools through a fake extension, over the reference backend. */
function open() {
  const backend = createReferenceBackend({
    users: [{ token: 't', freeRemaining: 5, freeTotal: 5, creditsPerUse: 2, creditsBalance: 10 }],
  });
  const { extension, log } = fakeExtension();
  const clock = new BrowserClocks();
  const client = createClient({
    baseUrl: 'http://billing.test',
    appKey: 'poster',
    headers: { Authorization: 'Bearer t' },
    fetch: backend.fetch,
    scheduler: clock,
    devtools: reduxDevtools({ extension }),
  });
  return { backend, log, clock, client };
}

type Shown = { freePeriodEndsAt: number | null; usage: { freeRemaining: number } | null };

describe('reduxDevtools(): the free period end it shows', () => {
  it('stays the same in every action that does not change the period', async () => {
    const { backend, log, clock, client } = open();
    try {
      await client.billing.getUsage();
      await client.billing.consume(); // the period starts
      const started = log.messages.length;
      // Sub-millisecond steps, as a page's actions land between whole ms of Date.now().
      for (let i = 0; i < 8; i++) {
        clock.advanceBy(0.2);
        await client.billing.getUsage();
        await client.billing.consume(); // inside the period: answered without a charge
      }
      const shown = log.messages.slice(started - 1).map((message) => (message.state as Shown).freePeriodEndsAt);
      expect(shown.length).toBeGreaterThan(8);
      expect(new Set(shown)).toEqual(new Set([shown[0]]));
      expect(shown[0]).toEqual(expect.any(Number));
      expect(backend.charges()).toHaveLength(1);
    } finally {
      client.billing.dispose();
      await backend.close();
    }
  });

  it('changes when the period does: a new period shows its own end, an ended one null', async () => {
    const { backend, log, clock, client } = open();
    const last = () => log.messages.at(-1)!.state as Shown;
    try {
      await client.billing.consume();
      const first = last().freePeriodEndsAt!;
      expect(first).toBe(Math.floor(WALL_ORIGIN + 1_000.3) + 30_000);
      clock.advanceBy(30_000);
      expect(last().freePeriodEndsAt).toBeNull();
      clock.advanceBy(5_000.5);
      await client.billing.consume();
      expect(last().freePeriodEndsAt).toBe(Math.floor(WALL_ORIGIN + 1_000.3 + 35_000.5) + 30_000);
    } finally {
      client.billing.dispose();
      await backend.close();
    }
  });
});
