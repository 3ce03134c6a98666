import type { BillingModule, CreditsModule } from '../store/billing-module';

export type { BillingModule, CreditsModule } from '../store/billing-module';

/**
 * What `createClient()` returns.
 *
 * @example
 * ```ts
 * const client: Client = createClient({ baseUrl, appKey: 'poster' });
 * client.billing.usage$.subscribe(render);
 * ```
 */
export interface Client {
  readonly billing: BillingModule;
  readonly credits: CreditsModule;
}
