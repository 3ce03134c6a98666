import { REFERENCE_PATHS, startReferenceBackend } from '../../../lib/testing';
import { until, within } from '../../helpers/waiting';
import { expectErrorBody, getBalance, makeUser, overHttp, rawRequest } from '../http-helpers';

describe('reference backend: start and close', () => {
  test('startReferenceBackend rejects invalid or duplicate users', async () => {
    const ok = makeUser();
    await expect(startReferenceBackend({ users: [ok, { ...ok }] })).rejects.toThrow();
    await expect(startReferenceBackend({ users: [{ ...makeUser(), creditsBalance: -5 }] })).rejects.toThrow(TypeError);
    await expect(startReferenceBackend({ users: [{ ...makeUser(), token: 'has space' }] })).rejects.toThrow(TypeError);
  });

  test('a taken port rejects', async () => {
    const first = await startReferenceBackend();
    try {
      await expect(startReferenceBackend({ port: first.port })).rejects.toThrow(/EADDRINUSE/);
    } finally {
      await first.close();
    }
  });

  test('close() ends keep-alive and in-flight connections instead of waiting for them, is idempotent, and the server then refuses', async () => {
    const user = makeUser();
    const backend = await startReferenceBackend({ users: [user] });
    // fetch keeps its connection alive: close() must not wait for it.
    expect((await getBalance(overHttp(backend), user.token)).status).toBe(200);
    // A consume whose body never ends: Node's server would wait minutes for it, close() must not.
    const held = rawRequest(overHttp(backend), {
      method: 'POST',
      path: REFERENCE_PATHS.consume,
      headers: { Authorization: `Bearer ${user.token}`, 'Content-Type': 'application/json', 'Content-Length': 100 },
      body: '{"module":',
      keepOpen: true,
    });
    held.catch(() => undefined);
    await until(() => backend.requests().length === 2, 'the held consume to reach the backend');
    // Not a bound on speed: room for any machine, only a hang fails (no close() at all resolves by itself).
    await within(backend.close(), 'close() with a kept-alive and a held connection');
    await backend.close();
    await expect(held).rejects.toThrow();
    expect(backend.charges()).toEqual([]);
    await expect(fetch(`${backend.url}${REFERENCE_PATHS.balance}`)).rejects.toThrow();
  });

  test('the fallback option answers other paths; the API paths stay the backend’s', async () => {
    const user = makeUser();
    const backend = await startReferenceBackend({
      users: [user],
      fallback: (req, res) => {
        if (req.url !== '/') return false;
        res.writeHead(200, { 'Content-Type': 'text/html' });
        res.end('<h1>demo</h1>');
        return true;
      },
    });
    try {
      const page = await fetch(`${backend.url}/`);
      expect(await page.text()).toBe('<h1>demo</h1>');
      expect((await fetch(`${backend.url}/other`)).status).toBe(404);
      expect((await getBalance(overHttp(backend), user.token)).status).toBe(200);
      expect(backend.requests().map((r) => r.status)).toEqual([200, 404, 200]);
    } finally {
      await backend.close();
    }
  });

  test('a throwing fallback gets a 500 and the backend keeps serving', async () => {
    const user = makeUser();
    const backend = await startReferenceBackend({
      users: [user],
      fallback: () => {
        throw new Error('page renderer broke');
      },
    });
    try {
      const answer = await rawRequest(overHttp(backend), { path: '/page' });
      expect(answer.status).toBe(500);
      expectErrorBody(JSON.parse(answer.text), 500);
      expect((await getBalance(overHttp(backend), user.token)).status).toBe(200);
    } finally {
      await backend.close();
    }
  });
});
