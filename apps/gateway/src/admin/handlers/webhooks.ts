import type { Request } from 'express';
import { InvalidStateError, NotFoundError } from '../../kernel/errors.js';
import type { OperationHandlers } from '../../http/operation-handlers.js';
import { DEFAULT_ROTATION_OVERLAP_MS } from '../../webhooks/endpoint-secrets.js';
import type { WebhookEndpointService } from '../../webhooks/endpoint-service.js';
import { checkEndpointUrl, type EndpointUrlPolicy } from '../../webhooks/endpoint-url.js';
import type { WebhookProtocol } from '../../webhooks/webhook-store.js';
import type { DeliveryLog } from '../../webhooks/delivery-log.js';
import type { DeliveryView, EndpointView } from '../../webhooks/delivery-log-store.js';
import { servesMerchant } from '../operator.js';
import { auditTarget, operatorOf } from '../operator-context.js';
import { pageOf, positionOf } from '../page-cursor.js';
import type { PageParams } from '../page-cursor.js';
import { deliveryWire, endpointWire, healthWire } from '../wire.js';
import { pageParams, pathParam } from './page-params.js';

/** The read of a page of the admin API: from its cursor's position, one row more than shown (pageOf tells whether more follow). */
const pageRead = (params: PageParams) => ({ position: positionOf(params), take: params.limit + 1 });

/** The endpoint of the path, among the operator's merchants (else 404, as if it did not exist). */
async function endpointOf(req: Request, deliveries: DeliveryLog): Promise<EndpointView> {
  const id = pathParam(req, 'endpoint_id');
  const endpoint = await deliveries.endpoint(id);
  auditTarget(req, id, endpoint?.merchantId);
  if (!endpoint || !servesMerchant(operatorOf(req), endpoint.merchantId)) throw new NotFoundError(`No webhook endpoint ${JSON.stringify(id)} among this credential's merchants`, 'endpoint_id');
  return endpoint;
}

async function deliveryOf(req: Request, deliveries: DeliveryLog): Promise<DeliveryView> {
  const id = pathParam(req, 'delivery_id');
  const delivery = await deliveries.delivery(id);
  auditTarget(req, id, delivery?.merchantId);
  if (!delivery || !servesMerchant(operatorOf(req), delivery.merchantId)) throw new NotFoundError(`No delivery ${JSON.stringify(id)} among this credential's merchants`, 'delivery_id');
  return delivery;
}

export function webhookOperations(endpoints: WebhookEndpointService, deliveries: DeliveryLog, urls: EndpointUrlPolicy): OperationHandlers {
  const current = async (id: string) => endpointWire((await deliveries.endpoint(id))!);
  return {
    listWebhookEndpoints: async (req, res) => {
      const merchantId = pathParam(req, 'merchant_id');
      const params = pageParams(req);
      const [rows, health] = await Promise.all([deliveries.endpoints(merchantId, pageRead(params)), deliveries.health(merchantId)]);
      res.json(pageOf(rows, params.limit, (e) => ({ ...endpointWire(e), health: healthWire(health(e.id)) })));
    },
    getWebhookEndpoint: async (req, res) => {
      const endpoint = await endpointOf(req, deliveries);
      res.json({ ...endpointWire(endpoint), health: healthWire((await deliveries.health(endpoint.merchantId))(endpoint.id)) });
    },
    createWebhookEndpoint: async (req, res) => {
      const body = req.body as { url: string; protocol?: WebhookProtocol };
      await checkEndpointUrl(body.url, urls);
      const created = await endpoints.add(pathParam(req, 'merchant_id'), body.url, body.protocol ?? 'gateway');
      auditTarget(req, created.id);
      res.status(201).json({ webhook_endpoint: await current(created.id), secret: created.secret });
    },
    removeWebhookEndpoint: async (req, res) => {
      const endpoint = await endpointOf(req, deliveries);
      await endpoints.remove(endpoint.id);
      res.json(endpointWire(endpoint));
    },
    disableWebhookEndpoint: async (req, res) => {
      const endpoint = await endpointOf(req, deliveries);
      await endpoints.disable(endpoint.id);
      res.json(await current(endpoint.id));
    },
    enableWebhookEndpoint: async (req, res) => {
      const endpoint = await endpointOf(req, deliveries);
      await endpoints.enable(endpoint.id);
      res.json(await current(endpoint.id));
    },
    rotateWebhookEndpointSecret: async (req, res) => {
      const endpoint = await endpointOf(req, deliveries);
      const overlap = (req.body as { overlap_seconds?: number } | undefined)?.overlap_seconds;
      const rotated = await endpoints.rotateSecret(endpoint.id, overlap === undefined ? DEFAULT_ROTATION_OVERLAP_MS : overlap * 1000);
      res.json({ webhook_endpoint_id: rotated.id, secret: rotated.secret, previous_secret_expires_at: rotated.previousSecretExpiresAt?.toISOString() ?? null });
    },
    listEndpointDeliveries: async (req, res) => {
      const endpoint = await endpointOf(req, deliveries);
      const params = pageParams(req);
      res.json(pageOf(await deliveries.deliveries({ endpointId: endpoint.id }, pageRead(params)), params.limit, deliveryWire));
    },
    listEventDeliveries: async (req, res) => {
      const eventId = pathParam(req, 'event_id');
      const merchantId = await deliveries.eventMerchant(eventId);
      if (!merchantId || !servesMerchant(operatorOf(req), merchantId)) throw new NotFoundError(`No event ${JSON.stringify(eventId)} among this credential's merchants`, 'event_id');
      const params = pageParams(req);
      res.json(pageOf(await deliveries.deliveries({ eventId }, pageRead(params)), params.limit, deliveryWire));
    },
    getDelivery: async (req, res) => {
      res.json(deliveryWire(await deliveryOf(req, deliveries)));
    },
    resendDelivery: async (req, res) => {
      const delivery = await deliveryOf(req, deliveries);
      const endpoint = await deliveries.endpoint(delivery.endpointId);
      if (endpoint?.disabledAt) throw new InvalidStateError(`Webhook endpoint ${delivery.endpointId} is disabled; enable it first (POST /admin/webhook_endpoints/${delivery.endpointId}/enable)`);
      await deliveries.requeue(delivery.id);
      res.json(deliveryWire((await deliveries.delivery(delivery.id))!));
    },
  };
}
