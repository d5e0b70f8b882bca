/**
 * @commerce-gateway/sdk — the public face of the package. Everything under
 * ./generated is produced from the OpenAPI contract by @hey-api/openapi-ts
 * (`pnpm generate`) and never edited by hand.
 */
export * from './generated/index.js';
export { client } from './generated/client.gen.js';
export { createClient, createConfig } from './generated/client/index.js';
export type { Client, Config, Options as ClientOptionsOf, RequestResult } from './generated/client/index.js';
