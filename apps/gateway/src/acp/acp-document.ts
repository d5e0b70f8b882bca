/**
 * The ACP profile's reference document for /docs (`GET /acp/openapi.json`): the official
 * agentic-checkout OpenAPI document, served under `/acp`, with a note at the top of its description
 * on how this gateway answers it, and the request schemas this profile widens (request-schema.ts:
 * `Item.quantity`, `items`) showing what it takes. The vendored file itself is never changed.
 */
import { createRequire } from 'node:module';
import { MAX_QUANTITY } from '../checkout/line-resolver.js';
import { TEST_TOKENS } from '../payments/test-payment-provider.js';
import { loadContract } from '../contract/document.js';
import { acpOpenApiPath } from './acp-operations.js';
import { ACP_VERSION } from './acp-version.js';
import { ourMaxLength } from './request-schema.js';

const require = createRequire(import.meta.url);

function note(): string {
  const ours = loadContract();
  const limit = (ref: string) => ourMaxLength(ours, ref);
  return `**This gateway's ACP ${ACP_VERSION} profile.** The official document below, served under \`/acp\`.
Discovery: \`GET /.well-known/acp.json\` (no key); its \`api_base_url\` is the gateway's \`PUBLIC_BASE_URL\` + \`/acp\`
(required in production; publicly cacheable for an hour), never taken from a request's \`Host\` where it is set.
Send \`Authorization: Bearer <API key>\` (a key with \`checkout:read\` / \`checkout:write\`), \`API-Version: ${ACP_VERSION}\`
(required) and an \`Idempotency-Key\` on every POST. Errors use ACP's flat \`Error\`, naming the field in \`param\`.

**Where requests depart from the JSON Schema** (answers follow it exactly). Bodies are validated against the
official JSON Schema (\`additionalProperties: false\`) with these changes:
- **\`quantity\`** on each \`line_items[]\` entry, as the RFC (§4.1, §5 \`Item: id, quantity\`) and this document's own
  examples send it (the schema's \`Item\` has none): a whole number from 1 to ${MAX_QUANTITY}, 1 when absent. ACP allows
  decimals for goods sold by measure; this catalog sells whole units, so \`2.5\` is refused (400 \`invalid\`). Entries
  of the same \`id\` add up. Answers show it as \`line_items[].quantity\` (the schema's \`LineItem\`; its \`Item\` cannot carry one).
- **\`items\`**, the RFC's name for \`line_items\`, on create and update: one or the other, not both.
- **Limits** the schema does not set: buyer and fulfillment e-mail at most ${limit('Customer.email')} characters, phone ${limit('Customer.phone')},
  names and address fields ${limit('Address.line1')} (our own API's); \`country\` an assigned ISO 3166-1 alpha-2 code (\`ZZ\` is refused);
  \`selected_fulfillment_options[].item_ids\` must name items of the cart (an item \`id\`, or a line's \`li_…\` id; \`[]\`: all).
- Completions are checked against the JSON Schema's \`CheckoutSessionWithOrder\` (whose base lists \`order\`): this
  document's version matches no object, its \`CheckoutSessionBase\` forbidding the \`order\` it requires.

In development and sandbox, pay with handler \`card_tokenized\` and the test tokens \`${TEST_TOKENS.approve}\`,
\`${TEST_TOKENS.decline}\` or \`${TEST_TOKENS.authenticate}\` (3-D Secure); any other token is approved.

`;
}

type Schema = Record<string, any>; // eslint-disable-line @typescript-eslint/no-explicit-any

/** The request schemas as this profile takes them (the same changes as request-schema.ts, described). */
function widenRequests(schemas: Record<string, Schema>): void {
  schemas.Item!.properties.quantity = {
    type: 'integer',
    minimum: 1,
    maximum: MAX_QUANTITY,
    description: `**This gateway (requests):** units of the item, 1 when absent — the RFC's \`Item.quantity\`, which the ${ACP_VERSION} schema lacks. Whole units only (a decimal quantity is refused). Never sent in answers: see \`LineItem.quantity\`.`,
  };
  for (const name of ['CheckoutSessionCreateRequest', 'CheckoutSessionUpdateRequest']) {
    const request = schemas[name]!;
    request.properties.items = { ...request.properties.line_items, description: "**This gateway:** the RFC's name for `line_items`; send one of them, not both." };
    if (request.required) request.required = request.required.filter((field: string) => field !== 'line_items');
    if (name === 'CheckoutSessionCreateRequest') request.description = `${request.description ?? ''} **This gateway:** \`line_items\` (or \`items\`) is required.`.trim();
  }
}

export function acpProfileDocument(): Record<string, unknown> {
  const official = structuredClone(require(acpOpenApiPath)) as { info: { title: string; description?: string }; components: { schemas: Record<string, Schema> }; [key: string]: unknown };
  widenRequests(official.components.schemas);
  return {
    ...official,
    info: { ...official.info, title: `${official.info.title} — ACP ${ACP_VERSION} profile`, description: note() + (official.info.description ?? '') },
    servers: [{ url: '/acp', description: 'This gateway (ACP profile)' }],
  };
}
