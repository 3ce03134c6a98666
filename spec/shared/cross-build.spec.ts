import { firstValueFrom, of, toArray } from 'rxjs';
import type * as Library from '../../lib/index';
import { UserBackend } from '../helpers/client-fixture';
import { settle, VirtualClock } from '../helpers/virtual-clock';

// Two copies of the library, as in an app that loads both the ESM and the CJS build.
function loadCopy(): typeof Library {
  let copy: typeof Library | undefined;
  jest.isolateModules(() => {
    copy = jest.requireActual<typeof Library>('../../lib/index');
  });
  if (copy === undefined) throw new Error('the module did not load');
  return copy;
}

const esm = loadCopy();
const cjs = loadCopy();

describe('errors are recognised across two builds in one app', () => {
  it('the two copies really are distinct classes', () => {
    expect(esm.BillingError).not.toBe(cjs.BillingError);
  });

  it("isBillingError of one build accepts the other build's error, code included", () => {
    const error = new cjs.BillingError('insufficient_credits', 'Not enough credits');
    expect(esm.isBillingError(error)).toBe(true);
    expect(esm.isBillingError(error, 'insufficient_credits')).toBe(true);
    expect(esm.isBillingError(error, 'network')).toBe(false);
  });

  it("instanceof BillingError of one build accepts the other build's error", () => {
    expect(new cjs.BillingError('disposed', 'x')).toBeInstanceOf(esm.BillingError);
    expect(new esm.BillingError('disposed', 'x')).toBeInstanceOf(cjs.BillingError);
    expect(new esm.BillingError('disposed', 'x').withExternalId('e-1')).toBeInstanceOf(cjs.BillingError);
  });

  it('look-alikes without the brand are not billing errors', () => {
    const fake = Object.assign(new Error('x'), { name: 'BillingError', code: 'network' });
    expect(esm.isBillingError(fake)).toBe(false);
    expect(fake instanceof esm.BillingError).toBe(false);
    expect(esm.isBillingError(null)).toBe(false);
    expect(esm.isBillingError('insufficient_credits')).toBe(false);
    expect(new Error('x') instanceof esm.BillingError).toBe(false);
  });

  it("consumeWith of one build reports the other build's insufficient_credits as such", async () => {
    const backend = new UserBackend({ freeRemaining: 0, balance: 0 });
    const client = cjs.createClient({
      baseUrl: 'http://billing.test',
      appKey: 'poster',
      fetch: backend.fetch,
      scheduler: new VirtualClock(),
    });
    try {
      const outcomes = firstValueFrom(
        of('a').pipe(
          esm.consumeWith(client.billing, (id) => ({ externalId: id })),
          toArray(),
        ),
      );
      await settle(20);
      const [outcome] = await outcomes;
      expect(outcome).toEqual({ ok: false, error: expect.objectContaining({ code: 'insufficient_credits' }) });
      if (outcome?.ok !== false) throw new Error('expected a failure');
      expect(esm.isBillingError(outcome.error, 'insufficient_credits')).toBe(true);
      expect(outcome.error.externalId).toBe('a');
    } finally {
      client.billing.dispose();
    }
  });
});
