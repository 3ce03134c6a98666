import type { Page } from 'playwright-core';
import { REFERENCE_PATHS } from '../../lib/testing';
import { outcomeOf, postedIds, shows, startConsume, until, useRig } from './lifecycle-fixtures';
import { advanceTo, decision, holdConsumeAnswers, installClock, pause } from './tab-fixtures';

// Three tabs with tabSync() in one context; the tab that holds the consume lock (or a free period) is
// closed or frozen (paused in the debugger through CDP) at the worst moment. Real time, except where a
// spec moves every page's clock (tab-fixtures.ts) to reach the end of a free period without waiting 30 s.
const rig = useRig();

async function threeTabs(): Promise<[Page, Page, Page]> {
  await installClock(rig.context);
  const tabs: Page[] = [];
  for (let i = 0; i < 3; i += 1) tabs.push(await rig.open('?sync=broadcast'));
  return tabs as [Page, Page, Page];
}

const posted = (externalId: string) => postedIds(rig.backend).includes(externalId);

/** A's consume holds the lock (its POST is at the backend) before B and C ask for it. */
async function aHoldsTheLock(a: Page, b: Page, c: Page): Promise<void> {
  await startConsume(a, 'a-1');
  await until(() => rig.backend.requests().some((r) => r.path === REFERENCE_PATHS.consume), "A's POST");
  await startConsume(b, 'b-1');
  await startConsume(c, 'c-1');
}

/** No page is free any more once its clock reads 30 s after `settledAt` (a charge answer's `Date.now()`). */
async function freeUntilThirtySecondsAfter(pages: readonly Page[], settledAt: number): Promise<void> {
  const reasons = async () => {
    const seen: Array<string | null> = [];
    for (const page of pages) seen.push((await decision(page)).reason);
    return seen;
  };
  await advanceTo(pages, settledAt + 25_000);
  expect(await reasons()).toEqual(pages.map(() => 'free_period'));
  await advanceTo(pages, settledAt + 30_001);
  expect(await reasons()).toEqual(pages.map(() => 'free_count'));
}

describe('the tab holding the consume lock is closed mid-charge', () => {
  test('its POST held at the backend (never applied): the others finish, one charge, each living caller hears it', async () => {
    const [a, b, c] = await threeTabs();
    rig.backend.failNext(REFERENCE_PATHS.consume, 1, { kind: 'stall' });
    await aHoldsTheLock(a, b, c);
    await a.close();
    expect(await outcomeOf(b, 'b-1')).toMatchObject({ ok: true });
    expect(await outcomeOf(c, 'c-1')).toMatchObject({ ok: true });
    // One of B and C charged (whichever got the lock first); the other was free in its period.
    expect(rig.backend.charges()).toHaveLength(1);
    expect(posted('b-1') !== posted('c-1')).toBe(true);
    await shows(b, 'free-remaining', '2');
    await shows(c, 'free-remaining', '2');
  });

  // Known defect (issue 23 point 6, still open; docs/decisions.md "Cross-tab degradation, issue 23" has the
  // design): the closed tab's POST was charged, but no tab ever heard of it, so no free period started and the
  // next lock holder is charged again: two charges for what the user clicked at once (each reported at most
  // once; the closed tab's to nobody). Pinned exactly, so a fix (one charge) or a worse outcome shows.
  test('its answer held (the backend charged): the others finish, and the next holder is charged again (2 charges, known defect)', async () => {
    const [a, b, c] = await threeTabs();
    const held = await holdConsumeAnswers(a);
    await aHoldsTheLock(a, b, c);
    await held.answered;
    await a.close();
    expect(await outcomeOf(b, 'b-1')).toMatchObject({ ok: true });
    expect(await outcomeOf(c, 'c-1')).toMatchObject({ ok: true });
    // A's charge, then one of B and C (whichever got the lock first); the other was free in its period.
    expect(rig.backend.charges()).toHaveLength(2);
    expect(postedIds(rig.backend)[0]).toBe('a-1');
    expect(posted('b-1') !== posted('c-1')).toBe(true);
  });
});

