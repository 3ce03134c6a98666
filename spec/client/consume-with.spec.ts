import { Subject } from 'rxjs';
import { consumeWith, type ConsumeOutcome } from '../../lib/consume-with';
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
});
