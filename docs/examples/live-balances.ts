// docs/refetch-and-live.md "Live balances pushed by your server: refetchOn({ when })", type-checked.
import { Observable } from 'rxjs';
import { createClient, refetchOn } from 'unified-billing';

declare function getToken(): Promise<string>;

// Your server sends an event named `changed` to the user's open pages; the session cookie authenticates it.
const billingChanges = new Observable<Event>((subscriber) => {
  const source = new EventSource('/billing/changes', { withCredentials: true });
  source.addEventListener('changed', (event) => subscriber.next(event));
  source.onerror = () => source.readyState === EventSource.CLOSED && subscriber.error(new Error('stream closed'));
  return () => source.close();
});

export const client = createClient({
  baseUrl: 'https://api.example.com',
  appKey: 'poster',
  headers: async () => ({ Authorization: `Bearer ${await getToken()}` }),
  refetch: refetchOn({ focus: true, online: true, when: billingChanges }),
});
