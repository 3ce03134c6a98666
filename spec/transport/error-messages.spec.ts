import { cleanup, coded, fixture, PATH } from '../helpers/client-fixture';
import { byMode } from '../helpers/mode';

afterEach(cleanup);

// Issue 18 item 5: errors for a wrong baseUrl name the request (method, full
// URL without credentials or query), the status, the content type of an
// answer that is not JSON, and say to check baseUrl.
const BASE = 'https://api.example.com/prefix';
const COUNT_URL = `GET ${BASE}${PATH.count}`;
const HTML = '<!doctype html><html><head><title>My app</title></head><body><div id="root"></div></body></html>';

function failing(options: object = {}) {
  return fixture({}, { baseUrl: BASE, retries: 0, ...options });
}

describe('errors name the request and what to check', () => {
  it('a 404 names the method and the full URL, and says to check baseUrl', async () => {
    const { client, backend } = failing();
    backend.script(PATH.count, { status: 404, body: coded(404, 'not found') });
    const error = await client.billing.getUsage().catch((caught: unknown) => caught);
    expect(error).toMatchObject({ code: 'http', status: 404 });
    expect((error as Error).message).toBe(
      byMode(`HTTP 404 on ${COUNT_URL}: not found; check baseUrl`, `HTTP 404 on ${COUNT_URL}`),
    );
  });

  it('an HTML page answered with 200 (an SPA fallback) is a decode error naming the request, status, content type and baseUrl', async () => {
    const { client, backend } = failing();
    backend.script(PATH.count, { body: HTML, headers: { 'content-type': 'text/html; charset=utf-8' } });
    const error = await client.billing.getUsage().catch((caught: unknown) => caught);
    expect(error).toMatchObject({ code: 'decode' });
    expect((error as Error).message).toBe(
      byMode(
        `Malformed response body on ${COUNT_URL} (HTTP 200, text/html; charset=utf-8): not JSON; check baseUrl`,
        `Malformed response body on ${COUNT_URL} (HTTP 200)`,
      ),
    );
  });

  it('an HTML 404 page gives the content type instead of a message', async () => {
    const { client, backend } = failing();
    backend.script(PATH.consume, { status: 404, body: HTML, headers: { 'content-type': 'text/html' } });
    const error = await client.billing.consume({ externalId: 'op-404' }).catch((caught: unknown) => caught);
    expect(error).toMatchObject({ code: 'http', status: 404, externalId: 'op-404' });
    expect((error as Error).message).toBe(
      byMode(
        `HTTP 404 on POST ${BASE}${PATH.consume} (text/html, not JSON); check baseUrl`,
        `HTTP 404 on POST ${BASE}${PATH.consume}`,
      ),
    );
  });

  it('a 502 from a proxy, not JSON, gives its content type and no baseUrl hint', async () => {
    const { client, backend } = failing();
    backend.script(PATH.balance, { status: 502, body: 'Bad Gateway', headers: { 'content-type': 'text/plain' } });
    const error = await client.credits.getBalance().catch((caught: unknown) => caught);
    expect((error as Error).message).toBe(
      byMode(`HTTP 502 on GET ${BASE}${PATH.balance} (text/plain, not JSON)`, `HTTP 502 on GET ${BASE}${PATH.balance}`),
    );
    expect(error).toMatchObject({ code: 'http', status: 502 });
  });

  it('a JSON body missing a field is a decode error naming the request, with no content type', async () => {
    const { client, backend } = failing();
    backend.script(PATH.balance, { body: JSON.stringify({ code: 0, message: 'ok', data: {} }) });
    const error = await client.credits.getBalance().catch((caught: unknown) => caught);
    expect(error).toMatchObject({ code: 'decode' });
    expect((error as Error).message).toBe(
      byMode(
        `Malformed response body on GET ${BASE}${PATH.balance} (HTTP 200): balance is not a number >= 0`,
        `Malformed response body on GET ${BASE}${PATH.balance} (HTTP 200)`,
      ),
    );
  });
});
