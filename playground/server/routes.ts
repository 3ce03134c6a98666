import type { IncomingMessage, ServerResponse } from 'node:http';

/** What the playground serves beside the three backend calls. */
export interface PlaygroundAssets {
  readonly html: string;
  readonly script: string;
  /** Back to the demo users' initial state. */
  readonly reset: () => void;
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
 * reset button's endpoint, from the backend's own origin, so the page's
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
    if (req.method === 'GET' && path === '/favicon.ico') {
      res.writeHead(204).end();
      return true;
    }
    return false;
  };
}
