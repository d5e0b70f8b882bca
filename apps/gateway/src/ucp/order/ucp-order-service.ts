/**
 * UCP's view of our orders: the orders placed through UCP, as the UCP order of a release
 * (ucp-order.ts). An order of another merchant, one not placed through UCP, or one placed by
 * another platform is not found — existence is never revealed. Changes go through OrderService,
 * so their events reach the platform's webhook (outbox.ts).
 */
import type { CreateFulfillmentRequest, Order } from '../../contract/types.js';
import { NotFoundError } from '../../kernel/errors.js';
import type { OrderService } from '../../orders/order-service.js';
import { orderPermalink, type PermalinkSettings } from '../../storefront/order-permalink.js';
import { knownOrNewest } from '../releases/releases.js';
import type { UcpVersion } from '../ucp-version.js';
import { appendedFulfillments } from './order-update.js';
import { toUcpOrder, type UcpOrder } from './ucp-order.js';
import type { UcpOrderStore, UcpPlacement } from './ucp-order-store.js';

export class UcpOrderService {
  constructor(
    private readonly store: UcpOrderStore,
    private readonly orders: OrderService,
    private readonly permalinks: PermalinkSettings = {},
  ) {}

  private async placement(orderId: string, merchantId?: string, platformProfile?: string): Promise<UcpPlacement> {
    const placement = await this.store.placement(orderId);
    const visible = placement
      && (merchantId === undefined || placement.merchantId === merchantId)
      && (platformProfile === undefined || placement.agentProfile === null || sameUrl(placement.agentProfile, platformProfile));
    if (!visible) throw new NotFoundError(`No such order: ${orderId}`, 'id');
    return placement;
  }

  /**
   * The release an order is shown at: its checkout's, as a checkout's requests are answered at the
   * release it was created at. NotFoundError for an order this merchant and platform cannot see.
   */
  async release(merchantId: string, orderId: string, platformProfile?: string): Promise<UcpVersion> {
    const { version } = await this.placement(orderId, merchantId, platformProfile);
    return knownOrNewest(version).version;
  }

  /** The merchant's UCP order at `version`, for the platform that placed it (`platformProfile`: its UCP-Agent profile URL). */
  async get(merchantId: string, orderId: string, version: UcpVersion, platformProfile?: string): Promise<UcpOrder> {
    await this.placement(orderId, merchantId, platformProfile);
    const order = await this.orders.get(merchantId, orderId);
    return toUcpOrder(order, version, orderPermalink(this.permalinks, merchantId, order.id));
  }

  /**
   * Records the shipments a platform's order update appends (order-update.ts), one fulfillment each,
   * and answers the order as it is then. NotFoundError; UcpError for a body it cannot take; the
   * domain's InvalidRequestError / InvalidStateError (more units than are left, nothing left).
   */
  async update(merchantId: string, orderId: string, version: UcpVersion, body: unknown, platformProfile?: string): Promise<UcpOrder> {
    const current = await this.get(merchantId, orderId, version, platformProfile);
    for (const fulfillment of appendedFulfillments(current, body)) await this.orders.fulfil(merchantId, orderId, fulfillment);
    return this.get(merchantId, orderId, version, platformProfile);
  }

  /**
   * Testing: ships every unit left of a UCP order, whatever its merchant, with a tracking number (its
   * platform hears `order.fulfilled`); the order as its checkout's release shows it.
   * NotFoundError; InvalidStateError when nothing is left to ship.
   */
  async simulateShipping(orderId: string, now = new Date()): Promise<UcpOrder> {
    const { merchantId, version } = await this.placement(orderId);
    const trackingNumber = `SIM${now.getTime().toString(36).toUpperCase()}`;
    const request: CreateFulfillmentRequest = { carrier: 'Simulated Carrier', tracking_number: trackingNumber, tracking_url: `https://tracking.example/track/${trackingNumber}` };
    const order: Order = await this.orders.fulfil(merchantId, orderId, request);
    return toUcpOrder(order, knownOrNewest(version).version, orderPermalink(this.permalinks, merchantId, order.id));
  }
}

function sameUrl(a: string, b: string): boolean {
  try {
    return new URL(a).href === new URL(b).href;
  } catch {
    return a === b;
  }
}
