// A fake backend for the Hermes VM, which has no network: the three calls of the
// contract's wire format (shared/contract section 2) over state in memory, one user,
// idempotent on external_id. It answers as React Native's fetch would: a response
// with `status`, `headers.get()` and `text()`. No URL (Hermes has none): the path
// and query are read with a regular expression.
export function fakeBackend({ token, freeRemaining, freeTotal, creditsPerUse, balance }) {
  const state = { freeRemaining, balance };
  const applied = {};
  const requests = [];
  const answer = (status, body) =>
    Promise.resolve({
      status,
      headers: { get: () => null },
      text: () => Promise.resolve(JSON.stringify(body)),
    });
  const ok = (data) => answer(200, { code: 0, message: 'ok', data });

  function fetch(url, init) {
    const method = (init && init.method) || 'GET';
    const headers = (init && init.headers) || {};
    const path = /^https?:\/\/[^/]+(\/[^?#]*)(?:\?([^#]*))?/.exec(url);
    requests.push(`${method} ${path ? path[1] : url}`);
    const auth = headers.Authorization || headers.authorization;
    if (auth !== `Bearer ${token}`) return answer(401, { code: 401, message: 'unauthenticated', data: null });
    if (path === null) return answer(404, { code: 404, message: 'not found', data: null });
    if (method === 'GET' && path[1] === '/ai/v5/service/free_trial/count') {
      if (!/(^|&)module=generator_[^&]+/.test(path[2] || ''))
        return answer(400, { code: 400, message: 'module', data: null });
      return ok({
        is_enabled: true,
        free_remaining: state.freeRemaining,
        free_total: freeTotal,
        credits_per_use: creditsPerUse,
      });
    }
    if (method === 'GET' && path[1] === '/ai/v1/credit/getBalance') return ok({ balance: state.balance });
    if (method === 'POST' && path[1] === '/ai/v5/service/free_trial') {
      const body = JSON.parse(init.body);
      if (typeof body.external_id !== 'string' || !/^generator_/.test(body.module))
        return answer(400, { code: 400, message: 'body', data: null });
      if (applied[body.external_id] === undefined) {
        if (state.freeRemaining > 0) {
          state.freeRemaining -= 1;
          applied[body.external_id] = { free_remaining: state.freeRemaining, is_credit: false };
        } else if (state.balance >= creditsPerUse) {
          state.balance -= creditsPerUse;
          applied[body.external_id] = { free_remaining: 0, is_credit: true };
        } else {
          return answer(200, { code: 20101, message: 'insufficient credits', data: null });
        }
      }
      return ok(applied[body.external_id]);
    }
    return answer(404, { code: 404, message: 'not found', data: null });
  }
  return { fetch, state, requests };
}
