// Recipe: relay a billing webhook to the browser as server-sent events (Node,
// no framework), for `refetchOn({ when })` and live-eventsource.ts.
//
// Your billing provider calls your server when a user's credits change (a
// top-up, a grant, a charge on another device). This handler tells that user's
// open pages "changed", and nothing else: the pages fetch their own usage, so
// nothing of the webhook's body reaches them and they need not trust it.
//
//   POST /webhooks/billing  the provider's call: verify it, find the user, tell their pages
//   GET  /billing/changes   a page's event stream, authenticated by your session cookie
//
// One process only: with several, publish the user id between them (Redis
// pub/sub, Postgres NOTIFY) and call `tell` in each. Behind a proxy, turn
// response buffering off for the stream (nginx: `X-Accel-Buffering: no`).
import type { IncomingMessage, ServerResponse } from 'node:http';

/** What the relay needs from your app. */
export interface RelayOptions {
  /** The signed-in user of a page's request (your session cookie), or undefined. */
  userOfPage(req: IncomingMessage): string | undefined;
  /** The user a webhook is about, once its signature is verified; undefined to refuse it. */
  userOfWebhook(req: IncomingMessage, body: string): string | undefined;
}

// A comment line now and then keeps proxies from closing an idle stream.
const HEARTBEAT_MS = 25_000;

/** A request handler for both routes; returns false for any other path, for your router to go on. */
export function billingRelay(options: RelayOptions): (req: IncomingMessage, res: ServerResponse) => boolean {
  const pages = new Map<string, Set<ServerResponse>>();
  const tell = (user: string) => pages.get(user)?.forEach((page) => page.write('event: changed\ndata: changed\n\n'));

  return (req, res) => {
    const path = (req.url ?? '').split('?')[0];
    if (req.method === 'GET' && path === '/billing/changes') {
      const user = options.userOfPage(req);
      if (user === undefined) {
        res.writeHead(401).end();
        return true;
      }
      res.writeHead(200, { 'Content-Type': 'text/event-stream', 'Cache-Control': 'no-store' });
      res.write(': connected\n\n');
      const open = pages.get(user) ?? new Set();
      pages.set(user, open.add(res));
      const heartbeat = setInterval(() => res.write(': ping\n\n'), HEARTBEAT_MS);
      res.on('close', () => {
        clearInterval(heartbeat);
        open.delete(res);
        if (open.size === 0) pages.delete(user);
      });
      return true;
    }
    if (req.method === 'POST' && path === '/webhooks/billing') {
      let body = '';
      req.setEncoding('utf8');
      req.on('data', (chunk: string) => (body += chunk));
      req.on('end', () => {
        const user = options.userOfWebhook(req, body);
        if (user !== undefined) tell(user);
        res.writeHead(user === undefined ? 400 : 204).end();
      });
      return true;
    }
    return false;
  };
}
