// The client is the store's two modules (store/billing-module.ts), handed to the app as they are.
export type { BillingModule, Client, CreditsModule } from '../store/billing-module';
