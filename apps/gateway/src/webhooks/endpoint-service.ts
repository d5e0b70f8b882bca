/**
 * A merchant's webhook endpoints: add one, rotate its signing secret, enable it again after it
 * was disabled (it answered 410). What `gateway webhooks …` runs; domain errors only.
 */
import { InvalidStateError, NotFoundError } from '../errors.js';
import { newEndpointSecret, rotatedSecrets } from './endpoint-secrets.js';
import type { EndpointRow, WebhookProtocol, WebhookStore } from './webhook-store.js';

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
}

const unknownEndpoint = (id: string) => new NotFoundError(`no webhook endpoint ${JSON.stringify(id)}`);
