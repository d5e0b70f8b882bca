/**
 * UCP 2026-04-08 (openapi/ucp/2026-04-08/), the newest release this gateway speaks: checkout with
 * its extensions, the order, catalog search and lookup, and the cart. How it differs from 2026-01-11:
 * - its documents on ucp.dev are dated; its profile lists one service entry per transport, keys
 *   capabilities and `payment_handlers` by name, and links the older releases spoken
 *   (`supported_versions`, "Protocol Version"); the profile schema has a business and a platform definition;
 * - negotiation: a platform's version must be the current one or one `supported_versions` links
 *   ("Request-Time Validation");
 * - a transport error is `{code, content}` with its code's status (400 `invalid_profile_url`, 424
 *   `profile_unreachable`, 422 `profile_malformed` and `version_unsupported`); a business outcome
 *   (a resource not found or no longer changeable, `capabilities_incompatible`) is 200 with the error
 *   envelope (types/error_response.json: `ucp.status: "error"`, `messages`, severity `unrecoverable`);
 *   a creation the stock cannot fill is created, with its `out_of_stock` message; answers open with
 *   `ucp.status: "success"` and, for a checkout, its `payment_handlers`; reductions are negative;
 * - a completion selects an instrument of `payment.instruments`;
 * - the order has `currency`, `original` quantities, `removed` lines, refunds as signed `totals`;
 * - an order webhook carries the order alone, signed by RFC 9421 HTTP Message Signatures (ES256);
 * - MCP: mcp.openrpc.json's 13 tools; the profile is `meta["ucp-agent"].profile`, the key
 *   `meta["idempotency-key"]`; a business outcome is the tool's result, and a protocol error's HTTP
 *   status goes with the JSON-RPC error.
 */
import { signUcpRequest } from '@commerce-gateway/webhooks';
import type { PaymentHandlerDeclaration } from '../../../payments/payment-provider.js';
import { CAPABILITY, SHOPPING_SERVICE } from '../../capabilities.js';
import { TEST_HANDLER } from '../../payment-handlers.js';
import type { CapabilityEntry, OfferedHandlers, Release } from '../release.js';

type Json = Record<string, unknown>;
type Registry = Record<string, Json[]>;

const version = '2026-04-08';
const documentsUrl = `https://ucp.dev/${version}`;

/** The registry of a provider's handlers (keyed by name). */
function providerHandlers(handlers: readonly PaymentHandlerDeclaration[]): Registry {
  const registry: Registry = {};
  for (const handler of handlers) {
    const brands = Array.isArray(handler.config.accepted_brands) ? handler.config.accepted_brands : undefined;
    (registry[handler.name] ??= []).push({
      id: handler.id,
      version: handler.version,
      spec: handler.spec,
      schema: handler.config_schema,
      available_instruments: [{ type: 'card', ...(brands?.length ? { constraints: { brands } } : {}) }],
      config: { ...handler.config },
    });
  }
  return registry;
}

/** The `payment_handlers` registry (profile and `ucp` envelope of answers alike): the test handler, when offered, then the provider's. */
function paymentHandlers({ testHandler, provider = [] }: OfferedHandlers): Registry {
  const test: Registry = testHandler
    ? {
        [TEST_HANDLER.name]: [
          {
            id: TEST_HANDLER.id,
            version,
            spec: TEST_HANDLER.spec,
            schema: TEST_HANDLER.schema,
            available_instruments: [{ type: 'card' }],
            config: { supported_tokens: [...TEST_HANDLER.tokens] },
          },
        ],
      }
    : {};
  return { ...test, ...providerHandlers(provider) };
}

const capabilityRegistry = (entries: readonly CapabilityEntry[]): Record<string, Omit<CapabilityEntry, 'name'>[]> =>
  Object.fromEntries(entries.map(({ name, ...entry }) => [name, [entry]]));

/** One entry of the shopping service: a transport's binding. */
const serviceBinding = (transport: 'rest' | 'mcp', schema: string, endpoint?: string): Json => ({
  version,
  spec: `${documentsUrl}/specification/overview`,
  transport,
  schema: `${documentsUrl}/services/shopping/${schema}`,
  ...(endpoint !== undefined ? { endpoint } : {}),
});

