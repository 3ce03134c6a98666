import type { Observer, Subscribable } from 'rxjs';
import { refetchOn, type Client } from '../../../lib';
import { Browser } from '../../helpers/browser';
import { cleanup, fixture, PATH, type UserBackend } from '../../helpers/client-fixture';
import { expectConsole } from '../../helpers/expect-console';
import { settle } from '../../helpers/virtual-clock';
import { until } from '../../helpers/waiting';

// Issue 32: `refetchOn({ when })`, driven by hand. Each value is the nudge a tab's change message
// gives (a fetch sent after it, a burst sharing one), never a figure; the source lives as long as
// the client and is subscribed again, with a backoff, when it ends.

/** A source the test drives: who is subscribed, and each value, error or completion by hand. */
class HandSource implements Subscribable<string> {
  readonly observers = new Set<Partial<Observer<string>>>();
  subscribes = 0;
  subscribe(observer: Partial<Observer<string>>) {
    this.subscribes += 1;
    this.observers.add(observer);
    return { unsubscribe: () => void this.observers.delete(observer) };
  }
  push(times = 1): void {
    for (let i = 0; i < times; i++) this.observers.forEach((observer) => observer.next?.('changed'));
  }
  fail(error: unknown): void {
    [...this.observers].forEach((observer) => (this.observers.delete(observer), observer.error?.(error)));
  }
  complete(): void {
    [...this.observers].forEach((observer) => (this.observers.delete(observer), observer.complete?.()));
  }
}

const balanceOf = (client: Client) => client.billing.getCachedUsage()?.creditsBalance;
/** GET pairs sent since the log was last cleared: [free count GETs, balance GETs]. */
const gets = (backend: UserBackend) => [backend.count(PATH.count), backend.count(PATH.balance)];

async function loaded(patch = {}) {
  const source = new HandSource();
  const rig = fixture(
    { freeRemaining: 0, balance: 10, creditsPerUse: 2, ...patch },
    {
      refetch: refetchOn({ when: source }),
    },
  );
  // Subscribed as the client is created, before anything was fetched.
  expect(source.observers.size).toBe(1);
  await rig.client.billing.getUsage();
  rig.backend.requests.splice(0);
  const seen: number[] = [];
  rig.client.billing.usage$.subscribe((usage) => seen.push(usage.creditsBalance));
  return { ...rig, source, seen };
}

afterEach(cleanup);

describe('refetchOn({ when }): each value is a nudge', () => {
  it('a push shows the new balance, with one GET pair', async () => {
    const { client, backend, source, seen } = await loaded();
    backend.quota.balance = 50; // topped up on another device
    source.push();
    await until(() => balanceOf(client) === 50, 'the pushed balance');
    await settle();
    expect(seen).toEqual([10, 50]);
    expect(gets(backend)).toEqual([1, 1]);
  });

  it('100 pushes during a fetch in flight cost one GET pair beyond it, and the newest answer is shown', async () => {
    const { client, backend, source, seen } = await loaded();
    const held = backend.hold(PATH.balance);
    void client.billing.getUsage().catch(() => undefined);
    await held.arrived; // the backend read 10; its answer is still on the wire
    backend.quota.balance = 50;
    source.push(100);
    await settle();
    held.release();
    await until(() => balanceOf(client) === 50, 'the newest balance');
    await settle();
    expect(gets(backend)).toEqual([2, 2]);
    expect(seen[seen.length - 1]).toBe(50);
  });

  it('a push while a consume is in flight never rolls the balance back', async () => {
    const { client, backend, source, seen } = await loaded();
    const post = backend.hold(PATH.consume);
    const consumed = client.billing.consume();
    await post.arrived; // charged on the backend (10 -> 8), the answer still on the wire
    source.push(); // the backend tells the charge before this client hears its answer
    await until(() => balanceOf(client) === 8, 'the pushed fetch');
    post.release();
    await consumed;
    await settle();
    expect(balanceOf(client)).toBe(8);
    // 10, then 8 only (the charge's own emission may repeat it with its free period): never 10 again.
    expect(new Set(seen.slice(1))).toEqual(new Set([8]));
  });

  it('an answer read before a charge, arriving after it, loses to the charge (request order)', async () => {
    const { client, backend, source, seen } = await loaded();
    backend.quota.balance = 20; // a top-up elsewhere, pushed
    const pushed = backend.hold(PATH.balance);
    source.push();
    await pushed.arrived; // the backend read 20; that answer is late
    await client.billing.consume(); // then this client's charge: 20 -> 18, its balance refreshed
    await until(() => balanceOf(client) === 18, 'the charge and its refresh');
    pushed.release();
    await settle();
    expect(balanceOf(client)).toBe(18);
    expect(seen).not.toContain(20);
  });
});

