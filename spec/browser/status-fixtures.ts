// Shared by the status, preview, events and refetch specs of the playground (issue 12).
import type { Page } from 'playwright-core';
import { REFERENCE_PATHS, type ReferenceBackend } from '../../lib/testing';
import type { Rig } from './lifecycle-fixtures';

/** A new tab at `/` plus the query, without waiting for the first usage (it may be held or fail). */
export async function openNow(rig: Rig, query = ''): Promise<Page> {
  const page = await rig.context.newPage();
  await page.goto(`${rig.playground.url}/${query}`);
  return page;
}

/** Waits until the element `data-testid=id` shows text matching `pattern` in full. */
export async function showsMatch(page: Page, id: string, pattern: RegExp, timeout = 10_000): Promise<void> {
  await page
    .locator(`[data-testid="${id}"]`)
    .filter({ hasText: new RegExp(`^(?:${pattern.source})$`) })
    .waitFor({ timeout });
}

/** The text of the element `data-testid=id`, now. */
export async function textOf(page: Page, id: string): Promise<string> {
  return (await page.locator(`[data-testid="${id}"]`).textContent()) ?? '';
}

/** A `data-*` attribute of the element `data-testid=id`, now. */
export async function dataOf(page: Page, id: string, name: string): Promise<string | null> {
  return page.locator(`[data-testid="${id}"]`).getAttribute(`data-${name}`);
}

/** Usage fetches the backend received: GETs of the free count and of the balance. */
export function usageGets(backend: ReferenceBackend): { count: number; balance: number } {
  const gets = backend.requests().filter((r) => r.method === 'GET');
  return {
    count: gets.filter((r) => r.path === REFERENCE_PATHS.freeTrialCount).length,
    balance: gets.filter((r) => r.path === REFERENCE_PATHS.balance).length,
  };
}

/** The status line once the client is ready and idle. */
export const READY = /Ready \(fetched \d+ s ago\)/;

/** Waits `ms` of real time: only to show that nothing happens meanwhile. */
export const idle = (ms: number): Promise<void> => new Promise((resolve) => setTimeout(resolve, ms));
