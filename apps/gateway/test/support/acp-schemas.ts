/**
 * Validators built from the official ACP 2026-04-17 documents (vendored, unchanged, in
 * test/fixtures/acp-2026-04-17): order webhook bodies, feed files, and Feed API requests.
 */
import { readFileSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { Ajv2020, type ValidateFunction } from 'ajv/dist/2020.js';
import addFormats from 'ajv-formats';
import { parse } from 'yaml';

export const ACP_FIXTURES = join(dirname(fileURLToPath(import.meta.url)), '..', 'fixtures', 'acp-2026-04-17');
const read = (file: string) => readFileSync(join(ACP_FIXTURES, file), 'utf8');

function ajv(): Ajv2020 {
  // strict off: the official schemas carry OpenAPI's `example` keyword beside JSON Schema's.
  const instance = new Ajv2020({ strict: false, allErrors: true });
  (addFormats as unknown as (a: Ajv2020) => void)(instance);
  return instance;
}

/** `#/components/schemas/X` of an OpenAPI document, rewritten to `<id>#/$defs/X` of a JSON Schema bundle. */
function openApiSchemas(document: { components: { schemas: Record<string, unknown> } }, id: string, external: Record<string, string>): object {
  const text = JSON.stringify({ $id: id, $defs: document.components.schemas }).replace(
    /"\$ref":"(\.\/[^"#]*)?#\/components\/schemas\/([^"]+)"/g,
    (_, file: string | undefined, name: string) => `"$ref":"${file ? external[file] : id}#/$defs/${name}"`,
  );
  return JSON.parse(text) as object;
}

const CHECKOUT_ID = 'https://example.com/schemas/agentic-checkout/bundle.schema.json';

let webhook: ValidateFunction | undefined;
/** The ACP order webhook body: `WebhookEvent` of openapi.agentic_checkout_webhook.yaml, `Order` from the checkout bundle. */
export function acpWebhookEventValidator(): ValidateFunction {
  if (webhook) return webhook;
  const instance = ajv();
  instance.addSchema(JSON.parse(read('schema.agentic_checkout.json')) as object);
  const doc = parse(read('openapi.agentic_checkout_webhook.yaml')) as { components: { schemas: Record<string, unknown> } };
  instance.addSchema(openApiSchemas(doc, 'acp:webhook', { './openapi.agentic_checkout.yaml': CHECKOUT_ID }));
  webhook = instance.getSchema('acp:webhook#/$defs/WebhookEvent')!;
  return webhook;
}

/** The Merchant-Signature pattern the webhook document gives. */
export function merchantSignaturePattern(): RegExp {
  const doc = parse(read('openapi.agentic_checkout_webhook.yaml')) as { paths: Record<string, { post: { parameters: { name: string; schema: { pattern: string } }[] } }> };
  const parameter = Object.values(doc.paths)[0]!.post.parameters.find((p) => p.name === 'Merchant-Signature')!;
  return new RegExp(parameter.schema.pattern);
}

let feed: Ajv2020 | undefined;
const FEED_ID = 'https://example.com/schemas/feed/bundle.schema.json';
/** A `$defs` entry of schema.feed.json: `Product`, `FeedMetadata`, … */
export function feedSchemaValidator(name: string): ValidateFunction {
  if (!feed) {
    feed = ajv();
    feed.addSchema(JSON.parse(read('schema.feed.json')) as object);
  }
  return feed.getSchema(`${FEED_ID}#/$defs/${name}`)!;
}

export interface FeedApiOperation {
  method: string;
  /** e.g. `/feeds/{id}/products` */
  path: string;
  request: ValidateFunction | undefined;
  responses: Record<string, ValidateFunction>;
}

/** Every operation of openapi.feed.yaml with validators of its request body and JSON responses. */
export function feedApiOperations(): FeedApiOperation[] {
  const doc = parse(read('openapi.feed.yaml')) as {
    components: { schemas: Record<string, unknown> };
    paths: Record<string, Record<string, { requestBody?: { content: Record<string, { schema: object }> }; responses: Record<string, { content?: Record<string, { schema: object }> }> }>>;
  };
  const instance = ajv();
  instance.addSchema(openApiSchemas(doc, 'acp:feed-api', {}));
  const compile = (schema: object) => instance.compile(JSON.parse(JSON.stringify(schema).replace(/"#\/components\/schemas\/([^"]+)"/g, '"acp:feed-api#/$defs/$1"')) as object);
  const operations: FeedApiOperation[] = [];
  for (const [path, item] of Object.entries(doc.paths)) {
    for (const [method, operation] of Object.entries(item)) {
      if (method === 'parameters') continue;
      const body = operation.requestBody?.content['application/json']?.schema;
      const responses: Record<string, ValidateFunction> = {};
      for (const [status, response] of Object.entries(operation.responses)) {
        const schema = response.content?.['application/json']?.schema;
        if (schema) responses[status] = compile(schema);
      }
      operations.push({ method: method.toUpperCase(), path, request: body ? compile(body) : undefined, responses });
    }
  }
  return operations;
}
