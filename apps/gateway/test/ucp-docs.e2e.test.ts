/**
 * /docs shows the UCP profile beside our API and ACP's: `GET /ucp/openapi.json` is the official
 * 2026-04-08 REST binding (bundled, unchanged but for the note and the server), listed third in
 * /docs, and rendered in a real browser (Debian's headless Chromium; skipped, saying so, without it).
 */
import { existsSync, mkdirSync } from 'node:fs';
import { join } from 'node:path';
import { chromium } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { packageRoot } from '../src/db/paths.js';
import { call } from './support/http.js';
import { startTestGateway, type TestGateway } from './support/test-gateway.js';

const CHROMIUM = process.env.CHROMIUM_PATH ?? '/usr/bin/chromium';
const available = existsSync(CHROMIUM);
if (!available) console.warn(`[docs] SKIPPED: no Chromium at ${CHROMIUM}; the UCP /docs browser test did not run`);

let gateway: TestGateway;
beforeAll(async () => {
  gateway = await startTestGateway();
});
afterAll(() => gateway?.close());

describe('GET /ucp/openapi.json', () => {
  it('is the official REST binding under /ucp with the profile note, every operation of it, without a key', async () => {
    const reply = await call(`${gateway.url}/ucp/openapi.json`);
    expect(reply.status).toBe(200);
    expect(reply.body.servers).toEqual([{ url: '/ucp', description: 'This gateway (UCP profile)' }]);
    expect(reply.body.info.description).toMatch(/^\*\*This gateway's UCP profile\.\*\*/);
    expect(reply.body.info.description).toContain('mock_payment_handler');
    // The deviations where the official documents contradict themselves are written in the contract (issue 37).
    for (const deviation of ['`ucp.services`', '`fulfillment.methods[]`', '`PUT /orders/{id}`', '`checkout_not_modifiable`', '`type: card`', '/ucp/dev/platform-profile.json']) {
      expect(reply.body.info.description).toContain(deviation);
    }
    const operations = Object.values(reply.body.paths as Record<string, Record<string, { operationId?: string }>>).flatMap((item) => Object.values(item).map((op) => op.operationId));
    expect(operations).toEqual(expect.arrayContaining(['create_checkout', 'get_checkout', 'update_checkout', 'complete_checkout', 'cancel_checkout', 'search_catalog', 'get_order']));
    // Bundled: every reference resolves inside the document.
    expect(JSON.stringify(reply.body)).not.toMatch(/"\$ref":"(?!#)/);
  });

  it('is listed in /docs after our contract and ACP', async () => {
    const init = await (await fetch(`${gateway.url}/docs/init.js`)).text();
    expect(init.indexOf("url: '/acp/openapi.json'")).toBeLessThan(init.indexOf("url: '/ucp/openapi.json'"));
  });
});

describe.skipIf(!available)('/docs?api=ucp in headless Chromium', () => {
  it('renders the UCP operations, fetching nothing from elsewhere', async () => {
    const browser = await chromium.launch({ executablePath: CHROMIUM, args: ['--headless', '--no-sandbox', '--disable-gpu', '--disable-background-networking', '--disable-component-update', '--disable-sync'] });
    try {
      const page = await browser.newPage({ viewport: { width: 1440, height: 1000 } });
      const origin = new URL(gateway.url).origin;
      const elsewhere: string[] = [];
      page.on('request', (request) => {
        if (!request.url().startsWith(origin) && !/^(data|blob|about):/.test(request.url())) elsewhere.push(request.url());
      });
      await page.goto(`${gateway.url}/docs?api=ucp`, { waitUntil: 'networkidle' });
      await page.getByText('Create Checkout', { exact: true }).first().waitFor({ timeout: 20_000 });
      mkdirSync(join(packageRoot, 'test-results'), { recursive: true });
      await page.screenshot({ path: join(packageRoot, 'test-results', 'docs-ucp.png') });
      expect(elsewhere).toEqual([]);
    } finally {
      await browser.close();
    }
  }, 60_000);
});
