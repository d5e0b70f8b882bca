import { defineConfig } from '@hey-api/openapi-ts';

/**
 * Generates src/acp/generated/ — the types of the official ACP 2026-04-17 agentic checkout
 * document (openapi/acp/, vendored unmodified) that the ACP profile's handlers and mappers take.
 * The output is committed and never edited by hand: run `pnpm generate` after changing the
 * vendored document (scripts/check-generated.mjs fails CI when it is stale).
 */
export default defineConfig({
  input: '../../openapi/acp/2026-04-17/openapi/openapi.agentic_checkout.yaml',
  output: { path: 'src/acp/generated', postProcess: [] },
  plugins: ['@hey-api/typescript'],
});
