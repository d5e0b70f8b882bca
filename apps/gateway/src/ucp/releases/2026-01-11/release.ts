/**
 * UCP 2026-01-11 (openapi/ucp/2026-01-11/), the older release this gateway speaks: checkout with
 * its extensions and the order (its webhooks; `GET /orders/{id}` and the order update, which its
 * binding lacks, served too). How it differs from 2026-04-08:
 * - its documents on ucp.dev are not dated; its profile keys transports inside one service object,
 *   lists capabilities as an array of `{name, version, …}` and puts handlers in `payment.handlers`
 *   (the checkout's `payment.handlers` too); it has no `supported_versions`; one profile schema serves
 *   business and platform, and a platform profile may leave `ucp.services` out (its overview's example does);
 * - negotiation: "if platform version ≤ business version: Business MUST process the request";
 * - no envelope for a business outcome: every refusal is `{status: "requires_escalation", messages}`,
 *   400 for a negotiation failure or an outcome (a creation the stock cannot fill is refused), else
 *   its own status (404, 409, …); discounts and reductions are positive amounts (its schema forbids negatives);
 * - checkout requests: `currency` and `payment` are optional (its own examples send neither); a
 *   completion sends `payment_data`, the instrument itself;
 * - the order has no `currency`, no `original` quantity, no `removed` line, and a refund's `amount`;
 * - an order webhook's body adds `event_id` and `created_time`, signed by a detached JWS (RFC 7797) in `Request-Signature`;
 * - MCP: openrpc.json's 5 checkout tools; the profile travels in the request's `_meta.ucp.profile`,
 *   the key in the `idempotency_key` argument; complete takes `payment`; every refusal is an error.
 */
import { signUcpDetachedJws } from '@commerce-gateway/webhooks';
import type { PaymentHandlerDeclaration } from '../../../payments/payment-provider.js';
import { CAPABILITY, SHOPPING_SERVICE } from '../../capabilities.js';
import { CARD_INSTRUMENT, TEST_HANDLER } from '../../payment-handlers.js';
import type { CapabilityEntry, OfferedHandlers, Release } from '../release.js';

type Json = Record<string, unknown>;

const version = '2026-01-11';
const documentsUrl = 'https://ucp.dev';

/** A provider's handler as a `payment.handlers[]` entry. */
function providerHandler(handler: PaymentHandlerDeclaration): Json {
  const { id, name, version: handlerVersion, spec, config_schema, config } = handler;
  return { id, name, version: handlerVersion, spec, config_schema, instrument_schemas: [CARD_INSTRUMENT], config: { ...config } };
}

/** `payment.handlers` (profile and checkout answers alike): the test handler, when offered, then the provider's. */
function paymentHandlers({ testHandler, provider = [] }: OfferedHandlers): Json[] {
  const test = testHandler
    ? [
        {
          id: TEST_HANDLER.id,
          name: TEST_HANDLER.name,
          version,
          spec: TEST_HANDLER.spec,
          config_schema: TEST_HANDLER.schema,
          instrument_schemas: [CARD_INSTRUMENT],
          config: { supported_tokens: [...TEST_HANDLER.tokens] },
        },
      ]
    : [];
  return [...test, ...provider.map(providerHandler)];
}

const capabilityRegistry = (entries: readonly CapabilityEntry[]): CapabilityEntry[] => entries.map((entry) => ({ ...entry }));

/**
 * The completion tool takes `payment` (payment.json: `instruments`, `selected_instrument_id`), the
 * REST operation `{payment_data: <instrument>}` (payment_data.json) — the selected instrument, or
 * the only one. Without one the body is `{}`, which REST refuses as its schema says.
 */
function paymentData(payment: Json | undefined): Json {
  const instruments = Array.isArray(payment?.instruments) ? (payment.instruments as Json[]) : [];
  const chosen = instruments.find((instrument) => instrument.id === payment?.selected_instrument_id) ?? (instruments.length === 1 ? instruments[0] : undefined);
  return chosen ? { payment_data: chosen } : {};
}

