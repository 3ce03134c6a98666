import { Subject } from 'rxjs';
import { consumeWith } from '../../lib/rx/consume-with';
import type { ConsumeOutcome } from '../../lib/shared/types';
import { cleanup, fixture, PATH } from '../helpers/client-fixture';
import { settle } from '../helpers/virtual-clock';

afterEach(cleanup);

describe('consumeWith()', () => {
  it('a burst of 10 clicks is one charge, one outcome per click, in order', async () => {
    const { client, backend } = fixture();
    const clicks = new Subject<number>();
    const outcomes: ConsumeOutcome[] = [];
    clicks.pipe(consumeWith(client.billing)).subscribe((o) => outcomes.push(o));
    for (let i = 0; i < 10; i++) clicks.next(i);
    await settle(20);
    expect(outcomes).toHaveLength(10);
    expect(outcomes.every((o) => o.ok)).toBe(true);
    expect(backend.count(PATH.consume)).toBe(1);
    expect(backend.charged).toHaveLength(1);
  });

  it('a failure is a value, and the stream goes on', async () => {
    const { client, backend } = fixture({ freeRemaining: 0, balance: 0 });
    const clicks = new Subject<string>();
    const outcomes: ConsumeOutcome[] = [];
    clicks.pipe(consumeWith(client.billing, (id) => ({ externalId: id }))).subscribe((o) => outcomes.push(o));
    clicks.next('a');
    await settle(20);
    backend.quota.balance = 10;
    clicks.next('b');
    await settle(20);
    expect(outcomes.map((o) => (o.ok ? 'ok' : o.error.code))).toEqual(['insufficient_credits', 'ok']);
    expect(backend.charged).toEqual(['b']);
  });

  it('optionsFor throwing is a failure value, and later events are still consumed', async () => {
    const { client, backend } = fixture();
    const clicks = new Subject<string>();
    const outcomes: ConsumeOutcome[] = [];
    let completed = false;
    const optionsFor = (id: string) => {
      if (id === 'bad') throw new TypeError('no document open');
      return { externalId: id };
    };
    clicks.pipe(consumeWith(client.billing, optionsFor)).subscribe({
      next: (o) => outcomes.push(o),
      complete: () => (completed = true),
    });
    clicks.next('bad');
    await settle(20);
    clicks.next('b');
    await settle(20);
    expect(completed).toBe(false);
    expect(outcomes).toEqual([
      { ok: false, error: expect.objectContaining({ name: 'BillingError', code: 'invalid_argument' }) },
      { ok: true, result: expect.objectContaining({ isCredit: false }) },
    ]);
    const failure = outcomes[0] as Extract<ConsumeOutcome, { ok: false }>;
    expect(failure.error.message).toMatch(/optionsFor threw \(TypeError\)/);
    expect(failure.error.cause).toBeInstanceOf(TypeError);
    expect(backend.charged).toEqual(['b']);
  });
});
