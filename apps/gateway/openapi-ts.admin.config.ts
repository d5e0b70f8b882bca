import { defineConfig } from '@hey-api/openapi-ts';

/**
 * Generates console/src/generated/ — the operators' console's admin client (types, functions and
 * the fetch client they run on) from the admin contract as openapi/ bundles it
 * (openapi/dist/admin/admin.json, built from openapi/admin/ by `pnpm --filter
 * @commerce-gateway/openapi build`). The output is committed, fenced and never edited by hand:
 * run `pnpm generate` after changing openapi/admin/ (scripts/check-generated.mjs fails CI when it
 * is stale). console/src/api.ts configures the client (same origin, the session cookie, the
 * console's header on writes, AdminApiError).
 */
export default defineConfig({
  input: '../../openapi/dist/admin/admin.json',
  output: { path: 'console/src/generated', postProcess: [] },
  plugins: [{ name: '@hey-api/client-fetch', baseUrl: false, throwOnError: true }, '@hey-api/typescript', '@hey-api/sdk'],
});
