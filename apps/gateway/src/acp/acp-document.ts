/**
 * The ACP profile's reference document for /docs (`GET /acp/openapi.json`): the official
 * agentic-checkout OpenAPI document, unchanged but for where it is served (`/acp` on this
 * gateway) and a note, at the top of its description, on how this gateway answers it.
 */
import { createRequire } from 'node:module';
import { TEST_TOKENS } from '../checkout/payment/test-payment-provider.js';
import { acpOpenApiPath } from './acp-operations.js';
import { ACP_VERSION } from './acp-version.js';

const require = createRequire(import.meta.url);

const NOTE = `**This gateway's ACP ${ACP_VERSION} profile.** The official document below, served under \`/acp\`.
Discovery: \`GET /.well-known/acp.json\` (no key). Send \`Authorization: Bearer <API key>\` (a key with
\`checkout:read\` / \`checkout:write\`), \`API-Version: ${ACP_VERSION}\` (required) and an \`Idempotency-Key\` on every POST.
Bodies are validated against the official JSON Schema both ways (\`additionalProperties: false\`); errors use ACP's
flat \`Error\`. A line item's quantity is the number of times its \`id\` appears in \`line_items\` (the ${ACP_VERSION}
\`Item\` has no quantity). In development and sandbox, pay with handler \`card_tokenized\` and the test tokens
\`${TEST_TOKENS.approve}\`, \`${TEST_TOKENS.decline}\` or \`${TEST_TOKENS.authenticate}\` (3-D Secure); any other token is approved.

`;

export function acpProfileDocument(): Record<string, unknown> {
  const official = structuredClone(require(acpOpenApiPath)) as { info: { title: string; description?: string }; [key: string]: unknown };
  return {
    ...official,
    info: { ...official.info, title: `${official.info.title} — ACP ${ACP_VERSION} profile`, description: NOTE + (official.info.description ?? '') },
    servers: [{ url: '/acp', description: 'This gateway (ACP profile)' }],
  };
}
