import { BillingError, type BillingErrorCode } from '../../lib/errors';
import {
  initialStatus,
  nextStatus,
  type BillingStatus,
  type StatusSignal,
  type StatusState,
} from '../../lib/status/billing-status';

const fail = (code: BillingErrorCode) => new BillingError(code, `${code} failure`);
const fold = (signals: StatusSignal[], from: StatusState = initialStatus): StatusState =>
  signals.reduce(nextStatus, from);
// The views a status$ would emit: one per change, none for a signal that changes nothing.
function emitted(signals: StatusSignal[]): BillingStatus[] {
  const views = [initialStatus.view];
  let state = initialStatus;
  for (const signal of signals) {
    state = nextStatus(state, signal);
    if (state.view !== views[views.length - 1]) views.push(state.view);
  }
  return views;
}
const status = (patch: Partial<BillingStatus>): BillingStatus => ({ ...initialStatus.view, ...patch });

describe('nextStatus', () => {
  it('goes through a whole cycle: loading, ready, pending during a consume, error then cleared', () => {
    const network = fail('network');
    expect(
      emitted([
        { kind: 'usage/started' },
        { kind: 'usage', error: null, at: 100 },
        { kind: 'consume/sent' },
        { kind: 'consume/answered' },
        { kind: 'consume', error: null },
        { kind: 'consume/sent' },
        { kind: 'consume/answered' },
        { kind: 'consume', error: network },
        { kind: 'consume', error: null }, // a free-period consume: the consume call succeeded again
      ]),
    ).toEqual([
      status({}),
      status({ loading: true }),
      status({ loaded: true, fetchedAt: 100 }),
      status({ loaded: true, fetchedAt: 100, pending: 1 }),
      status({ loaded: true, fetchedAt: 100 }),
      status({ loaded: true, fetchedAt: 100, pending: 1 }),
      status({ loaded: true, fetchedAt: 100 }),
      status({ loaded: true, fetchedAt: 100, error: network }),
      status({ loaded: true, fetchedAt: 100 }),
    ]);
  });

  it('clears an error only on the success of the call that failed, and shows the last failure', () => {
    const usage = fail('timeout');
    const consume = fail('backend');
    let state = fold([{ kind: 'usage/started' }, { kind: 'usage', error: usage }]);
    expect(state.view).toEqual(status({ error: usage }));
    state = fold(
      [
        { kind: 'consume', error: null },
        { kind: 'refresh', error: null },
      ],
      state,
    );
    expect(state.view.error).toBe(usage);
    state = nextStatus(state, { kind: 'consume', error: consume });
    expect(state.view.error).toBe(consume);
    state = fold([{ kind: 'usage/started' }, { kind: 'usage', error: null, at: 5 }], state);
    expect(state.view.error).toBe(consume); // the usage success does not clear the consume's failure
    expect(nextStatus(state, { kind: 'consume', error: null }).view.error).toBeNull();
  });

  it('a usage answer, which carries the balance, clears a failed refresh; a refresh does not clear a failed usage', () => {
    const refresh = fail('http');
    const state = fold([{ kind: 'refresh', error: refresh }]);
    expect(state.view.error).toBe(refresh);
    expect(fold([{ kind: 'usage/started' }, { kind: 'usage', error: null, at: 1 }], state).view.error).toBeNull();
    const usage = fold([{ kind: 'usage/started' }, { kind: 'usage', error: fail('network') }]);
    expect(nextStatus(usage, { kind: 'refresh', error: null }).view.error).not.toBeNull();
  });

  it('stays loading while any usage fetch is in flight', () => {
    let state = fold([{ kind: 'usage/started' }, { kind: 'usage/started' }, { kind: 'usage', error: null, at: 7 }]);
    expect(state.view).toEqual(status({ loading: true, loaded: true, fetchedAt: 7 }));
    state = nextStatus(state, { kind: 'usage', error: fail('network') });
    expect(state.view.loading).toBe(false);
    expect(state.view.loaded).toBe(true); // the cache stays
  });

  it('counts each consume sent until it is answered, never below 0', () => {
    const state = fold([{ kind: 'consume/sent' }, { kind: 'consume/sent' }, { kind: 'consume/answered' }]);
    expect(state.view.pending).toBe(1);
    expect(fold([{ kind: 'consume/answered' }, { kind: 'consume/answered' }], state).view.pending).toBe(0);
  });

  it('a usage answer fetched elsewhere (another tab) loads without ending a fetch of ours', () => {
    const state = fold([{ kind: 'usage/started' }, { kind: 'usage/cached', at: 9 }]);
    expect(state.view).toEqual(status({ loading: true, loaded: true, fetchedAt: 9 }));
  });

  it.each<BillingErrorCode>(['aborted', 'disposed'])(
    'a consume the caller ended (%s) is no error and keeps the last one',
    (code) => {
      const refresh = fail('network');
      const state = fold([{ kind: 'refresh', error: refresh }]);
      expect(nextStatus(state, { kind: 'consume', error: fail(code) })).toBe(state);
    },
  );

  it('invalid_argument (the headers option failed) is an error: a refetch has no caller to tell', () => {
    const headers = fail('invalid_argument');
    const state = fold([{ kind: 'usage/started' }, { kind: 'usage', error: headers }]);
    expect(state.view).toMatchObject({ loading: false, error: headers });
  });

  it('insufficient_credits is an answer, so it clears a failed consume and shows no error', () => {
    const state = fold([{ kind: 'consume', error: fail('timeout') }]);
    expect(nextStatus(state, { kind: 'consume', error: fail('insufficient_credits') }).view.error).toBeNull();
    expect(nextStatus(initialStatus, { kind: 'consume', error: fail('insufficient_credits') })).toBe(initialStatus);
  });

  it('returns the same state and view when nothing changes, and frozen views otherwise', () => {
    const idle: StatusSignal[] = [
      { kind: 'consume', error: null },
      { kind: 'refresh', error: null },
    ];
    for (const signal of [...idle, { kind: 'consume/answered' } as const]) {
      expect(nextStatus(initialStatus, signal)).toBe(initialStatus);
    }
    const loading = nextStatus(initialStatus, { kind: 'usage/started' });
    const twice = nextStatus(loading, { kind: 'usage/started' });
    expect(twice).not.toBe(loading); // two fetches now
    expect(twice.view).toBe(loading.view); // but nothing a user sees changed
    expect(Object.isFrozen(loading.view)).toBe(true);
    expect(Object.isFrozen(initialStatus.view)).toBe(true);
  });
});
