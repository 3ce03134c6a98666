import fc from 'fast-check';
import { ReferenceState } from '../../../lib/testing/backend/reference-state';
import type { ReferenceUser } from '../../../lib/testing';

const base: ReferenceUser = { token: 't', freeRemaining: 1, freeTotal: 1, creditsPerUse: 5, creditsBalance: 12 };
const M = 'generator_demo';

describe('ReferenceState (no I/O)', () => {
  test('free, then credits, then 20101', () => {
    const state = new ReferenceState([base]);
    expect(state.consume('t', M, 'a')).toEqual({
      code: 0,
      message: 'ok',
      data: { free_remaining: 0, is_credit: false },
    });
    expect(state.consume('t', M, 'b').data).toEqual({ free_remaining: 0, is_credit: true });
    expect(state.consume('t', M, 'c').data).toEqual({ free_remaining: 0, is_credit: true });
    expect(state.consume('t', M, 'd')).toEqual({ code: 20101, message: expect.any(String), data: null });
    expect(state.snapshot('t').creditsBalance).toBe(2);
  });

  test('a replayed answer is a copy: mutating it does not change the record', () => {
    const state = new ReferenceState([base]);
    const first = state.consume('t', M, 'a');
    (first.data as Record<string, unknown>)['free_remaining'] = 99;
    expect(state.consume('t', M, 'a').data).toEqual({ free_remaining: 0, is_credit: false });
  });

  test('a snapshot of an unseen module does not initialise it', () => {
    const state = new ReferenceState([base]);
    expect(state.snapshot('t', 'generator_other')).toMatchObject({ freeRemaining: 1, freeTotal: 1, modules: {} });
    expect(state.snapshot('t').modules).toEqual({});
  });

  test('reset forgets charges, modules and idempotency records', () => {
    const state = new ReferenceState([base]);
    state.consume('t', M, 'a');
    state.reset();
    expect(state.charges()).toEqual([]);
    expect(state.snapshot('t').modules).toEqual({});
    expect(state.consume('t', M, 'a').data).toEqual({ free_remaining: 0, is_credit: false });
    expect(state.charges()).toHaveLength(1);
  });

  test('property: any interleaving keeps balances and quotas >= 0 and charges each id once', () => {
    const op = fc.oneof(
      fc.record({
        kind: fc.constant('consume' as const),
        id: fc.integer({ min: 0, max: 8 }),
        module: fc.constantFrom(M, 'generator_b'),
      }),
      fc.record({ kind: fc.constant('topUp' as const), amount: fc.double({ min: 0, max: 20, noNaN: true }) }),
      fc.record({ kind: fc.constant('blacklist' as const), on: fc.boolean() }),
    );
    fc.assert(
      fc.property(
        fc.double({ min: 0, max: 10, noNaN: true }),
        fc.double({ min: 0, max: 30, noNaN: true }),
        fc.integer({ min: 0, max: 3 }),
        fc.array(op, { maxLength: 40 }),
        (price, balance, free, ops) => {
          const state = new ReferenceState([
            { token: 't', freeRemaining: free, freeTotal: free, creditsPerUse: price, creditsBalance: balance },
          ]);
          let credited = balance;
          for (const o of ops) {
            if (o.kind === 'consume') state.consume('t', o.module, `id-${o.id}`);
            if (o.kind === 'topUp') {
              const now = state.snapshot('t').creditsBalance + o.amount;
              credited += o.amount;
              state.setUser('t', { creditsBalance: now });
            }
            if (o.kind === 'blacklist') state.setUser('t', { blacklisted: o.on });
            const snap = state.snapshot('t');
            expect(snap.creditsBalance).toBeGreaterThanOrEqual(0);
            for (const q of Object.values(snap.modules)) expect(q.freeRemaining).toBeGreaterThanOrEqual(0);
          }
          const charges = state.charges();
          expect(new Set(charges.map((c) => c.externalId)).size).toBe(charges.length);
          const spent = charges.filter((c) => c.kind === 'credits').reduce((sum, c) => sum + c.amount, 0);
          expect(state.snapshot('t').creditsBalance).toBeCloseTo(credited - spent, 6);
        },
      ),
    );
  });
});