describe('refetchOn({ when }): the source’s life', () => {
  it('an erroring source is subscribed again after 1 s, 2 s, 4 s … at most 30 s, each followed by one refetch', async () => {
    const warnings = expectConsole('warn', /refetchOn\(\{ when \}\) source failed \(Error\)/);
    const { backend, source, clock } = await loaded();
    const waits: number[] = [];
    for (let round = 0; round < 7; round++) {
      source.fail(new Error('socket closed'));
      const ended = clock.now();
      expect(source.observers.size).toBe(0);
      clock.advanceBy(clock.nextDue()! - ended);
      waits.push(clock.now() - ended);
      expect(source.observers.size).toBe(1);
      await settle();
      expect(gets(backend)).toEqual([round + 1, round + 1]);
    }
    expect(waits).toEqual([1_000, 2_000, 4_000, 8_000, 16_000, 30_000, 30_000]);
    expect(source.subscribes).toBe(8);
    // One warning for the client's life, naming the error's class only (its text may quote a token).
    expect(warnings).toHaveLength(1);
    expect(warnings[0]?.message).not.toContain('socket closed');
  });

  it('a source that completes is subscribed again too; a value brings the wait back to 1 s', async () => {
    expectConsole('warn', /refetchOn\(\{ when \}\) source completed/);
    const { source, clock } = await loaded();
    source.complete();
    clock.advanceBy(999);
    expect(source.observers.size).toBe(0);
    clock.advanceBy(1);
    expect(source.observers.size).toBe(1);
    source.complete();
    clock.advanceBy(1_999);
    expect(source.observers.size).toBe(0);
    clock.advanceBy(1);
    source.push(); // working again
    source.complete();
    clock.advanceBy(1_000);
    expect(source.observers.size).toBe(1);
    expect(source.subscribes).toBe(4);
  });

  it('a source that throws on subscribe is subscribed again after 1 s', async () => {
    expectConsole('warn', /refetchOn\(\{ when \}\) source failed \(Error\); subscribing again in 1 s/);
    const source = new HandSource();
    let refuse = true;
    const flaky: Subscribable<string> = {
      subscribe: (observer) => {
        if (refuse) throw new Error('not connected');
        return source.subscribe(observer);
      },
    };
    const { client, backend, clock } = fixture(
      { freeRemaining: 0, balance: 10 },
      { refetch: refetchOn({ when: flaky }) },
    );
    await client.billing.getUsage();
    refuse = false;
    backend.quota.balance = 30;
    clock.advanceBy(1_000);
    expect(source.observers.size).toBe(1);
    await until(() => balanceOf(client) === 30, 'the refetch after subscribing again');
  });

  it('dispose() unsubscribes, and cancels a wait for subscribing again', async () => {
    expectConsole('warn', /refetchOn/);
    const { client, source, clock } = await loaded();
    client.billing.dispose();
    expect(source.observers.size).toBe(0);
    const other = await loaded();
    other.source.fail(new Error('gone'));
    expect(other.clock.pending).toBeGreaterThan(0);
    other.client.billing.dispose();
    other.clock.advanceBy(60_000);
    expect(other.source.subscribes).toBe(1);
    expect(clock.pending).toBe(0);
  });

  it('refuses a `when` that is not subscribable, naming what it got', () => {
    expect(() => refetchOn({ when: 5 as never })).toThrow(
      'refetchOn() when must be an Observable or an object with subscribe() (got 5)',
    );
    expect(() => refetchOn({ when: { subscribe: true } as never })).toThrow(/refetchOn\(\) when must be/);
  });
});

describe('refetchOn({ when }) across tabs with tabSync(): each tab its own source', () => {
  let browser: Browser | undefined;
  afterEach(() => browser?.close());

  it.each([1, 3])('one change pushed to %i tab(s), each with its own source: one GET pair per tab', async (tabs) => {
    browser = new Browser({ freeRemaining: 0, balance: 10 });
    const source = new HandSource(); // one server, one stream per tab
    const pages = Array.from({ length: tabs }, () =>
      browser!.open({ sync: true, client: { refetch: refetchOn({ when: source }) } }),
    );
    await Promise.all(pages.map((page) => page.billing.getUsage()));
    await browser.settle();
    browser.sent.splice(0);
    browser.backend.quota.balance = 50;
    source.push();
    await browser.settle();
    expect(pages.map((page) => page.billing.getCachedUsage()?.creditsBalance)).toEqual(pages.map(() => 50));
    // The tabs' change messages cost nothing more: each other tab already shows (or is fetching) the news.
    expect(pages.map((page) => browser!.count(PATH.count, page))).toEqual(pages.map(() => 1));
    expect(source.observers.size).toBe(tabs);
  });

  it('a tab whose stream tells the change late fetches twice: once for the other tab’s message, once for its push', async () => {
    browser = new Browser({ freeRemaining: 0, balance: 10 });
    const [early, late] = [new HandSource(), new HandSource()];
    const pages = [early, late].map((source) =>
      browser!.open({ sync: true, client: { refetch: refetchOn({ when: source }) } }),
    );
    await Promise.all(pages.map((page) => page.billing.getUsage()));
    await browser.settle();
    browser.sent.splice(0);
    browser.backend.quota.balance = 50;
    early.push();
    await browser.settle(); // tab 0 fetched, showed 50 and told tab 1, which fetched too
    late.push();
    await browser.settle();
    expect(pages.map((page) => page.billing.getCachedUsage()?.creditsBalance)).toEqual([50, 50]);
    expect(pages.map((page) => browser!.count(PATH.count, page))).toEqual([1, 2]);
  });
});
