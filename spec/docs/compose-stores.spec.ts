import { BehaviorSubject } from 'rxjs';
import { exportButton$, type AppState, type ExportButton } from '../../docs/examples/compose-stores';
import { createClient } from '../../lib';
import { createReferenceBackend } from '../../lib/testing';
import { VirtualClock } from '../helpers/virtual-clock';

// The README's "Compose with other stores" example, run against the reference backend.
describe('README: compose usage$ with an app store (issue 18.10)', () => {
  it('renders loading before the first fetch, then what the backend says, as the app state changes', async () => {
    const backend = createReferenceBackend({
      users: [{ token: 't', freeRemaining: 1, freeTotal: 1, creditsPerUse: 10, creditsBalance: 15 }],
    });
    const clock = new VirtualClock();
    const client = createClient({
      baseUrl: 'http://billing.test',
      appKey: 'poster',
      headers: { Authorization: 'Bearer t' },
      fetch: backend.fetch,
      scheduler: clock,
    });
    const app$ = new BehaviorSubject<AppState>({ selectedDoc: null, exporting: false });
    const shown: ExportButton[] = [];
    const subscription = exportButton$(client.billing, app$).subscribe((button) => shown.push(button));
    const exportOnce = async (): Promise<void> => {
      app$.next({ ...app$.value, exporting: true });
      await client.billing.consume();
      app$.next({ ...app$.value, exporting: false });
    };
    try {
      app$.next({ selectedDoc: 'doc-1', exporting: false });
      await client.billing.getUsage();
      await exportOnce(); // the free use
      clock.advanceBy(30_000); // the free period ends
      await exportOnce(); // 10 credits, 5 left
      clock.advanceBy(30_000);
      expect(shown).toEqual([
        { label: 'Select a document', enabled: false },
        { label: 'Loading…', enabled: false },
        { label: 'Export (free)', enabled: true },
        { label: 'Exporting…', enabled: false },
        { label: 'Export (free)', enabled: true }, // the free period
        { label: 'Export (10 credits)', enabled: true },
        { label: 'Exporting…', enabled: false },
        { label: 'Export (free)', enabled: true },
        { label: 'Top up to export', enabled: false },
      ]);
      expect(backend.charges().map((charge) => charge.kind)).toEqual(['free', 'credits']);
    } finally {
      subscription.unsubscribe();
      client.billing.dispose();
      await backend.close();
    }
  });
});
