import { describe, expect, it } from 'vitest';
import { ConfigError, loadConfig } from './config.js';

/** Production as it must be configured for ACP: its public origin is a setting, not the request's Host. */
const PRODUCTION = { GATEWAY_ENV: 'production', PUBLIC_BASE_URL: 'https://gateway.shop.example' };

describe('ACP settings', () => {
  it('takes payments with the test provider in development and sandbox, with none in production', () => {
    expect(loadConfig({}).paymentProvider).toBe('test');
    expect(loadConfig({ GATEWAY_ENV: 'sandbox' }).paymentProvider).toBe('test');
    expect(loadConfig(PRODUCTION).paymentProvider).toBe('none');
  });

  it('refuses the test provider in production, naming the setting', () => {
    expect(() => loadConfig({ ...PRODUCTION, PAYMENT_PROVIDER: 'test' })).toThrow(ConfigError);
    expect(() => loadConfig({ ...PRODUCTION, PAYMENT_PROVIDER: 'test' })).toThrow(/PAYMENT_PROVIDER/);
    expect(() => loadConfig({ PAYMENT_PROVIDER: 'adyen' })).toThrow(/PAYMENT_PROVIDER="adyen" is not one of test, stripe, none/);
  });

  it('reads ORDER_URL_TEMPLATE (which must hold {order_id}) and PUBLIC_BASE_URL', () => {
    expect(loadConfig({ ORDER_URL_TEMPLATE: 'https://shop.example/orders/{order_id}' }).orderUrlTemplate).toBe('https://shop.example/orders/{order_id}');
    expect(() => loadConfig({ ORDER_URL_TEMPLATE: 'https://shop.example/orders' })).toThrow(/\{order_id\}/);
    expect(loadConfig({ PUBLIC_BASE_URL: 'https://gw.example/' }).publicBaseUrl).toBe('https://gw.example');
    expect(() => loadConfig({ PUBLIC_BASE_URL: 'gw.example' })).toThrow(/PUBLIC_BASE_URL/);
  });

  it('refuses production without PUBLIC_BASE_URL, in one line naming it; development and sandbox may go without', () => {
    for (const unset of [{}, { PUBLIC_BASE_URL: '' }, { PUBLIC_BASE_URL: '  ' }]) {
      let error: unknown;
      try {
        loadConfig({ GATEWAY_ENV: 'production', ...unset });
      } catch (caught) {
        error = caught;
      }
      expect(error).toBeInstanceOf(ConfigError);
      expect((error as Error).message).toMatch(/^GATEWAY_ENV=production needs PUBLIC_BASE_URL/);
      expect((error as Error).message).not.toContain('\n');
    }
    expect(loadConfig({ GATEWAY_ENV: 'production', PUBLIC_BASE_URL: 'https://gateway.shop.example' }).publicBaseUrl).toBe('https://gateway.shop.example');
    expect(loadConfig({ GATEWAY_ENV: 'sandbox' }).publicBaseUrl).toBeUndefined();
    expect(loadConfig({}).publicBaseUrl).toBeUndefined();
  });

  it('takes PUBLIC_BASE_URL as a bare http(s) origin, normalized as browsers write origins', () => {
    expect(loadConfig({ PUBLIC_BASE_URL: 'https://Gateway.Shop.Example:443/' }).publicBaseUrl).toBe('https://gateway.shop.example');
    expect(loadConfig({ PUBLIC_BASE_URL: 'http://127.0.0.1:8080' }).publicBaseUrl).toBe('http://127.0.0.1:8080');
    for (const bad of ['https://gw.example/acp', 'https://user:secret@gw.example', 'https://gw.example/?x=1', 'https://gw.example?', 'https://gw.example/#top', 'ftp://gw.example', '/relative']) {
      expect(() => loadConfig({ PUBLIC_BASE_URL: bad }), bad).toThrow(/^PUBLIC_BASE_URL/);
    }
  });
});
