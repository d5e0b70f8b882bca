import type { Environment } from './config/environment.js';
import { resolveOptions, type CommerceGatewayOptions } from './config/options.js';
import { Transport } from './http/transport.js';
import { CheckoutSessions } from './resources/checkout-sessions.js';
import { Orders } from './resources/orders.js';
import { Products } from './resources/products.js';
import { Webhooks } from './resources/webhooks.js';

/**
 * The Commerce Gateway client: the contract's eleven operations, grouped by resource. Methods
 * resolve to the data itself and reject with a `CommerceGatewayError` subclass.
 *
 *   import { CommerceGateway } from '@commerce-gateway/sdk';
 *   const gw = new CommerceGateway({ apiKey: process.env.GATEWAY_API_KEY! });
 *   const { items } = await gw.products.search({ q: 'oak chair' });
 *   const session = await gw.checkoutSessions.create({ items: [{ product_id: items[0]!.id }] });
 */
export class CommerceGateway {
  readonly checkoutSessions: CheckoutSessions;
  readonly orders: Orders;
  readonly products: Products;
  readonly webhooks: Webhooks;
  /** The environment of the key (checked against `environment` when given). */
  readonly environment: Environment;
  readonly baseUrl: string;
  readonly apiVersion: string;

  /** @throws ConfigurationError for options that cannot work (unknown environment, key prefix of another environment, …). */
  constructor(options: CommerceGatewayOptions) {
    const resolved = resolveOptions(options);
    const transport = new Transport(resolved);
    this.environment = resolved.environment;
    this.baseUrl = resolved.baseUrl;
    this.apiVersion = resolved.apiVersion;
    this.checkoutSessions = new CheckoutSessions(transport);
    this.orders = new Orders(transport);
    this.products = new Products(transport);
    this.webhooks = new Webhooks(transport);
  }
}