describe('a tab frozen (paused in the debugger) and then resumed', () => {
  test('while it holds the consume lock: the others wait, then one charge; nobody free beyond 30 s after it', async () => {
    const [a, b, c] = await threeTabs();
    rig.backend.failNext(REFERENCE_PATHS.consume, 1, { kind: 'delay', ms: 4_000 });
    await aHoldsTheLock(a, b, c);
    const frozen = await pause(rig.context, a);
    await until(
      () => rig.backend.requests().some((r) => r.status === 200 && r.path === REFERENCE_PATHS.consume),
      "A's answer",
    );
    // The setup holds: B and C are still waiting for the lock A holds.
    expect(await b.evaluate(() => Object.keys(window.__billing.outcomes))).toEqual([]);
    expect(await c.evaluate(() => Object.keys(window.__billing.outcomes))).toEqual([]);
    await frozen.resume();

    const charged = await outcomeOf(a, 'a-1');
    expect(charged).toMatchObject({ ok: true });
    expect(await outcomeOf(b, 'b-1')).toMatchObject({ ok: true });
    expect(await outcomeOf(c, 'c-1')).toMatchObject({ ok: true });
    expect(postedIds(rig.backend)).toEqual(['a-1']);
    expect(rig.backend.charges()).toHaveLength(1);
    await freeUntilThirtySecondsAfter([a, b, c], charged.settledAt);
  });

  test('while it holds a free period: others are free from it, never beyond its 30 s, though its lock outlives them', async () => {
    const [a, b, c] = await threeTabs();
    await startConsume(a, 'a-1');
    const first = await outcomeOf(a, 'a-1');
    await shows(b, 'in-free-period', 'yes');
    const frozen = await pause(rig.context, a);
    // A tab opened while A is frozen adopts A's period from the lock A holds, and sends nothing.
    const d = await rig.open('?sync=broadcast');
    await shows(d, 'in-free-period', 'yes');
    await startConsume(d, 'd-1');
    expect(await outcomeOf(d, 'd-1')).toMatchObject({ ok: true });
    expect(postedIds(rig.backend)).toEqual(['a-1']);

    // 30 s pass for every tab, A frozen all along: its period's lock is still held, and counts for nothing.
    const by = await advanceTo([b, c, d], first.settledAt + 30_001);
    await frozen.evaluate(`window.__clock.advance(${by})`);
    const freeLocks = await b.evaluate(
      async () => ((await navigator.locks.query()).held ?? []).filter((lock) => lock.name?.includes(':free:')).length,
    );
    expect(freeLocks).toBe(1);
    for (const page of [b, c, d]) expect(await decision(page)).toMatchObject({ reason: 'free_count' });
    await startConsume(c, 'c-2');
    const second = await outcomeOf(c, 'c-2');
    await startConsume(b, 'b-2');
    expect(await outcomeOf(b, 'b-2')).toMatchObject({ ok: true });
    expect(postedIds(rig.backend)).toEqual(['a-1', 'c-2']);

    await frozen.resume();
    // A, resumed, missed C's messages (Chromium drops what a page paused in the debugger is sent), yet
    // its next consume takes the lock, finds C's period there, and sends nothing.
    await startConsume(a, 'a-2');
    expect(await outcomeOf(a, 'a-2')).toMatchObject({ ok: true });
    expect(postedIds(rig.backend)).toEqual(['a-1', 'c-2']);
    await freeUntilThirtySecondsAfter([a, b, c, d], second.settledAt);
    expect(rig.backend.charges()).toHaveLength(2);
  });

  // Known defect (kept from issue 16): Chromium drops the BroadcastChannel messages sent to a page paused in
  // the debugger, and nothing makes a resumed tab fetch again, so it shows the quota of before the pause until
  // its next own fetch (a focus, an interval, a consume's answer). Its consumes stay right (see above). Pinned
  // exactly: the resumed tab still shows 3 free uses where the backend has 2.
  test('a tab resumed after another tab charged still shows the older quota (known defect)', async () => {
    const [a, b] = await threeTabs();
    const frozen = await pause(rig.context, a);
    await startConsume(b, 'b-1');
    expect(await outcomeOf(b, 'b-1')).toMatchObject({ ok: true });
    await shows(b, 'free-remaining', '2');
    await frozen.resume();
    // Two of the page's own 1 s ticks after the resume: anything delivered to it has been handled by then.
    const ticks = await a.evaluate(() => window.__billing.shown.length);
    await a.waitForFunction((before) => window.__billing.shown.length >= before + 2, ticks);
    await shows(a, 'free-remaining', '3', 1_000);
    expect(rig.backend.charges()).toHaveLength(1);
  });
});
