import type { IncomingMessage, ServerResponse } from 'node:http';

/** What the playground serves beside the three backend calls. */
export interface PlaygroundAssets {
  readonly html: string;
  readonly script: string;
  /** Back to the demo users' initial state. */
  readonly reset: () => void;
  /** Adds credits to a user's balance, as another device would; the new balance. */
  readonly topUp: (token: string) => number;
}

function readText(req: IncomingMessage): Promise<string> {
  return new Promise((resolve, reject) => {
    let text = '';
    req.setEncoding('utf8');
    req.on('data', (chunk: string) => (text += chunk.slice(0, 200)));
    req.on('end', () => resolve(text));
    req.on('error', reject);
  });
}

function send(res: ServerResponse, status: number, type: string, body: string): void {
  res.writeHead(status, {
    'Content-Type': type,
    'Content-Length': Buffer.byteLength(body),
    'Cache-Control': 'no-store',
  });
  res.end(body);
}

/**
 * The `fallback` of the reference backend: the page, its script and the
 * endpoints of the reset and "top up from another device" buttons, from the backend's own origin, so the page's
 * requests need no CORS.
 */
export function playgroundRoutes(assets: PlaygroundAssets): (req: IncomingMessage, res: ServerResponse) => boolean {
  return (req, res) => {
    const path = (req.url ?? '/').split('?')[0];
    if (req.method === 'GET' && (path === '/' || path === '/index.html')) {
      send(res, 200, 'text/html; charset=utf-8', assets.html);
      return true;
    }
    if (req.method === 'GET' && path === '/app.js') {
      send(res, 200, 'text/javascript; charset=utf-8', assets.script);
      return true;
    }
    if (req.method === 'POST' && path === '/playground/reset') {
      assets.reset();
      send(res, 200, 'application/json; charset=utf-8', '{"ok":true}');
      return true;
    }
    // The "Top up from another device" button: the body is the user's token.
    if (req.method === 'POST' && path === '/playground/top-up') {
      void readText(req)
        .then(
          (token) =>
            send(res, 200, 'application/json; charset=utf-8', JSON.stringify({ balance: assets.topUp(token) })),
          () => res.destroy(),
        )
        .catch(() => send(res, 404, 'application/json; charset=utf-8', '{"ok":false}'));
      return true;
    }
    if (req.method === 'GET' && path === '/favicon.ico') {
      res.writeHead(204).end();
      return true;
    }
    return false;
  };
}
