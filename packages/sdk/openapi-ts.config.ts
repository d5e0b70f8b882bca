import { defineConfig } from '@hey-api/openapi-ts';

/**
 * Generates src/generated/ from the bundled contract. The output is committed
 * and never edited by hand: run `pnpm generate` after changing openapi/.
 */
export default defineConfig({
  input: '../../openapi/dist/openapi.json',
  output: { path: 'src/generated', postProcess: [] },
  plugins: [
    '@hey-api/client-ky',
    '@hey-api/typescript',
    { name: '@hey-api/sdk', validator: { request: false, response: 'zod' } },
    'zod',
  ],
});
