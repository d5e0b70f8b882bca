/**
 * ACP's five checkout tools (ACP 2026-04-17 `rfcs/mcp-binding.md`), each one REST operation of
 * the ACP profile under /acp: arguments `meta` (protocol headers), `id` (path), `payload` (body,
 * the official request schemas). A 2xx answer is the result — the REST body, as the binding's
 * `result` (its fields), `structuredContent` and a text copy; any other answer is JSON-RPC
 * -32000 with ACP's Error in `error.data`. A malformed envelope is -32602 before any REST call.
 * A POST without `meta.idempotency_key` (optional in the binding, required by REST) gets a fresh key.
 */
import { createRequire } from 'node:module';
import { randomUUID } from 'node:crypto';
import { envelopeChecker } from './envelope.js';
import { acpBundle } from './schema-bundle.js';
import { jsonResult, RpcError, segment, type GatewayTool } from './tool.js';

const require = createRequire(import.meta.url);
const ACP_DEFS = (require('@commerce-gateway/openapi/acp/schema.agentic_checkout.json') as { $defs: Record<string, unknown> }).$defs;

/** The binding's header mapping: `meta` field → HTTP header. Unknown `meta` fields are ignored, as it says. */
const META_HEADERS: Record<string, string> = {
  api_version: 'API-Version',
  idempotency_key: 'Idempotency-Key',
  request_id: 'Request-Id',
  user_agent: 'User-Agent',
  accept_language: 'Accept-Language',
  signature: 'Signature',
  timestamp: 'Timestamp',
};

const META_SCHEMA = {
  type: 'object',
  description:
    'Protocol metadata (the REST headers): api_version (API-Version, required), idempotency_key, request_id, user_agent, accept_language, ' +
    'and for keys that sign: signature (base64url HMAC-SHA256 of the payload\'s canonical JSON, RFC 8785; of nothing without a payload) and timestamp (RFC 3339), as on REST.',
  required: ['api_version'],
  additionalProperties: true,
  properties: Object.fromEntries(Object.keys(META_HEADERS).map((field) => [field, { type: 'string', minLength: 1 }])),
};

interface AcpOperation {
  name: string;
  description: string;
  method: 'GET' | 'POST';
  path: (id: string) => string;
  /** The payload's schema in schema.agentic_checkout.json, and whether it must be sent. */
  payload?: { schema: string; required: boolean };
  takesId: boolean;
}

const SESSIONS = '/acp/checkout_sessions';

const OPERATIONS: AcpOperation[] = [
  { name: 'create_checkout_session', description: 'Create a checkout session (POST /checkout_sessions).', method: 'POST', path: () => SESSIONS, payload: { schema: 'CheckoutSessionCreateRequest', required: true }, takesId: false },
  { name: 'get_checkout_session', description: 'Retrieve the current state of a checkout session (GET /checkout_sessions/{id}).', method: 'GET', path: (id) => `${SESSIONS}/${segment(id)}`, takesId: true },
  { name: 'update_checkout_session', description: 'Update items, fulfillment details, or selected options (POST /checkout_sessions/{id}).', method: 'POST', path: (id) => `${SESSIONS}/${segment(id)}`, payload: { schema: 'CheckoutSessionUpdateRequest', required: true }, takesId: true },
  { name: 'complete_checkout_session', description: 'Submit payment and finalize the order (POST /checkout_sessions/{id}/complete).', method: 'POST', path: (id) => `${SESSIONS}/${segment(id)}/complete`, payload: { schema: 'CheckoutSessionCompleteRequest', required: true }, takesId: true },
  { name: 'cancel_checkout_session', description: 'Cancel a session, optionally with an intent trace (POST /checkout_sessions/{id}/cancel).', method: 'POST', path: (id) => `${SESSIONS}/${segment(id)}/cancel`, payload: { schema: 'CancelSessionRequest', required: false }, takesId: true },
];

const acpErrorData = (message: string, param: string) => ({ type: 'invalid_request', code: 'invalid_params', message, param });

function acpTool(operation: AcpOperation): GatewayTool {
  const required = ['meta', ...(operation.takesId ? ['id'] : []), ...(operation.payload?.required ? ['payload'] : [])];
  const envelope = (payload: Record<string, unknown>) => ({
    type: 'object',
    required,
    properties: {
      meta: META_SCHEMA,
      ...(operation.takesId ? { id: { type: 'string', minLength: 1, description: 'The checkout session id (path parameter).' } } : {}),
      ...(operation.payload ? { payload } : {}),
    },
  });
  const bundle = operation.payload ? acpBundle(ACP_DEFS, operation.payload.schema) : undefined;
  const check = envelopeChecker(operation.name, envelope({ type: 'object' }), acpErrorData);
  return {
    definition: {
      name: operation.name,
      description: `ACP 2026-04-17: ${operation.description}`,
      inputSchema: { ...envelope(bundle ? { $ref: bundle.ref } : { type: 'object' }), ...(bundle ? { $defs: bundle.defs } : {}) } as { type: 'object' },
      annotations: { readOnlyHint: operation.method === 'GET' },
    },
    toRest(args) {
      check(args);
      const meta = args.meta as Record<string, unknown>;
      const headers: Record<string, string> = {};
      for (const [field, header] of Object.entries(META_HEADERS)) {
        if (typeof meta[field] === 'string') headers[header] = meta[field];
      }
      // REST wants a key on every POST; the binding makes it optional: without one, a fresh key (an ordinary, non-deduplicated call).
      if (operation.method === 'POST' && !headers['Idempotency-Key']) headers['Idempotency-Key'] = randomUUID();
      const body = operation.method === 'POST' ? args.payload : undefined; // an omitted optional payload is a body-less POST, as on REST
      return { method: operation.method, path: operation.path(String(args.id ?? '')), headers, ...(body !== undefined ? { body } : {}) };
    },
    fromRest(reply) {
      if (reply.status >= 200 && reply.status < 300) {
        const result = jsonResult(reply.body);
        return { ...(result.structuredContent ?? {}), ...result };
      }
      const error = isAcpError(reply.body) ? reply.body : { type: reply.status >= 500 ? 'processing_error' : 'invalid_request', code: `http_${reply.status}`, message: `The REST operation answered ${reply.status}` };
      throw new RpcError(-32000, error.message, error);
    },
  };
}

function isAcpError(body: unknown): body is { type: string; code: string; message: string } {
  const b = body as Record<string, unknown> | undefined;
  return !!b && typeof b.type === 'string' && typeof b.code === 'string' && typeof b.message === 'string';
}

export const acpTools = (): GatewayTool[] => OPERATIONS.map(acpTool);
