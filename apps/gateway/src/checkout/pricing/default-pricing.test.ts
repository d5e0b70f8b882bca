import { describe, expect, it } from 'vitest';
import { loadConfig } from '../../config/config.js';
import { defaultPricing } from './default-pricing.js';

const line = { quantity: 1, unitAmount: 10_000n, requiresShipping: true, taxable: true };
const shippingOf = async (env: Record<string, string>) => (await defaultPricing(loadConfig(env).pricing).totals('USD', [line], null)).shipping;

describe('defaultPricing from the settings', () => {
  it('keeps the contract’s defaults (5.00, free from 50.00) for what is unset', async () => {
    expect(await shippingOf({})).toBe(0n); // 100.00 ships free from 50.00
    expect(await shippingOf({ SHIPPING_FREE_FROM: 'never' })).toBe(500n); // the default rate, never free
    expect(await shippingOf({ SHIPPING_FLAT_RATE: '7' })).toBe(0n); // the default threshold
    expect(await shippingOf({ SHIPPING_FLAT_RATE: '7', SHIPPING_FREE_FROM: '200' })).toBe(700n);
  });
});
