/**
 * A merchant's webhook endpoints: add one, rotate its signing secret, enable it again after it
 * was disabled (it answered 410). What `gateway webhooks …` runs; domain errors only.
 */
import { InvalidStateError, NotFoundError } from '../kernel/errors.js';
import { newEndpointSecret, rotatedSecrets } from './endpoint-secrets.js';
import type { DeliveryFilter, DeliveryRecord, EndpointRow, EndpointSummary, WebhookProtocol, WebhookStore } from './webhook-store.js';

export interface RotatedSecret {
  id: string;
  secret: string;
  /** Until when the previous secret still signs (null: retired now). */
  previousSecretExpiresAt: Date | null;
}

export class WebhookEndpointService {
  constructor(private readonly store: WebhookStore) {}

  /** Adds an endpoint with `secret`, or a new one when none is given; NotFoundError for an unknown merchant. */
  async add(merchantId: string, url: string, protocol: WebhookProtocol, secret: string = newEndpointSecret()): Promise<EndpointRow> {
    if (!(await this.store.merchantExists(merchantId))) throw new NotFoundError(`no merchant ${JSON.stringify(merchantId)}`);
    return this.store.createEndpoint(merchantId, url, secret, protocol);
  }

  /** A new secret; the previous one signs too for `overlapMs`. InvalidStateError when another rotation won the race. */
  async rotateSecret(endpointId: string, overlapMs: number): Promise<RotatedSecret> {
    const endpoint = await this.store.findEndpoint(endpointId);
    if (!endpoint) throw unknownEndpoint(endpointId);
    const secrets = rotatedSecrets(endpoint, overlapMs);
    if (!(await this.store.replaceSecrets(endpoint.id, endpoint.secret, secrets))) {
      throw new InvalidStateError(`the secret of ${endpoint.id} changed during the rotation (another rotation?); run the command again`);
    }
    return { id: endpoint.id, secret: secrets.secret, previousSecretExpiresAt: secrets.previousSecretExpiresAt };
  }

  async enable(endpointId: string): Promise<void> {
    if (!(await this.store.enableEndpoint(endpointId))) throw unknownEndpoint(endpointId);
  }

  /** No new deliveries to the endpoint; its pending ones are abandoned when due. */
  async disable(endpointId: string, now = new Date()): Promise<void> {
    if (!(await this.store.disableEndpoint(endpointId, now))) throw unknownEndpoint(endpointId);
  }

  /** Deletes the endpoint with its delivery log. */
  async remove(endpointId: string): Promise<void> {
    if (!(await this.store.removeEndpoint(endpointId))) throw unknownEndpoint(endpointId);
  }

  list(merchantId?: string): Promise<EndpointSummary[]> {
    return this.store.listEndpoints(merchantId);
  }

  /** Deliveries newest first, each with its attempts (time, status, latency, error) and next attempt. */
  deliveries(filter: DeliveryFilter): Promise<DeliveryRecord[]> {
    return this.store.listDeliveries(filter);
  }

  /** Sends a delivery again: due now, pending; InvalidStateError when its endpoint is disabled. */
  async resend(deliveryId: string, now = new Date()): Promise<void> {
    const [delivery] = await this.store.listDeliveries({ deliveryId, limit: 1 });
    if (!delivery) throw new NotFoundError(`no webhook delivery ${JSON.stringify(deliveryId)}`);
    const endpoint = await this.store.findEndpoint(delivery.endpointId);
    if (endpoint?.disabledAt) throw new InvalidStateError(`endpoint ${delivery.endpointId} is disabled: enable it first (webhooks enable --endpoint ${delivery.endpointId})`);
    if (!(await this.store.resendDelivery(deliveryId, now))) throw new NotFoundError(`no webhook delivery ${JSON.stringify(deliveryId)}`);
  }
}

const unknownEndpoint = (id: string) => new NotFoundError(`no webhook endpoint ${JSON.stringify(id)}`);
