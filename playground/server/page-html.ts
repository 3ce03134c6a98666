/** What the page needs to know, inlined into it as JSON. */
export interface PageConfig {
  readonly appKey: string;
  readonly users: ReadonlyArray<{ readonly token: string; readonly label: string; readonly story: string }>;
}

// `<` escaped so no value can close the script element it sits in.
const inlineJson = (value: unknown): string => JSON.stringify(value).replace(/</g, '\\u003c');

const STYLE = `
  body { font: 15px/1.4 system-ui, sans-serif; margin: 0; background: #f4f5f7; color: #1d2330; }
  header { background: #1d2330; color: #fff; padding: 12px 24px; display: flex; gap: 16px; align-items: center; }
  header h1 { font-size: 18px; margin: 0; flex: 1; }
  main { display: grid; grid-template-columns: 1fr 1fr; gap: 16px; padding: 16px 24px; max-width: 1100px; }
  section { background: #fff; border-radius: 8px; padding: 12px 16px; box-shadow: 0 1px 2px #0002; }
  h2 { font-size: 14px; text-transform: uppercase; letter-spacing: .05em; color: #667; margin: 0 0 8px; }
  dl { display: grid; grid-template-columns: max-content 1fr; gap: 4px 16px; margin: 0; }
  dd { margin: 0; font-weight: 600; font-variant-numeric: tabular-nums; }
  #export { font-size: 18px; padding: 10px 28px; border: 0; border-radius: 6px; background: #2f6fed; color: #fff; cursor: pointer; }
  #verdict[data-can-proceed="false"] { color: #b42318; }
  #countdown { font-size: 28px; font-weight: 700; color: #0a7c42; font-variant-numeric: tabular-nums; }
  #warning { background: #fde8e8; color: #8a1c1c; padding: 8px 12px; border-radius: 6px; margin-top: 8px; }
  #log { list-style: none; padding: 0; margin: 0; max-height: 360px; overflow: auto; grid-column: 1 / -1; }
  #log li { padding: 6px 8px; border-bottom: 1px solid #eee; display: flex; gap: 12px; }
  #log .kind { font-weight: 700; min-width: 150px; }
  #log .wire { color: #667; font-family: ui-monospace, monospace; font-size: 12px; }
  #log li[data-kind="insufficient"] .kind, #log li[data-kind="error"] .kind { color: #b42318; }
  #log li[data-kind="blacklisted"] .kind { color: #a15c00; }
  .story { color: #667; font-size: 13px; }
  #status[data-error]:not([data-error=""]) { color: #b42318; }
  #preview { font-weight: 600; }
  #preview[data-can-proceed="false"] { color: #b42318; }
  #events { list-style: none; padding: 0; margin: 0; max-height: 240px; overflow: auto;
    font-family: ui-monospace, monospace; font-size: 12px; }
  #events li { padding: 2px 0; border-bottom: 1px solid #f0f0f0; }
`;

/**
 * The playground's one page. Elements the browser test reads carry stable
 * `data-testid`s; the script fills them in.
 */
export function renderPage(config: PageConfig): string {
  return `<!doctype html>
<html lang="en">
<head>
<meta charset="utf-8">
<title>unified-billing playground</title>
<meta name="viewport" content="width=device-width, initial-scale=1">
<style>${STYLE}</style>
</head>
<body>
<header>
  <h1>unified-billing playground</h1>
  <label>User <select id="user" data-testid="user-select"></select></label>
  <button id="reset" data-testid="reset" type="button">Reset demo data</button>
</header>
<main>
  <section>
    <h2>Usage (<code>usage$</code>)</h2>
    <p class="story" id="story" data-testid="story"></p>
    <p>Status (<code>status$</code>): <span id="status" data-testid="status" data-loaded="false" data-loading="false"
      data-pending="0" data-error="">–</span></p>
    <dl>
      <dt>Free uses left</dt><dd id="free-remaining" data-testid="free-remaining">–</dd>
      <dt>Free uses in total</dt><dd id="free-total" data-testid="free-total">–</dd>
      <dt>Credits per use</dt><dd id="credits-per-use" data-testid="credits-per-use">–</dd>
      <dt>Credits balance</dt><dd id="credits-balance" data-testid="credits-balance">–</dd>
      <dt>Billing enabled</dt><dd id="is-enabled" data-testid="is-enabled">–</dd>
      <dt>In free period</dt><dd id="in-free-period" data-testid="in-free-period">–</dd>
    </dl>
    <p><button id="top-up-elsewhere" data-testid="top-up-elsewhere" type="button">Top up 50 from another device</button>
      <span class="story">the server pushes the change; no focus, no reload</span></p>
  </section>
  <section>
    <h2>Next export (<code>check()</code>)</h2>
    <p id="verdict" data-testid="verdict" data-reason="" data-can-proceed="">–</p>
    <p id="preview" data-testid="preview" data-reason="" data-can-proceed="">–</p>
    <button id="export" data-testid="export" type="button">Export</button>
    <p>Free period: <span id="countdown" data-testid="countdown" data-seconds="0" hidden></span>
      <span id="no-free-period" data-testid="no-free-period">not active</span></p>
    <div id="warning" data-testid="blacklist-warning" hidden>This account is blacklisted: exports are not charged, and the app may block them.</div>
  </section>
  <section style="grid-column: 1 / -1" aria-labelledby="elements-heading">
    <h2 id="elements-heading">The same client in custom elements (<code>unified-billing/element</code>)</h2>
    <billing-meter unit="export" data-testid="element-meter"><a slot="top-up" href="#reset">Reset demo data to top up</a></billing-meter>
    <billing-gate data-testid="element-gate"><button type="button">Export through the gate</button></billing-gate>
    <span id="gate-result" data-testid="gate-result" role="status"></span>
  </section>
  <section style="grid-column: 1 / -1">
    <h2>Consume log</h2>
    <ol id="log" data-testid="log" reversed></ol>
  </section>
  <section style="grid-column: 1 / -1">
    <h2>Events (<code>events$</code>), newest first</h2>
    <ol id="events" data-testid="events"></ol>
  </section>
</main>
<script type="application/json" id="playground-config">${inlineJson(config)}</script>
<script src="/app.js"></script>
</body>
</html>
`;
}
