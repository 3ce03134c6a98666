import { measureEconomy, SESSIONS, type EconomyRow } from '../../bench/economy/sessions';
import { minimumRequests, spreadTimes } from '../../bench/economy/minimum';

describe('request economy (counts, not timings)', () => {
  let rows: EconomyRow[];
  beforeAll(async () => {
    rows = await measureEconomy();
  });

  it('runs every scripted session', () => {
    expect(rows.map((row) => row.session)).toEqual(SESSIONS.map((session) => session.name));
  });

  it.each(SESSIONS.map((session) => session.name))(
    '%s: the backend gets exactly the minimum the spec allows',
    (name) => {
      const row = rows.find((candidate) => candidate.session === name);
      expect(row).toBeDefined();
      expect({ requests: row?.requests }).toEqual({ requests: row?.minimum });
    },
  );

  it('the sessions cover a free period, the credits refresh and insufficient consumes', () => {
    const byName = (fragment: string) => rows.find((row) => row.session.includes(fragment));
    expect(byName('cold start')).toMatchObject({ gets: 2, posts: 1 });
    expect(byName('concurrent')).toMatchObject({ gets: 2, posts: 0 });
    expect(byName('burst')).toMatchObject({ gets: 0, posts: 1 });
    // Credits: one balance GET per charged POST, after the two of getUsage().
    const credits = byName('credits');
    expect(credits && credits.gets - 2).toBe(credits?.posts);
    // Mixed ends insufficient, where every consume outside a free period asks the backend.
    const mixed = byName('mixed');
    expect(mixed && mixed.posts).toBeGreaterThan(15);
  });
});

describe('the spec model the minimum comes from', () => {
  const quota = { freeRemaining: 1, creditsPerUse: 2, creditsBalance: 2 };

  it('counts a free charge, a credits charge with its refresh, then refusals with theirs', () => {
    expect(minimumRequests({ getUsageCalls: 3, consumesAt: [0, 29_999, 30_000, 60_000, 60_001], quota })).toBe(
      2 + 1 + 0 + 2 + 2 + 2,
    );
  });

  it('spreads the same times on every run', () => {
    expect(spreadTimes(5, 1_000)).toEqual(spreadTimes(5, 1_000));
    expect(
      spreadTimes(100, 600_000).every((t, i, all) => t >= 0 && t < 600_000 && (i === 0 || t >= (all[i - 1] ?? 0))),
    ).toBe(true);
  });
});
