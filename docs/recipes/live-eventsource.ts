// Recipe: live balances over server-sent events, authenticated by a cookie.
//
// What your backend must send: nothing but "changed". Each event is a nudge:
// the client never reads its data, it fetches its own usage (one GET pair; a
// burst of events shares one), and that answer is ordered with the client's own
// charges, so a pushed number could not roll a balance back anyway. Send an
// event named `changed` (`event: changed\ndata: changed\n\n`) on each top-up,
// admin grant, or charge made by another device of the same user.
//
// Authentication: an `EventSource` cannot send an `Authorization` header. Use
// the session cookie your backend already sets at sign-in (HttpOnly, Secure,
// SameSite=Lax). On another origin, pass `withCredentials: true` and answer
// with `Access-Control-Allow-Origin: <the page's origin>` and
// `Access-Control-Allow-Credentials: true`. Not a token in the query string:
// URLs end up in access logs, proxies and the browser's history.
//
// To try it against `unified-billing/testing`'s server: the stream is at
// `REFERENCE_CHANGES_PATH`, and the cookie named `REFERENCE_COOKIES.token`
// carries the user's token (the playground does exactly this).
import { Observable } from 'rxjs';
import { createClient, refetchOn, type Client } from 'unified-billing';

/**
 * The user's billing changes from `url`: one value per `changed` event, and
 * one after the browser reconnected by itself (something may have changed
 * while it was away). A stream the browser gave up on (a 401, a 5xx, a wrong
 * content type) errors, so `refetchOn` opens a new one after its backoff (1 s,
 * doubling up to 30 s) and refetches once. Closed on unsubscribe.
 */
export function billingChanges(url: string): Observable<Event> {
  return new Observable<Event>((subscriber) => {
    const source = new EventSource(url, { withCredentials: true });
    let opened = false;
    source.addEventListener('changed', (event) => subscriber.next(event));
    source.onopen = (event) => {
      if (opened) subscriber.next(event);
      opened = true;
    };
    // CONNECTING: the browser retries by itself. CLOSED: it will not.
    source.onerror = () => {
      if (source.readyState === EventSource.CLOSED) subscriber.error(new Error(`billing changes: ${url} closed`));
    };
    return () => source.close();
  });
}

/** One client per signed-in user; `client.billing.dispose()` at sign-out closes the stream. */
export function createLiveClient(getToken: () => Promise<string>): Client {
  return createClient({
    baseUrl: 'https://api.example.com',
    appKey: 'poster',
    headers: async () => ({ Authorization: `Bearer ${await getToken()}` }),
    refetch: refetchOn({
      focus: true,
      online: true,
      when: billingChanges('https://app.example.com/billing/changes'),
    }),
  });
}
