import { Observable } from 'rxjs';
import { REFERENCE_CHANGES_PATH, REFERENCE_COOKIES } from '../../lib/testing';

/**
 * The reference backend's changes for one user, for `refetchOn({ when })`: an
 * `EventSource` on its event stream, authenticated by a cookie (an
 * `EventSource` cannot send the `Authorization` header). Each `changed` event
 * is a value; a stream the browser gave up on (a 401, a server gone) errors,
 * so the client subscribes again after its backoff. The browser's device
 * cookie keeps this page's own charges off the stream: its client applied them.
 *
 * @example
 * ```ts
 * createClient({ baseUrl, appKey, refetch: refetchOn({ focus: true, when: liveChanges('demo-free') }) });
 * ```
 */
export function liveChanges(token: string): Observable<Event> {
  return new Observable<Event>((subscriber) => {
    // At subscribe, as the client is created: after a user switch the new user's cookie is the one sent.
    document.cookie = `${REFERENCE_COOKIES.token}=${encodeURIComponent(token)}; path=/; SameSite=Strict`;
    if (!document.cookie.includes(`${REFERENCE_COOKIES.device}=`)) {
      const device = Math.random().toString(36).slice(2);
      document.cookie = `${REFERENCE_COOKIES.device}=${device}; path=/; SameSite=Strict`;
    }
    const source = new EventSource(REFERENCE_CHANGES_PATH);
    source.addEventListener('changed', (event) => subscriber.next(event));
    // A dropped connection is retried by the browser itself (CONNECTING); CLOSED means it gave up.
    source.onerror = () => {
      if (source.readyState === EventSource.CLOSED) subscriber.error(new Error('the change stream closed'));
    };
    return () => source.close();
  });
}
