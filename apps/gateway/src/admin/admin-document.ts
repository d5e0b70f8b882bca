/** The admin API's bundled contract (openapi/dist/admin/admin.json), loaded once. */
import { readFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import type { OpenApiDocument } from '../contract/document.js';

export const adminContractPath: string = createRequire(import.meta.url).resolve('@commerce-gateway/openapi/admin.json');

let cached: OpenApiDocument | undefined;

export function loadAdminContract(): OpenApiDocument {
  cached ??= JSON.parse(readFileSync(adminContractPath, 'utf8')) as OpenApiDocument;
  return cached;
}