export const release2026_04_08: Release = {
  version,
  documentsUrl,
  capabilities: [
    CAPABILITY.checkout,
    CAPABILITY.fulfillment,
    CAPABILITY.discount,
    CAPABILITY.buyerConsent,
    CAPABILITY.order,
    CAPABILITY.catalogSearch,
    CAPABILITY.catalogLookup,
    CAPABILITY.cart,
  ],
  rest: { binding: 'rest.openapi.json', alsoServed: ['update_order'] },
  negotiation: { linksOlderReleases: true, processesOlderPlatforms: false },
  schemas: {
    extraFiles: [],
    profileFragment: (kind) => `#/$defs/${kind}_profile`,
    platformServicesOptional: false,
  },
  capabilityRegistry,
  paymentHandlers,

  businessProfile({ endpoints, capabilities, handlers, supportedVersions }) {
    return {
      ucp: {
        version,
        ...(Object.keys(supportedVersions).length ? { supported_versions: { ...supportedVersions } } : {}),
        services: { [SHOPPING_SERVICE]: [serviceBinding('rest', 'rest.openapi.json', endpoints.rest), serviceBinding('mcp', 'mcp.openrpc.json', endpoints.mcp)] },
        capabilities: capabilityRegistry(capabilities),
        payment_handlers: paymentHandlers(handlers),
      },
    };
  },

  devPlatformProfile: (capabilities) => ({
    ucp: {
      version,
      services: { [SHOPPING_SERVICE]: [serviceBinding('rest', 'rest.openapi.json')] },
      capabilities: capabilityRegistry(capabilities),
      payment_handlers: {},
    },
  }),

  envelope: (capabilities, handlers) => ({
    version,
    status: 'success',
    capabilities: capabilityRegistry(capabilities.map((name) => ({ name, version }))),
    ...(handlers ? { payment_handlers: paymentHandlers(handlers) } : {}),
  }),

  answer({ code, content, status, resource, path }) {
    if (resource || code === 'capabilities_incompatible') { // overview.md: 200, a result
      return { status: 200, body: { ucp: { version, status: 'error' }, messages: [{ type: 'error', code, ...(path ? { path } : {}), content, severity: 'unrecoverable' }] } };
    }
    return { status, body: { code, content } };
  },

  reduction: (amount) => -amount,

  checkout: {
    optionalInRequests: [],
    extensionDefinition: 'dev.ucp.shopping.checkout',
    completionSchema: 'checkout.json',
    instrumentOf(body) {
      const instruments = (body.payment as { instruments?: (Json & { selected?: boolean })[] } | undefined)?.instruments ?? [];
      const chosen = instruments.filter((instrument) => instrument.selected === true);
      return chosen.length === 1 ? chosen[0] : instruments.length === 1 ? instruments[0] : undefined;
    },
    missingInstrument: { content: 'Send the payment instrument to pay with in payment.instruments: one instrument, or one marked selected', path: '$.payment.instruments' },
    payment: (instrument) => ({ instruments: instrument ? [{ ...instrument, selected: true }] : [] }),
    shortageAtCreation: 'report',
  },

  order: {
    removedLines: true,
    originalQuantity: true,
    currency: true,
    destinationFullName: false,
    adjustmentAmount: (amount) => ({ totals: [{ type: 'total', amount: -amount }] }),
  },

  // rest.openapi.json `order_event_webhook`: the order as the body; Content-Digest, Signature-Input and Signature (ES256).
  orderWebhook({ order, url, headers, signer, now }) {
    const body = JSON.stringify(order);
    const signed = signUcpRequest({ method: 'POST', url, headers, body, keyid: signer.kid, created: Math.floor(now.getTime() / 1000) }, signer.privateKey);
    return { body, headers: { ...headers, ...(signed as unknown as Record<string, string>) } };
  },

  mcp: {
    openRpc: 'services/shopping/mcp.openrpc.json',
    // checkout-mcp.md "Request Metadata" (the tool's own schema requires it).
    profileOf: (args) => ((args.meta as Json)['ucp-agent'] as Json).profile as string,
    profileField: 'meta["ucp-agent"].profile',
    idempotencyKeyOf: (args) => (args.meta as Json)['idempotency-key'],
    bodyArguments: {},
    restBody: (_argument, value) => value,
    outcomesAreResults: true,
    protocolStatus: true,
  },
};
