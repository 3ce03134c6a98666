// docs/api.md "Pipe UI events straight in", type-checked; the import path points at the sources.
import { fromEvent } from 'rxjs';
import { consumeWith, createClient, type BillingError } from 'unified-billing';

declare const button: HTMLButtonElement;
declare function runExport(): void;
declare function showError(error: BillingError): void;

const client = createClient({ baseUrl: 'https://api.example.com', appKey: 'poster' });

fromEvent(button, 'click')
  .pipe(consumeWith(client.billing))
  .subscribe((outcome) => (outcome.ok ? runExport() : showError(outcome.error)));
