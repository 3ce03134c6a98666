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
async function freeUntilThirtySecondsAfter(
  pages: readonly Page[],
  settledAt: number,
  after = 'free_count',
): Promise<void> {
  const reasons = async () => {
    const seen: Array<string | null> = [];
    for (const page of pages) seen.push((await decision(page)).reason);
    return seen;
  };
  await advanceTo(pages, settledAt + 25_000);
  expect(await reasons()).toEqual(pages.map(() => 'free_period'));
  await advanceTo(pages, settledAt + 30_001);
  expect(await reasons()).toEqual(pages.map(() => after));
}

describe('the tab holding the consume lock is closed mid-charge', () => {
  // Issue 23 point 6: A announced its POST (`sending`) and its page lock went with it, so the next holder of
  // the consume lock sends a-1 again before deciding (the backend's idempotency makes it one charge); its
  // answer starts the free period both clicks are free in. B or C, whichever got the lock first, re-sends;
  // the other may too if it got the lock before the first one's `sent` reached it (answered from the record).
  test('its POST held at the backend (never applied): the next holder sends it again, one charge, each living caller free', async () => {
    const [a, b, c] = await threeTabs();
    rig.backend.failNext(REFERENCE_PATHS.consume, 1, { kind: 'stall' });
    await aHoldsTheLock(a, b, c);
    await a.close();
    expect(await outcomeOf(b, 'b-1')).toMatchObject({ ok: true });
    expect(await outcomeOf(c, 'c-1')).toMatchObject({ ok: true });
    expect(rig.backend.charges().map((charge) => charge.externalId)).toEqual(['a-1']);
    // The stalled POST's body is never read, so only the re-sends name a-1; b-1 and c-1 never went out.
    expect(postedIds(rig.backend)).toContain('a-1');
    expect(posted('b-1') || posted('c-1')).toBe(false);
    await shows(b, 'free-remaining', '2');
    await shows(c, 'free-remaining', '2');
  });

  test('its answer held (the backend charged): the next holder sends it again, one charge, both clicks free in its period', async () => {
    const [a, b, c] = await threeTabs();
    const held = await holdConsumeAnswers(a);
    await aHoldsTheLock(a, b, c);
    await held.answered;
    await a.close();
    const outcomes = [await outcomeOf(b, 'b-1'), await outcomeOf(c, 'c-1')];
    for (const outcome of outcomes) expect(outcome).toMatchObject({ ok: true });
    // A's charge only: a-1 sent again (the backend answered it from its record), b-1 and c-1 never.
    expect(rig.backend.charges().map((charge) => charge.externalId)).toEqual(['a-1']);
    expect(postedIds(rig.backend)[0]).toBe('a-1');
    expect(postedIds(rig.backend).filter((id) => id !== 'a-1')).toEqual([]);
    expect(posted('b-1') || posted('c-1')).toBe(false);
    await shows(b, 'free-remaining', '2');
    await shows(c, 'free-remaining', '2');
    // The period the re-send started is an ordinary one: 30 s from its answer, which came before either
    // surviving click settled.
    await freeUntilThirtySecondsAfter([b, c], Math.max(...outcomes.map((outcome) => outcome.settledAt)));
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

  test('while it holds a free period: others are free from it, never beyond its 30 s; a tab opened meanwhile is not told', async () => {
    const [a, b, c] = await threeTabs();
    await startConsume(a, 'a-1');
    const first = await outcomeOf(a, 'a-1');
    await shows(b, 'in-free-period', 'yes');
    const frozen = await pause(rig.context, a);
    // A tab opened while A is frozen asks, and the only one who could tell it A's period cannot answer (issue 30:
    // the owner's message is the one way a tab learns a period): its click is its own operation, charged once.
    const d = await rig.open('?sync=broadcast');
    await shows(d, 'in-free-period', 'no');
    await startConsume(d, 'd-1');
    const charged = await outcomeOf(d, 'd-1');
    expect(charged).toMatchObject({ ok: true });
    expect(postedIds(rig.backend)).toEqual(['a-1', 'd-1']);
    for (const page of [b, c]) expect(await decision(page)).toMatchObject({ reason: 'free_period' });

    // 30 s pass for every tab after both periods, A frozen all along: its period's lock, still held, counts for nothing.
    const by = await advanceTo([b, c, d], Math.max(first.settledAt, charged.settledAt) + 30_001);
    await frozen.evaluate(`window.__clock.advance(${by})`);
    await startConsume(c, 'c-2');
    const second = await outcomeOf(c, 'c-2');
    await startConsume(b, 'b-2');
    expect(await outcomeOf(b, 'b-2')).toMatchObject({ ok: true });
    expect(postedIds(rig.backend)).toEqual(['a-1', 'd-1', 'c-2']);

    await frozen.resume();
    // A, resumed, missed C's messages (Chromium drops what a page paused in the debugger is sent), yet
    // its next consume takes the lock, finds C's period there, and sends nothing.
    await startConsume(a, 'a-2');
    expect(await outcomeOf(a, 'a-2')).toMatchObject({ ok: true });
    expect(postedIds(rig.backend)).toEqual(['a-1', 'd-1', 'c-2']);
    // Three charges spent the three free uses: after C's period no page is free (A, which missed C's nudge, still
    // shows a free use: the known defect below).
    await freeUntilThirtySecondsAfter([a, b, c, d], second.settledAt, expect.not.stringMatching(/^free_period$/));
    expect(rig.backend.charges()).toHaveLength(3);
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
