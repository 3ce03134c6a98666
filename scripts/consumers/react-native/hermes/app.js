// The quick start as a React Native app runs it, bundled the way Metro resolves
// `unified-billing` and run in the Hermes VM: first createClient without URL (it must
// name what is missing), then with React Native's URL: createClient with the app's fetch,
// refetchOn({ focus, online }) (the README's example; React Native has no window
// events), getUsage, check, a consume with its own externalId, then, in a client made
// again (as after a restart), a credit consume, a consume that needs a random id
// (Hermes has no crypto: it must fail with a BillingError that names the polyfill),
// and dispose(). It prints one JSON line that scripts/check-react-native.mjs asserts.
import { globalFetch, installUrl, logged, output, unhandled } from './shims';
import { createClient, isBillingError, refetchOn } from 'unified-billing';
import { fakeBackend } from './fake-fetch';

const backend = fakeBackend({ token: 'hermes-token', freeRemaining: 1, freeTotal: 3, creditsPerUse: 10, balance: 50 });
const options = {
  baseUrl: 'https://api.example.com',
  appKey: 'poster',
  headers: async () => ({ Authorization: 'Bearer hermes-token' }),
  fetch: (input, init) => backend.fetch(input, init),
};
const result = { steps: [] };
const step = (name) => result.steps.push(name);
const described = (error) => ({
  billingError: isBillingError(error),
  code: error && error.code,
  message: String(error && error.message),
  stack: String(error && error.stack),
});

async function main() {
  // The bare VM has no URL: createClient must name it, not blame baseUrl.
  try {
    createClient(options);
    result.withoutUrl = 'created';
  } catch (error) {
    result.withoutUrl = described(error);
  }
  installUrl();

  const first = createClient({ ...options, refetch: refetchOn({ focus: true, online: true }) });
  step('createClient');
  result.usage = await first.billing.getUsage();
  step('getUsage');
  result.check = first.billing.check();
  step('check');
  result.consume = await first.billing.consume({ externalId: 'hermes-order-1' });
  step('consume');
  result.checkAfterConsume = first.billing.check();
  first.billing.dispose();
  step('dispose');

  // The app started again: no free period, no free use left, credits pay.
  const second = createClient(options);
  result.usageAfterRestart = await second.billing.getUsage();
  result.checkAfterRestart = second.billing.check();
  result.creditConsume = await second.billing.consume({ externalId: 'hermes-order-2' });
  result.usageAfterCredit = second.billing.getCachedUsage();
  step('credit consume');
  second.billing.dispose();
  try {
    second.billing.check();
    result.checkAfterDispose = 'did not throw';
  } catch (error) {
    result.checkAfterDispose = described(error);
  }

  // A consume with no externalId needs a random id, and Hermes has no crypto.
  const third = createClient(options);
  await third.billing.getUsage();
  const sentBefore = backend.requests.length;
  try {
    result.randomIdConsume = { resolved: await third.billing.consume() };
  } catch (error) {
    result.randomIdConsume = described(error);
  }
  result.randomIdConsume.sent = backend.requests.length - sentBefore;
  third.billing.dispose();
  step('random id consume');
}

const settle = () => new Promise((wake) => setTimeout(wake, 20));
main()
  .then(
    () => (result.ok = true),
    (error) => {
      result.ok = false;
      result.error = described(error);
    },
  )
  .then(settle)
  .then(() => {
    result.backend = backend.state;
    result.requests = backend.requests;
    result.globalFetchCalls = globalFetch.calls;
    result.logged = logged;
    result.unhandled = unhandled;
    output(result);
  });
