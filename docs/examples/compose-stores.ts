// docs/compose.md "Compose with other stores", type-checked; spec/docs/compose-stores.spec.ts
// runs `exportButton$` against the reference backend.
import { BehaviorSubject, combineLatest, distinctUntilChanged, map, startWith, type Observable } from 'rxjs';
import { createClient, type BillingModule, type UsageInfo } from 'unified-billing';

/** The app's own state, in its own store. */
export interface AppState {
  readonly selectedDoc: string | null;
  readonly exporting: boolean;
}

/** What the Export button shows. */
export interface ExportButton {
  readonly label: string;
  readonly enabled: boolean;
}

export function exportButton$(billing: BillingModule, app$: Observable<AppState>): Observable<ExportButton> {
  // usage$ is silent before the first fetch: start from null to render "loading", never a refusal.
  const usage$: Observable<UsageInfo | null> = billing.usage$.pipe(startWith(null));
  return combineLatest([usage$, app$]).pipe(
    map(([usage, app]): ExportButton => {
      if (app.selectedDoc === null) return { label: 'Select a document', enabled: false };
      if (usage === null) return { label: 'Loading…', enabled: false };
      if (app.exporting) return { label: 'Exporting…', enabled: false };
      // The usage just emitted is the cache preview() reads: the two agree.
      const { canProceed, cost } = billing.preview();
      if (!canProceed) return { label: 'Top up to export', enabled: false };
      return { label: cost ? `Export (${cost} credits)` : 'Export (free)', enabled: true };
    }),
    distinctUntilChanged((a, b) => a.label === b.label && a.enabled === b.enabled),
  );
}

// Wiring it in an app:
declare const button: HTMLButtonElement;

export function mount(): () => void {
  const client = createClient({ baseUrl: 'https://api.example.com', appKey: 'poster' });
  const app$ = new BehaviorSubject<AppState>({ selectedDoc: null, exporting: false });
  const subscription = exportButton$(client.billing, app$).subscribe(({ label, enabled }) => {
    button.textContent = label;
    button.disabled = !enabled;
  });
  client.billing.getUsage().catch(() => undefined); // a failure shows in getStatus().error
  app$.next({ ...app$.value, selectedDoc: 'doc-1' });
  return () => {
    subscription.unsubscribe();
    client.billing.dispose();
  };
}
