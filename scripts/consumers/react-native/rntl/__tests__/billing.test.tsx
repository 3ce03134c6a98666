// unified-billing/react in a React Native screen, under the React Native Jest preset,
// against the reference backend: what the user reads, before and after a press. The
// recipe's https://api.example.com is routed to the backend through the global fetch,
// which the client reads at each request (React Native's, here the environment's).
import { fireEvent, render, screen } from '@testing-library/react-native';
import { startReferenceBackend } from 'unified-billing/testing';
import { BillingScreen } from '../App';

// The first render compiles react-native's files (a cold Babel cache on CI): allow for it.
jest.setTimeout(60_000);
const slow = { timeout: 20_000 };

let backend: Awaited<ReturnType<typeof startReferenceBackend>>;
beforeAll(async () => {
  backend = await startReferenceBackend({
    users: [
      { token: 'free-user', freeRemaining: 2, freeTotal: 3, creditsPerUse: 10, creditsBalance: 50 },
      { token: 'credit-user', freeRemaining: 0, freeTotal: 3, creditsPerUse: 10, creditsBalance: 50 },
    ],
  });
});
afterAll(() => backend.close());

const RECIPE_BACKEND = 'https://api.example.com';
const realFetch = globalThis.fetch;
beforeEach(() => {
  globalThis.fetch = (input, init) => {
    const url = String(input);
    if (!url.startsWith(`${RECIPE_BACKEND}/`)) throw new Error(`a request to ${url}, not to the recipe's backend`);
    return realFetch(backend.url + url.slice(RECIPE_BACKEND.length), init);
  };
});
afterEach(() => {
  globalThis.fetch = realFetch;
});

test('shows the free count, and a press uses a free export and starts the free period', async () => {
  render(<BillingScreen token="free-user" />);
  expect(screen.getByText('Loading…')).toBeTruthy();
  expect(await screen.findByText('2 of 3 free · 50 credits', {}, slow)).toBeTruthy();
  expect(screen.getByText('Next export: free_count')).toBeTruthy();

  fireEvent.press(screen.getByRole('button', { name: 'Export' }));
  expect(await screen.findByText('Used a free export')).toBeTruthy();
  expect(screen.getByText('1 of 3 free · 50 credits')).toBeTruthy();
  expect(screen.getByText(/^Free again for \d+ s$/)).toBeTruthy();
});

test('with no free export left, a press pays with credits and shows the new balance', async () => {
  render(<BillingScreen token="credit-user" />);
  expect(await screen.findByText('0 of 3 free · 50 credits', {}, slow)).toBeTruthy();
  expect(screen.getByText('Next export: credits')).toBeTruthy();

  fireEvent.press(screen.getByRole('button', { name: 'Export' }));
  expect(await screen.findByText('Paid with credits')).toBeTruthy();
  expect(screen.getByText('0 of 3 free · 40 credits')).toBeTruthy();
});
