import { startReferenceBackend, type ReferenceBackend } from '../../lib/testing';
import { DEMO_USERS, PLAYGROUND_APP_KEY } from './demo-users';
import { bundlePage } from './page-bundle';
import { renderPage } from './page-html';
import { playgroundRoutes } from './routes';

// What the "Top up from another device" button adds.
const TOP_UP_CREDITS = 50;

/** Where the playground listens. */
export interface PlaygroundOptions {
  /** Default 8787; 0 picks a free port. */
  readonly port?: number;
  readonly host?: string;
}

/** A running playground: the reference backend with the demo users, and the page on the same origin. */
export interface Playground {
  readonly url: string;
  readonly backend: ReferenceBackend;
  close(): Promise<void>;
}

/** Bundles the page from lib/, then starts the backend that serves it. */
export async function startPlayground({
  port = 8787,
  host = '127.0.0.1',
}: PlaygroundOptions = {}): Promise<Playground> {
  const script = await bundlePage();
  const html = renderPage({
    appKey: PLAYGROUND_APP_KEY,
    users: DEMO_USERS.map(({ token, label, story }) => ({ token, label, story })),
  });
  // The reset route closes over the backend it belongs to; it only runs once the server is up.
  const backend: ReferenceBackend = await startReferenceBackend({
    port,
    host,
    users: DEMO_USERS,
    fallback: playgroundRoutes({
      html,
      script,
      reset: () => backend.reset(),
      topUp: (token) => backend.topUp(token, TOP_UP_CREDITS),
    }),
  });
  const started = backend;
  return { url: started.url, backend: started, close: () => started.close() };
}
