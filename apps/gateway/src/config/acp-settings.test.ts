import { describe, expect, it } from 'vitest';
import { ConfigError, loadConfig } from './config.js';

describe('ACP settings', () => {
  it('takes payments with the test provider in development and sandbox, with none in production', () => {
    expect(loadConfig({}).paymentProvider).toBe('test');
    expect(loadConfig({ GATEWAY_ENV: 'sandbox' }).paymentProvider).toBe('test');
    expect(loadConfig({ GATEWAY_ENV: 'production' }).paymentProvider).toBe('none');
  });

  it('refuses the test provider in production, naming the setting', () => {
    expect(() => loadConfig({ GATEWAY_ENV: 'production', PAYMENT_PROVIDER: 'test' })).toThrow(ConfigError);
    expect(() => loadConfig({ GATEWAY_ENV: 'production', PAYMENT_PROVIDER: 'test' })).toThrow(/PAYMENT_PROVIDER/);
    expect(() => loadConfig({ PAYMENT_PROVIDER: 'stripe' })).toThrow(/PAYMENT_PROVIDER="stripe" is not one of test, none/);
  });

  it('reads ORDER_URL_TEMPLATE (which must hold {order_id}) and PUBLIC_BASE_URL', () => {
    expect(loadConfig({ ORDER_URL_TEMPLATE: 'https://shop.example/orders/{order_id}' }).orderUrlTemplate).toBe('https://shop.example/orders/{order_id}');
    expect(() => loadConfig({ ORDER_URL_TEMPLATE: 'https://shop.example/orders' })).toThrow(/\{order_id\}/);
    expect(loadConfig({ PUBLIC_BASE_URL: 'https://gw.example/' }).publicBaseUrl).toBe('https://gw.example');
    expect(() => loadConfig({ PUBLIC_BASE_URL: 'gw.example' })).toThrow(/PUBLIC_BASE_URL/);
  });
});
