import crossFetch from 'cross-fetch';
import { createClient, type ClientOptions, type FetchLike } from '../../lib';
import { VirtualClock } from './virtual-clock';
import { Wire } from './wire-log';

/** A wire's fetch and its count of exchanges in flight, body included (see {@link Wire}). */
export function trackingFetch(inner: FetchLike = crossFetch as FetchLike): {
  fetch: FetchLike;
  inFlight: () => number;
} {
  const wire = new Wire(inner);
  return { fetch: wire.fetch, inFlight: () => wire.inFlight() };
}

const tick = () => new Promise((resolve) => setTimeout(resolve, 1));

/**
 * Runs a scenario that mixes real I/O and virtual time: while a request is in
 * flight it waits in real time (up to `patienceMs`, after which the network is
 * taken as stalled); otherwise it moves the virtual clock to the next timer.
 */
export async function drive(
  clock: VirtualClock,
  inFlight: () => number,
  done: () => boolean,
  { patienceMs = 300, maxSteps = 500 } = {},
): Promise<void> {
  const turns = async () => {
    for (let i = 0; i < 5; i++) await new Promise((resolve) => setImmediate(resolve));
  };
  for (let step = 0; step < maxSteps && !done(); step++) {
    // Work already due (header resolution, a retry's new fetch) starts first.
    await turns();
    const waitedSince = Date.now();
    while (inFlight() > 0 && !done() && Date.now() - waitedSince < patienceMs) await tick();
    await turns();
    if (done()) return;
    const next = clock.nextDue();
    if (next === undefined) {
      if (inFlight() === 0) return;
      continue;
    }
    clock.advanceBy(Math.max(0, next - clock.now()));
  }
}

/** Settles a promise under {@link drive}; rejects if it never settles. */
export async function driven<T>(
  clock: VirtualClock,
  inFlight: () => number,
  promise: Promise<T>,
  options?: Parameters<typeof drive>[3],
): Promise<T> {
  let settled = false;
  const watched = promise.finally(() => (settled = true));
  watched.catch(() => undefined);
  await drive(clock, inFlight, () => settled, options);
  if (!settled) throw new Error('the scenario never settled');
  return watched;
}

/**
 * A client (app key `poster` unless given) on virtual time whose requests go
 * through a {@link Wire} over `transport`; `run` settles a promise under
 * {@link drive}, waiting up to `patienceMs` of real time for the network.
 */
export function drivenClient(
  transport: FetchLike,
  options: Partial<ClientOptions> & Pick<ClientOptions, 'baseUrl'>,
  patienceMs?: number,
) {
  const clock = new VirtualClock();
  const wire = new Wire(transport, clock);
  const client = createClient({ appKey: 'poster', scheduler: clock, fetch: wire.fetch, ...options });
  const run = <T>(promise: Promise<T>) => driven(clock, () => wire.inFlight(), promise, { patienceMs });
  return { client, clock, wire, run };
}
