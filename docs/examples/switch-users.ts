// docs/clients-and-users.md "Switching users without remounting", type-checked.
import { createClient, type BillingModule, type HeadersOption } from 'unified-billing';

interface User {
  readonly id: string;
}
declare const baseUrl: string;
declare const user: User;
declare function headersOf(user: User): HeadersOption;
declare function render(billing: BillingModule): void;

let current = createClient({ baseUrl, appKey: 'poster', scope: `poster:${user.id}`, headers: headersOf(user) });

export function switchUser(next: User): void {
  const previous = current;
  current = createClient({ baseUrl, appKey: 'poster', scope: `poster:${next.id}`, headers: headersOf(next) });
  render(current.billing); // <Quota billing={current.billing} />: the hooks follow the new object in place
  previous.billing.dispose(); // aborts its calls in flight; the next user is never charged for them
}