export const release2026_01_11: Release = {
  version,
  documentsUrl,
  capabilities: [CAPABILITY.checkout, CAPABILITY.fulfillment, CAPABILITY.discount, CAPABILITY.buyerConsent, CAPABILITY.order],
  // Its clients read `GET /orders/{id}` relative to the UCP endpoint, which its binding does not define.
  rest: { binding: 'openapi.json', alsoServed: ['get_order', 'update_order'] },
  negotiation: { linksOlderReleases: false, processesOlderPlatforms: true },
  schemas: {
    // Its ucp.json refers to ../services/service_schema.json.
    extraFiles: ['services/service_schema.json'],
    profileFragment: () => '',
    platformServicesOptional: true,
  },
  capabilityRegistry,
  paymentHandlers,

  businessProfile({ endpoints, capabilities, handlers }) {
    return {
      ucp: {
        version,
        services: {
          [SHOPPING_SERVICE]: {
            version,
            spec: `${documentsUrl}/specification/overview`,
            rest: { schema: `${documentsUrl}/services/shopping/rest.openapi.json`, endpoint: endpoints.rest },
            mcp: { schema: `${documentsUrl}/services/shopping/mcp.openrpc.json`, endpoint: endpoints.mcp },
          },
        },
        capabilities: capabilityRegistry(capabilities),
      },
      payment: { handlers: paymentHandlers(handlers) },
    };
  },

  // As its overview shows a Platform Profile: no `services` (profile-fetcher.ts).
  devPlatformProfile: (capabilities) => ({ ucp: { version, capabilities: capabilityRegistry(capabilities) } }),

  // The handlers are the checkout's `payment.handlers`, not the envelope's.
  envelope: (capabilities) => ({ version, capabilities: capabilities.map((name) => ({ name, version })) }),

  answer({ code, content, status, negotiation, path }) {
    // No envelope: a negotiation failure, or an outcome 2026-04-08 answers 200, is 400 ("cannot be served").
    return {
      status: negotiation || status < 400 ? 400 : status,
      body: { status: 'requires_escalation', messages: [{ type: 'error', code, ...(path ? { path } : {}), content, severity: 'requires_buyer_input' }] },
    };
  },

  reduction: (amount) => amount,

  checkout: {
    optionalInRequests: ['currency', 'payment'],
    extensionDefinition: 'checkout',
    completionSchema: 'payment_data.json',
    instrumentOf: (body) => body.payment_data as Json | undefined,
    missingInstrument: { content: 'Send the payment instrument to pay with in payment_data', path: '$.payment_data' },
    payment: (instrument, handlers) => ({
      handlers: paymentHandlers(handlers),
      ...(instrument ? { selected_instrument_id: instrument.id } : {}),
      instruments: instrument ? [instrument] : [],
    }),
    shortageAtCreation: 'refuse',
  },

  order: {
    removedLines: false,
    originalQuantity: false,
    currency: false,
    destinationFullName: true,
    adjustmentAmount: (amount) => ({ amount }),
  },

  // Its `order_event_webhook` body, signed by a detached JWS; UCP-Agent too, as it asks for the business's identity "in webhook path or headers".
  orderWebhook({ order, event, headers, signer }) {
    const body = JSON.stringify({ ...order, event_id: event.id, created_time: event.created });
    return { body, headers: { ...headers, 'Request-Signature': signUcpDetachedJws(body, signer.privateKey, { keyid: signer.kid }) } };
  },

  mcp: {
    openRpc: 'services/shopping/openrpc.json',
    // overview.md "Platform Advertisement on Request".
    profileOf(_args, requestMeta) {
      const profile = ((requestMeta?.ucp ?? {}) as Json).profile;
      return typeof profile === 'string' && URL.canParse(profile) ? profile : undefined;
    },
    profileField: '_meta.ucp.profile (the platform profile URL, in the request params)',
    idempotencyKeyOf: (args) => args.idempotency_key,
    bodyArguments: { complete_checkout: 'payment' },
    restBody: (argument, value) => (argument === 'payment' ? paymentData(value as Json | undefined) : value),
    outcomesAreResults: false,
    protocolStatus: false,
  },
};
