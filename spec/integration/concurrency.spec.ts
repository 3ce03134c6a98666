import { from } from 'rxjs';
import { toArray } from 'rxjs/operators';
import { consumeWith } from '../../lib';
import { clientFor, externalIds, liveClient, PATHS, useBackend } from './harness';

const backend = useBackend();
const chargesOf = (token: string) =>
  backend()
    .charges()
    .filter((c) => c.token === token);

describe('over real HTTP: concurrent calls', () => {
  test('two consumes at once (a double click) are one POST and one charge', async () => {
    const live = liveClient(backend(), { freeRemaining: 3, freeTotal: 3 });
    const { billing } = live.client;
    await live.run(billing.getUsage());
    const results = await live.run(Promise.all([billing.consume(), billing.consume()]));
    expect(results).toEqual([
      { freeRemaining: 2, isCredit: false, isBlacklisted: false },
      { freeRemaining: 2, isCredit: false, isBlacklisted: false },
    ]);
    expect(live.requests(PATHS.consume)).toHaveLength(1);
    expect(chargesOf(live.user.token)).toHaveLength(1);
  });

  test('a burst of five events through consumeWith is one charge', async () => {
    const live = liveClient(backend(), { freeRemaining: 3, freeTotal: 3 });
    const outcomes = await live.run(
      new Promise<unknown[]>((resolve, reject) =>
        from([1, 2, 3, 4, 5])
          .pipe(consumeWith(live.client.billing), toArray())
          .subscribe({ next: resolve, error: reject }),
      ),
    );
    expect(outcomes).toHaveLength(5);
    expect(outcomes.every((outcome) => (outcome as { ok: boolean }).ok)).toBe(true);
    expect(chargesOf(live.user.token)).toHaveLength(1);
  });

  test('concurrent getUsage calls share one pair of GETs', async () => {
    const live = liveClient(backend());
    const { billing } = live.client;
    const [a, b, c] = await live.run(Promise.all([billing.getUsage(), billing.getUsage(), billing.getUsage()]));
    expect(a).toEqual(b);
    expect(b).toEqual(c);
    expect(live.requests(PATHS.count)).toHaveLength(1);
    expect(live.requests(PATHS.balance)).toHaveLength(1);
  });

  test('the same externalId from two tabs charges once and both get the first answer', async () => {
    const first = liveClient(backend(), { freeRemaining: 3, freeTotal: 3 });
    const second = clientFor(backend(), first.user);
    const a = await first.run(first.client.billing.consume({ externalId: 'export-doc-7' }));
    const b = await second.run(second.client.billing.consume({ externalId: 'export-doc-7' }));
    expect(a).toEqual({ freeRemaining: 2, isCredit: false, isBlacklisted: false });
    expect(b).toEqual(a);
    expect(externalIds(first.requests(PATHS.consume))).toEqual(['export-doc-7', 'export-doc-7']);
    expect(chargesOf(first.user.token)).toHaveLength(1);
  });

  test('two tabs consuming at once on the last credits: one charge, one insufficient', async () => {
    const first = liveClient(backend(), { freeRemaining: 0, creditsPerUse: 10, creditsBalance: 10 });
    const second = clientFor(backend(), first.user);
    const settled = await Promise.allSettled([
      first.run(first.client.billing.consume()),
      second.run(second.client.billing.consume()),
    ]);
    expect(settled.map((s) => s.status).sort()).toEqual(['fulfilled', 'rejected']);
    expect(chargesOf(first.user.token)).toHaveLength(1);
    expect(backend().getUser(first.user.token).creditsBalance).toBe(0);
  });
});
