// Recipe: live balances over a WebSocket.
//
// What your backend must send: nothing but "changed". Any message will do; the
// client never reads it, it fetches its own usage (one GET pair, a burst of
// messages sharing one), ordered with its own charges.
//
// Authentication: the browser sends the page's cookies with the handshake
// (same site), which is how most apps authenticate a socket; a `WebSocket`
// cannot send an `Authorization` header either. A token in the URL ends up in
// access logs: prefer the cookie, or send the token as the first message.
import { filter, fromEvent, Observable } from 'rxjs';
import { createClient, refetchOn, type Client } from 'unified-billing';

/**
 * A socket of its own for billing changes: one value per message. A WebSocket
 * never reconnects by itself, so a close is an error here, and `refetchOn`
 * opens a new socket after its backoff (1 s, doubling up to 30 s), then
 * refetches once for what was missed. Closed on unsubscribe.
 */
export function billingSocket(url: string): Observable<MessageEvent> {
  return new Observable<MessageEvent>((subscriber) => {
    const socket = new WebSocket(url);
    socket.onmessage = (event) => subscriber.next(event);
    socket.onclose = (event) => subscriber.error(new Error(`billing socket closed (${event.code})`));
    return () => {
      socket.onclose = null;
      socket.close();
    };
  });
}

export function createLiveClient(getToken: () => Promise<string>): Client {
  return createClient({
    baseUrl: 'https://api.example.com',
    appKey: 'poster',
    headers: async () => ({ Authorization: `Bearer ${await getToken()}` }),
    refetch: refetchOn({ focus: true, when: billingSocket('wss://app.example.com/billing/changes') }),
  });
}

/**
 * The app already has a socket (chat, presence) that reconnects by itself:
 * `fromEvent` over it, keeping the billing messages. This source never ends, so
 * after a reconnect of the app's socket, `focus` and `online` are what catch up.
 */
export function createClientOnAppSocket(appSocket: WebSocket, getToken: () => Promise<string>): Client {
  return createClient({
    baseUrl: 'https://api.example.com',
    appKey: 'poster',
    headers: async () => ({ Authorization: `Bearer ${await getToken()}` }),
    refetch: refetchOn({
      focus: true,
      online: true,
      when: fromEvent<MessageEvent>(appSocket, 'message').pipe(filter((event) => event.data === 'billing:changed')),
    }),
  });
}
