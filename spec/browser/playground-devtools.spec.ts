import { useRig } from './lifecycle-fixtures';
import { showsMatch } from './status-fixtures';

// Issue 19: the playground shows its actions and state in the Redux DevTools when the
// extension is present, played by a fake installed before the page's scripts. Needs the
// engine's `devtools` option.
const rig = useRig();

const FAKE_EXTENSION = `
window.__devtools = { names: [], sent: [] };
window.__REDUX_DEVTOOLS_EXTENSION__ = {
  connect(options) {
    window.__devtools.names.push(options.name);
    return {
      init: (state) => window.__devtools.sent.push({ type: '@@INIT', state: JSON.stringify(state) }),
      send: (action, state) => window.__devtools.sent.push({ type: action.type, action: JSON.stringify(action), state: JSON.stringify(state) }),
    };
  },
};`;

interface Seen {
  readonly names: string[];
  readonly sent: Array<{ type: string; action?: string; state: string }>;
}

describe('the playground with the Redux DevTools extension', () => {
  test("shows the signed-in user's client: its load and its consume, with the state, and no token", async () => {
    await rig.context.addInitScript({ content: FAKE_EXTENSION });
    const page = await rig.open('');
    await page.locator('[data-testid="export"]').click();
    await showsMatch(page, 'free-remaining', /2/);
    const seen = await page.evaluate(() => (window as unknown as { __devtools: Seen }).__devtools);
    expect(seen.names).toHaveLength(1);
    expect(seen.names[0]).toMatch(/^playground: /);
    const types = seen.sent.map((entry) => entry.type);
    expect(types[0]).toBe('@@INIT');
    expect(types).toEqual(expect.arrayContaining(['usage/loaded', 'consume/charged']));
    const last = JSON.parse(seen.sent.at(-1)?.state ?? 'null');
    expect(last).toMatchObject({ usage: { freeRemaining: 2 }, status: { loaded: true } });
    const text = JSON.stringify(seen);
    expect(text).not.toContain('Bearer');
    expect(text).not.toMatch(/demo-(free|credits)/);
  });
});
