import { existsSync } from 'node:fs';
import { chromium, type Browser } from 'playwright-core';

const DEFAULT_PATH = '/usr/bin/chromium';

// `npx playwright install` downloads browsers, which this project does not
// rely on: the system's Chromium is driven instead.
const FLAGS = [
  '--headless',
  '--no-sandbox',
  '--disable-gpu',
  '--disable-background-networking',
  '--disable-component-update',
  '--no-first-run',
];

/** Launches the system Chromium, or fails saying how to install it. */
export async function launchChromium(): Promise<Browser> {
  const executablePath = process.env['CHROMIUM_PATH'] || DEFAULT_PATH;
  if (!existsSync(executablePath)) {
    throw new Error(
      `Chromium not found at ${executablePath}. Install it with ` +
        '`apt-get update && apt-get install -y chromium`, or point CHROMIUM_PATH at a Chromium binary.',
    );
  }
  return chromium.launch({ executablePath, headless: true, args: FLAGS });
}
