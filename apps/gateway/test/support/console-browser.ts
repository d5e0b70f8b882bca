/**
 * The console's browser tests' shared part: Debian's headless Chromium through playwright-core
 * (the tests skip, saying so, without it), a signed-in page, and screenshots at laptop (1366 px)
 * and phone (390 px) widths written to test-results/console-<name>-<width>.png for review.
 */
import { existsSync, mkdirSync } from 'node:fs';
import { join } from 'node:path';
import { chromium, type Browser, type Page } from 'playwright-core';
import { packageRoot } from '../../src/db/paths.js';

export const CHROMIUM = process.env.CHROMIUM_PATH ?? '/usr/bin/chromium';
export const chromiumAvailable = existsSync(CHROMIUM);
export const SHOTS = join(packageRoot, 'test-results');
export const LAPTOP = { width: 1366, height: 900 };
export const PHONE = { width: 390, height: 844 };

export interface ConsoleBrowser {
  browser: Browser;
  page: Page;
  /** Requests the page made to another origin (the console fetches nothing from elsewhere). */
  elsewhere: string[];
  shoot(name: string): Promise<void>;
  close(): Promise<void>;
}

/** Chromium with one page, signed in to the console at `gatewayUrl` with `credential`. */
export async function openConsole(gatewayUrl: string, credential: string): Promise<ConsoleBrowser> {
  mkdirSync(SHOTS, { recursive: true });
  const browser = await chromium.launch({ executablePath: CHROMIUM, args: ['--headless', '--no-sandbox', '--disable-gpu', '--disable-background-networking', '--disable-component-update', '--disable-sync'] });
  const page = await browser.newPage({ viewport: LAPTOP });
  const origin = new URL(gatewayUrl).origin;
  const elsewhere: string[] = [];
  page.on('request', (request) => {
    if (!request.url().startsWith(origin) && !/^(data|blob|about):/.test(request.url())) elsewhere.push(request.url());
  });
  // The console asks in the page; a browser dialog would be a regression, and fails the test that meets it.
  page.on('dialog', (dialog) => {
    elsewhere.push(`dialog: ${dialog.message()}`);
    void dialog.dismiss();
  });
  await page.goto(`${gatewayUrl}/console`);
  await page.getByLabel('Operator credential').fill(credential);
  await page.getByRole('button', { name: 'Sign in' }).click();
  await page.getByRole('heading', { name: 'Home' }).waitFor({ timeout: 20_000 });
  return {
    browser,
    page,
    elsewhere,
    async shoot(name) {
      for (const [width, size] of [['laptop', LAPTOP], ['phone', PHONE]] as const) {
        await page.setViewportSize(size);
        await page.screenshot({ path: join(SHOTS, `console-${name}-${width}.png`), fullPage: true });
      }
      await page.setViewportSize(LAPTOP);
    },
    close: () => browser.close(),
  };
}
