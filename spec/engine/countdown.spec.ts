import { cleanup, fixture } from '../helpers/client-fixture';
import { BrowserTimers } from './browser-timers';

afterEach(cleanup);

const gaps = (values: readonly number[]) => values.slice(1).map((value, i) => values[i]! - value);

describe('freePeriodRemaining$ emits once a second, never skipping a value', () => {
  it.each([
    ['from the charge', 1_000_000.6, 0],
    ['for a subscriber that starts mid-period', 1_000_000.6, 1_400.5],
    ['for a subscriber that starts just after a boundary', 1_000_000.25, 2_000.1],
    ['on a clock with an integer origin and a late subscriber', 1_000_000, 12_999.9],
  ])('%s, under timers that truncate fractional delays and fire late', async (_label, start, joinAfter) => {
    const clock = new BrowserTimers(start);
    const { client } = fixture({}, { scheduler: clock });
    await client.billing.consume();
    clock.advanceBy(joinAfter);
    const seen: Array<[number, number]> = [];
    client.billing.freePeriodRemaining$.subscribe((value) => seen.push([clock.now(), value]));
    clock.advanceBy(31_000);
    const values = seen.map(([, value]) => value);
    expect(values[0]).toBe(Math.ceil((30_000 - joinAfter) / 1000));
    expect(values.at(-1)).toBe(0);
    expect(gaps(values)).toEqual(values.slice(1).map(() => 1));
    // Each value is shown while it is true: n seconds left means more than n - 1 remain.
    const end = start + 30_000;
    for (const [at, value] of seen) expect([at, Math.max(0, Math.ceil((end - at) / 1000))]).toEqual([at, value]);
  });
});
