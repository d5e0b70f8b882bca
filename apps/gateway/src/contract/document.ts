/** The bundled OpenAPI document (openapi/dist/openapi.json), loaded once. */
import { readFileSync } from 'node:fs';
import { createRequire } from 'node:module';

export interface OpenApiOperation {
  operationId: string;
  'x-scopes'?: string[];
  [key: string]: unknown;
}

export interface OpenApiDocument {
  openapi: string;
  info: { version: string; [key: string]: unknown };
  paths: Record<string, Record<string, OpenApiOperation | unknown>>;
  components: { schemas: Record<string, unknown>; parameters?: Record<string, unknown>; [key: string]: unknown };
  [key: string]: unknown;
}

export const contractPath: string = createRequire(import.meta.url).resolve('@commerce-gateway/openapi/openapi.json');

let cached: OpenApiDocument | undefined;

export function loadContract(): OpenApiDocument {
  cached ??= JSON.parse(readFileSync(contractPath, 'utf8')) as OpenApiDocument;
  return cached;
}
