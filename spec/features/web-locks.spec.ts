import { holdLock } from '../../lib/features/web-locks';
import { FakeLocks } from '../helpers/fake-locks';
import { settle } from '../helpers/virtual-clock';

// holdLock's `ifAvailable` ask, which the report marks take before a replay (seed 1693953956): of two
// pages asking at once one gets the lock, the other a `false` at once, holding and waiting for nothing.
describe('holdLock(…, { ifAvailable: true })', () => {
  it('is granted when the lock is free, and held until released', async () => {
    const locks = new FakeLocks();
    const mark = holdLock(locks.forTab(1), 'mark', { ifAvailable: true });
    await expect(mark.granted).resolves.toBe(true);
    expect(locks.ownedBy(1)).toEqual({ held: ['mark'], pending: [] });
    mark.release();
    await settle();
    expect(locks.heldNames()).toEqual([]);
  });

  it('of two pages asking in the same instant, one gets it; the other gets false and holds or waits for nothing', async () => {
    const locks = new FakeLocks();
    const [first, second] = [1, 2].map((tab) => holdLock(locks.forTab(tab), 'mark', { ifAvailable: true }));
    expect(await Promise.all([first?.granted, second?.granted])).toEqual([true, false]);
    expect(locks.ownedBy(2)).toEqual({ held: [], pending: [] });
    // Releasing the one refused changes nothing; the holder keeps it until it lets go.
    second?.release();
    await settle();
    expect(locks.heldNames()).toEqual(['mark']);
    first?.release();
    await settle();
    expect(locks.heldNames()).toEqual([]);
  });

  it('a lock manager that throws grants nothing', async () => {
    const locks = new FakeLocks({ requestThrows: true });
    await expect(holdLock(locks.forTab(1), 'mark', { ifAvailable: true }).granted).resolves.toBe(false);
    expect(locks.heldNames()).toEqual([]);
  });
});
