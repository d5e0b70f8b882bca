import { describe, expect, it } from 'vitest';
import { loadConfig } from './config.js';
import { dataDir, debugLogging, embeddedDatabase, feedApiToken, paymentFaultAt } from './standalone-settings.js';

describe('settings read one at a time', () => {
  it('reads DATA_DIR and DATABASE_URL as loadConfig does, and never throws', () => {
    expect(dataDir({})).toBe('.data');
    expect(dataDir({ DATA_DIR: '  /srv/gw ' })).toBe('/srv/gw');
    expect(dataDir({ DATA_DIR: '/srv/gw' })).toBe(loadConfig({ DATA_DIR: '/srv/gw' }).dataDir);
    expect(embeddedDatabase({})).toBe(true);
    expect(embeddedDatabase({ DATABASE_URL: ' ' })).toBe(true);
    expect(embeddedDatabase({ DATABASE_URL: 'not a url' })).toBe(false); // loadConfig refuses it; the CLI's entry only routes on it
  });

  it('reads LOG_LEVEL=debug, FEED_API_TOKEN, and PAYMENT_FAULT_AT outside production only', () => {
    expect(debugLogging({ LOG_LEVEL: 'debug' })).toBe(true);
    expect(debugLogging({ LOG_LEVEL: 'info' })).toBe(false);
    expect(feedApiToken({ FEED_API_TOKEN: 'tok' })).toBe('tok');
    expect(paymentFaultAt({ PAYMENT_FAULT_AT: 'psp-authorized:2' })).toBe('psp-authorized:2');
    expect(paymentFaultAt({ PAYMENT_FAULT_AT: 'psp-authorized', GATEWAY_ENV: 'production' })).toBeUndefined();
  });
});
