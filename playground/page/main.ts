// The playground page: no framework, the library straight from lib/.
import { defineBillingElements } from '../../lib/element';
import { readPageOptions } from './page-options';
import { startSession, type Session } from './session';
import { installTestHooks } from './test-hooks';
import { View } from './view';

interface PageConfig {
  appKey: string;
  users: Array<{ token: string; label: string; story: string }>;
}

function readConfig(): PageConfig {
  const script = document.getElementById('playground-config');
  return JSON.parse(script?.textContent ?? '{}') as PageConfig;
}

const config = readConfig();
// <billing-meter> and <billing-gate> beside the page's own UI, on the signed-in user's client.
defineBillingElements();
const meter = document.querySelector('billing-meter');
const gate = document.querySelector('billing-gate');
const gateResult = document.getElementById('gate-result');
gate?.addEventListener('billing-granted', ({ detail }) => {
  if (gateResult) gateResult.textContent = detail.isBlacklisted ? 'Granted (blacklisted)' : 'Granted: exporting';
});
gate?.addEventListener('billing-denied', ({ detail }) => {
  if (gateResult) gateResult.textContent = `Denied: ${detail.error.code}`;
});
const view = new View();
let session: Session | undefined;
const options = readPageOptions(window.location.search);
const hooks = installTestHooks(
  {
    current: () => session,
    dispose: () => session?.dispose(),
    restart: () => signIn(view.userSelect.value),
  },
  options.storageName !== null,
);

function signIn(token: string): void {
  const user = config.users.find((candidate) => candidate.token === token);
  if (user === undefined) return;
  // The old user's client goes away with its timers and requests.
  session?.dispose();
  view.showStory(user.story);
  session = startSession(view, config.appKey, user);
  hooks.attach(session);
  // After startSession's getUsage(): the elements join that fetch instead of sending their own.
  if (meter && gate) meter.billing = gate.billing = session.billing;
}

for (const user of config.users) view.userSelect.add(new Option(user.label, user.token));
// `?user=<token>` signs that demo user in at load.
if (config.users.some((user) => user.token === options.user)) view.userSelect.value = options.user as string;
view.userSelect.addEventListener('change', () => signIn(view.userSelect.value));
view.exportButton.addEventListener('click', () => void session?.exportOnce());
view.topUpButton.addEventListener('click', () => void session?.topUpElsewhere().catch(() => undefined));
view.resetButton.addEventListener('click', () => {
  void window.fetch('/playground/reset', { method: 'POST' }).then(() => signIn(view.userSelect.value));
});
signIn(view.userSelect.value);
