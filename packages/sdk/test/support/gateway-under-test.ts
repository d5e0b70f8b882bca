import { inject } from 'vitest';

/** What global-setup.ts hands every e2e file. */
export interface GatewayUnderTest {
  url: string;
  /** The key `serve` printed when it seeded merchant `demo` (sandbox tier: 60 requests a minute). */
  devKey: string;
  keys: {
    /** Merchant `demo`, every scope, limits the tests never meet. */
    main: string;
    /** Merchant `demo`, 1 request a minute. */
    limited: string;
    /** Merchants `demo` and `shop2` (so Merchant-Id is needed), request signing on. */
    signed: string;
  };
  /** The signing secret of `keys.signed`. */
  signingSecret: string;
}

declare module 'vitest' {
  export interface ProvidedContext {
    gateway: GatewayUnderTest;
  }
}

export function gatewayUnderTest(): GatewayUnderTest {
  return inject('gateway');
}
