import {
  createReferenceBackend,
  REFERENCE_CHANGES_PATH,
  REFERENCE_COOKIES,
  REFERENCE_PATHS,
  startReferenceBackend,
  type ReferenceBackend,
  type ReferenceChange,
  type ReferenceUser,
} from '../../lib/testing';
import { until } from '../helpers/waiting';

// Issue 32: the reference backend tells each user's changes (a top-up, a charge), in process
// through `changes(token)` and over HTTP as a `text/event-stream`.

const alice: ReferenceUser = { token: 'alice', freeRemaining: 0, freeTotal: 3, creditsPerUse: 10, creditsBalance: 50 };
const bob: ReferenceUser = { ...alice, token: 'bob' };
const consumeInit = (externalId: string, cookie?: string): RequestInit => ({
  method: 'POST',
  headers: {
    Authorization: 'Bearer alice',
    'Content-Type': 'application/json',
    ...(cookie === undefined ? {} : { Cookie: cookie }),
  },
  body: JSON.stringify({ module: 'generator_demo', external_id: externalId }),
});

describe('the reference backend tells its changes in process', () => {
  it('a top-up and a charge are told to that user’s listeners only; setUser() tells nothing', async () => {
    const backend = createReferenceBackend({ users: [alice, bob] });
    const heard: ReferenceChange[] = [];
    const others: ReferenceChange[] = [];
    const subscription = backend.changes('alice').subscribe((change) => heard.push(change));
    backend.changes('bob').subscribe((change) => others.push(change));
    expect(backend.changeListeners('alice')).toBe(1);
    expect(backend.topUp('alice', 25)).toBe(75);
    await backend.fetch(`http://billing.test${REFERENCE_PATHS.consume}`, consumeInit('op-1'));
    await backend.fetch(`http://billing.test${REFERENCE_PATHS.consume}`, consumeInit('op-2', 'billing_device=phone'));
    await backend.fetch(`http://billing.test${REFERENCE_PATHS.consume}`, consumeInit('op-1')); // a replay: no change
    backend.setUser('alice', { creditsBalance: 5 });
    expect(heard).toEqual([{ kind: 'top-up' }, { kind: 'charge' }, { kind: 'charge', device: 'phone' }]);
    expect(others).toEqual([]);
    expect(backend.getUser('alice').creditsBalance).toBe(5);
    subscription.unsubscribe();
    expect(backend.changeListeners('alice')).toBe(0);
  });

  it('refuses an unknown user and a top-up that is not a positive amount', () => {
    const backend = createReferenceBackend({ users: [alice] });
    expect(() => backend.changes('nobody')).toThrow('no user with this token');
    expect(() => backend.topUp('nobody', 5)).toThrow('no user with this token');
    for (const credits of [0, -1, NaN, Infinity]) expect(() => backend.topUp('alice', credits)).toThrow(TypeError);
    expect(backend.getUser('alice').creditsBalance).toBe(50);
  });
});

