import { parseMessage } from '../../../lib/features/sync/messages';

// A tab's `changed` message may carry the quota its sender shows: a hint, checked as every quota is
// (the wire decoder's and the bootstrap's check), so what a tab accepts no other path refuses.

const QUOTA = { isEnabled: true, freeRemaining: 1, freeTotal: 3, creditsPerUse: 0.5, creditsBalance: 12.5 };

describe('the quota hint of a changed message', () => {
  it('keeps a quota with fractional credits', () => {
    expect(parseMessage({ kind: 'changed', q: QUOTA })).toEqual({ kind: 'changed', q: QUOTA });
  });

  it.each([
    ['a fractional count', { freeRemaining: 0.5 }],
    ['a negative count', { freeTotal: -1 }],
    ['a count past the safe integers', { freeTotal: 2 ** 53 }],
    ['a negative amount', { creditsBalance: -0.5 }],
    ['an infinite amount', { creditsPerUse: Infinity }],
    ['a flag that is not a boolean', { isEnabled: 'yes' }],
  ])('drops %s: the message is then a plain change', (_, patch) => {
    expect(parseMessage({ kind: 'changed', q: { ...QUOTA, ...patch } })).toEqual({ kind: 'changed' });
  });
});
