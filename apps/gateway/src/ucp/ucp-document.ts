/**
 * The UCP profile's reference document for /docs (`GET /ucp/openapi.json`): the official 2026-04-08
 * REST binding of the shopping service (vendored, bundled at build into one document), served under
 * `/ucp`, with a note at the top of its description on how this gateway answers it. The vendored
 * file itself is never changed.
 */
import { createRequire } from 'node:module';
import { MCP_PATH, UCP_PREFIX, UCP_VERSIONS } from './ucp-version.js';

const require = createRequire(import.meta.url);

const NOTE = `**This gateway's UCP profile.** The official 2026-04-08 REST binding below, served under \`${UCP_PREFIX}\`;
the same operations at 2026-01-11 (checkout and orders), and every operation as an MCP tool at \`${MCP_PATH}\`.
Discovery: \`GET /.well-known/ucp\` (no key) — the business profile of \`UCP_VERSION\` (default the newest), the other
release's at \`/.well-known/ucp/<version>\`. Releases spoken: ${UCP_VERSIONS.join(' and ')}.

Every request sends \`UCP-Agent: profile="<your platform profile URL>"\` (optionally \`version="YYYY-MM-DD"\`) and
authenticates with an API key of the merchant: \`Authorization: Bearer <key>\` or \`X-API-Key: <key>\` (scopes
\`checkout:read\`/\`checkout:write\`, \`catalog:read\`, \`orders:read\`). Creating a checkout reads the platform
profile (its capabilities; its order capability's \`webhook_url\`, where signed order webhooks go). Send an
\`Idempotency-Key\` on POST and PUT: a retry gets the stored answer, the key with another body is 409.

**Where requests depart from the schemas.** Request bodies are the schemas resolved by their \`ucp_request\`
annotations for the operation (fields marked \`omit\` — an item's \`title\` or \`price\`, \`totals\` — are ignored:
prices are the business's). 2026-01-11 lists \`currency\` and \`payment\` among a checkout's required fields
while its own examples create and update without them: both are optional in requests. The body's \`id\` on
update is optional (2026-04-08 deprecates it); when sent it must be the path's. On update, a
\`fulfillment.methods[]\` entry's \`id\` and \`line_item_ids\` are optional (clients resend the method they created;
the business offers one). 2026-01-11's profile schema requires \`ucp.services\` while its overview's Platform Profile
has none: a 2026-01-11 platform profile without it is accepted, the rest of the schema still applies. A platform that
calls a checkout operation speaks checkout whatever capabilities its profile lists: the intersection decides the
extensions (and order webhooks), never whether the operation is served. No binding defines \`PUT /orders/{id}\` and
2026-01-11 no order read, but clients call both relative to this endpoint: \`GET /orders/{id}\` is served at both
releases (the order at its checkout's release), and \`PUT /orders/{id}\` (development and sandbox, scope
\`orders:write\`) records the \`shipped\` events a client appends to \`fulfillment.events\`.

**Each release's binding.** 2026-04-08 answers business outcomes (an unknown item, a finished checkout, not found)
200 with its error envelope; 2026-01-11, which has none, answers them in its \`requires_escalation\` shape with its
status table — 400 for what cannot be served (a create asking more than the stock included: nothing is created;
2026-04-08 creates it with an \`out_of_stock\` message), 404, 409 — and every negotiation failure 400. A finished checkout
stays finished: update and cancel answer \`checkout_not_modifiable\`; completing it answers the checkout as it is
(its order, or \`canceled\`), without a message.

**Where requests are stricter than the schemas** (the limits ACP's profile and our own API apply to the same
fields): in a buyer and a postal address (a destination, a billing address), every string is at most our API's
length for it — \`email\` 320 (and an email address), \`phone_number\` 50, names and address lines 200, any other
200 — and \`address_country\` is an assigned ISO 3166-1 alpha-2 code in any case (\`ZZ\`, an alpha-3 code or a
country's name, which UCP tolerates "for backward compatibility", are refused: no shipping zone or tax rate could
match them). Each is 400 \`invalid_request\` naming the JSONPath, and nothing is kept.

In development and sandbox, pay with handler \`mock_payment_handler\` and token \`success_token\` (approved) or
\`fail_token\` (declined: the checkout answers a \`payment_failed\` message, nothing is ordered), or a card credential
(\`type: card\`): \`4242424242424242\` and \`4111111111111111\` approve, any other number (\`4000000000000002\`) is
declined. In development a sample platform profile is served at \`/ucp/dev/platform-profile.json\`.

`;

export function ucpProfileDocument(): Record<string, unknown> {
  const official = structuredClone(require('@commerce-gateway/openapi/ucp/rest.openapi.bundled.json')) as { info: { title: string; description?: string }; [key: string]: unknown };
  return {
    ...official,
    info: { ...official.info, title: `${official.info.title} — UCP profile`, description: NOTE + (official.info.description ?? '') },
    servers: [{ url: UCP_PREFIX, description: 'This gateway (UCP profile)' }],
  };
}