describe('the reference backend’s event stream over HTTP', () => {
  let backend: ReferenceBackend;
  const streams: AbortController[] = [];
  beforeEach(async () => {
    backend = await startReferenceBackend({ users: [alice] });
  });
  afterEach(async () => {
    streams.splice(0).forEach((controller) => controller.abort());
    await backend.close();
  });

  /** Opens the stream with `headers`; `text()` is everything received so far. */
  async function open(headers: Record<string, string>) {
    const controller = new AbortController();
    streams.push(controller);
    const response = await fetch(`${backend.url}${REFERENCE_CHANGES_PATH}`, { headers, signal: controller.signal });
    let text = '';
    if (response.status === 200) {
      const reader = response.body!.pipeThrough(new TextDecoderStream()).getReader();
      void (async () => {
        for (;;) {
          const { value, done } = await reader.read().catch(() => ({ value: undefined, done: true }));
          if (done) return;
          text += value;
        }
      })();
    }
    return { response, controller, text: () => text };
  }

  it('sends each change as a `changed` event to the bearer of the header or of the token cookie', async () => {
    const byHeader = await open({ Authorization: 'Bearer alice' });
    const byCookie = await open({ Cookie: `theme=dark; ${REFERENCE_COOKIES.token}=alice` });
    expect(byHeader.response.headers.get('content-type')).toMatch(/^text\/event-stream/);
    await until(() => backend.changeListeners('alice') === 2, 'both streams open');
    backend.topUp('alice', 10);
    await fetch(`${backend.url}${REFERENCE_PATHS.consume}`, consumeInit('op-1'));
    for (const stream of [byHeader, byCookie]) {
      await until(() => stream.text().includes('data: charge'), 'the charge');
      expect(stream.text()).toBe(': connected\n\nevent: changed\ndata: top-up\n\nevent: changed\ndata: charge\n\n');
    }
    // Not one of the three calls: the log does not hold it.
    expect(backend.requests().map((r) => r.path)).toEqual([REFERENCE_PATHS.consume]);
  });

  it('a charge made with a device cookie is not sent to that device’s stream', async () => {
    const phone = await open({ Cookie: `${REFERENCE_COOKIES.token}=alice; ${REFERENCE_COOKIES.device}=phone` });
    const laptop = await open({ Cookie: `${REFERENCE_COOKIES.token}=alice; ${REFERENCE_COOKIES.device}=laptop` });
    await until(() => backend.changeListeners('alice') === 2, 'both streams open');
    await fetch(`${backend.url}${REFERENCE_PATHS.consume}`, consumeInit('op-1', `${REFERENCE_COOKIES.device}=phone`));
    backend.topUp('alice', 10);
    await until(() => phone.text().includes('top-up') && laptop.text().includes('top-up'), 'the top-up');
    expect(phone.text()).not.toContain('charge');
    expect(laptop.text()).toContain('data: charge\n\nevent: changed\ndata: top-up');
  });

  it('answers 401 without a known token, and the server sees a closed stream end', async () => {
    expect((await open({})).response.status).toBe(401);
    expect((await open({ Cookie: `${REFERENCE_COOKIES.token}=mallory` })).response.status).toBe(401);
    const stream = await open({ Authorization: 'Bearer alice' });
    await until(() => backend.changeListeners('alice') === 1, 'the stream open');
    stream.controller.abort();
    await until(() => backend.changeListeners('alice') === 0, 'the server to see the stream end');
  });
});

describe('the event stream obeys the cors option, over HTTP', () => {
  const ORIGIN = 'https://app.example';
  const allowHeaders = (response: Response) => {
    const names: string[] = [];
    response.headers.forEach((_, name) => names.push(name));
    return names.filter((name) => name.startsWith('access-control-allow-')).sort();
  };

  async function openWith(cors: boolean | undefined, headers: Record<string, string>) {
    const backend = await startReferenceBackend({ users: [alice], ...(cors === undefined ? {} : { cors }) });
    const controller = new AbortController();
    try {
      const response = await fetch(`${backend.url}${REFERENCE_CHANGES_PATH}`, {
        headers: { Origin: ORIGIN, ...headers },
        signal: controller.signal,
      });
      return {
        status: response.status,
        allowed: allowHeaders(response),
        origin: response.headers.get('access-control-allow-origin'),
      };
    } finally {
      controller.abort();
      await backend.close();
    }
  }

  it('with cors: false, neither the stream nor its refusal carries an Access-Control-Allow-* header', async () => {
    expect(await openWith(false, { Authorization: 'Bearer alice' })).toEqual({
      status: 200,
      allowed: [],
      origin: null,
    });
    expect(await openWith(false, {})).toEqual({ status: 401, allowed: [], origin: null });
  });

  it('with cors on (the default), the origin is echoed with credentials, as an EventSource withCredentials needs', async () => {
    expect(await openWith(undefined, { Authorization: 'Bearer alice' })).toEqual({
      status: 200,
      allowed: ['access-control-allow-credentials', 'access-control-allow-origin'],
      origin: ORIGIN,
    });
  });
});
