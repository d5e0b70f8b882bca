/**
 * UCP's tools for one release, made from its own OpenRPC document (2026-04-08
 * `services/shopping/mcp.openrpc.json`: 13 tools; 2026-01-11 `services/shopping/openrpc.json`:
 * the 5 checkout tools), each one REST operation under /ucp (ucp-operations.ts).
 *
 * - 2026-04-08 (checkout-mcp.md "Request Metadata"): `meta["ucp-agent"].profile` becomes
 *   `UCP-Agent: profile="…"`, `meta["idempotency-key"]` `Idempotency-Key`.
 * - 2026-01-11 (overview.md "Platform Advertisement on Request"): the profile is
 *   `_meta.ucp.profile` of the request, the key the `idempotency_key` argument.
 *
 * Either way `version="<release>"` rides along, so REST processes the call at the release whose
 * tool schemas it was made with; the answer is mapped back by ucp-answer.ts. A malformed envelope
 * is -32602 before any REST call.
 */
import { randomUUID } from 'node:crypto';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { ErrorCode } from '@modelcontextprotocol/sdk/types.js';
import { ucpSchemaDir } from '../ucp/ucp-schemas.js';
import { UCP_PREFIX, type UcpVersion } from '../ucp/ucp-version.js';
import { envelopeChecker } from './envelope.js';
import { schemaFiles, ucpBundle } from './schema-bundle.js';
import { RpcError, segment, type CallContext, type GatewayTool } from './tool.js';
import { fromUcpRest } from './ucp-answer.js';
import { UCP_OPERATIONS, type UcpOperation } from './ucp-operations.js';

type Json = Record<string, unknown>;

interface RpcMethod {
  name: string;
  summary?: string;
  description?: string;
  params: { name: string; required?: boolean; schema: Json }[];
}

const OPENRPC: Record<UcpVersion, string> = { '2026-04-08': 'services/shopping/mcp.openrpc.json', '2026-01-11': 'services/shopping/openrpc.json' };
/** Where the OpenRPC documents live on ucp.dev: their relative `$ref`s resolve from here to the schemas' `$id`s. */
const OPENRPC_BASE = 'https://ucp.dev/services/shopping/mcp.openrpc.json';
const SERVICE_SCHEMA_2026_01_11 = 'https://ucp.dev/services/service_schema.json';

const ucpErrorData = (message: string) => ({ code: 'invalid_params', content: message });

/** `#/components/…` references replaced by what they name; other `$ref`s made absolute. */
function resolveRefs(node: unknown, components: Json): unknown {
  if (Array.isArray(node)) return node.map((item) => resolveRefs(item, components));
  if (!node || typeof node !== 'object') return node;
  const ref = (node as Json).$ref;
  if (typeof ref === 'string' && ref.startsWith('#/components/')) {
    const target = ref.slice('#/components/'.length).split('/').reduce<unknown>((at, key) => (at as Json | undefined)?.[key], components);
    return resolveRefs(target, components);
  }
  if (typeof ref === 'string') return { ...(node as Json), $ref: new URL(ref, OPENRPC_BASE).href };
  return Object.fromEntries(Object.entries(node).map(([key, value]) => [key, resolveRefs(value, components)]));
}

/** The profile header value: an RFC 8941 dictionary of sf-strings. */
const sfString = (value: string): string => `"${value.replace(/[\\"]/g, (c) => `\\${c}`)}"`;

function profileOf(version: UcpVersion, args: Json, context: CallContext): string {
  if (version === '2026-04-08') return ((args.meta as Json)['ucp-agent'] as Json).profile as string;
  const profile = ((context.requestMeta?.ucp ?? {}) as Json).profile;
  if (typeof profile !== 'string' || !URL.canParse(profile)) {
    const message = 'Invalid arguments: _meta.ucp.profile (the platform profile URL, in the request params) is required';
    throw new RpcError(ErrorCode.InvalidParams, message, { status: 'requires_escalation', messages: [{ type: 'error', code: 'invalid_profile_url', content: message, severity: 'requires_buyer_input' }] });
  }
  return profile;
}

function idempotencyKeyOf(version: UcpVersion, operation: UcpOperation, args: Json): string | undefined {
  if (operation.idempotency === 'none') return undefined;
  const given = version === '2026-04-08' ? (args.meta as Json)['idempotency-key'] : args.idempotency_key;
  return typeof given === 'string' ? given : randomUUID();
}

function bodyOf(version: UcpVersion, operation: UcpOperation, args: Json): unknown {
  if (!operation.body) return undefined;
  if (version === '2026-01-11' && operation.body === 'payment') return paymentData(args.payment as Json | undefined);
  const payload = args[operation.body];
  return operation.idInBody && payload && typeof payload === 'object' ? { ...(payload as Json), id: args.id } : payload;
}

/**
 * 2026-01-11: the tool takes `payment` (payment.json: `instruments`, `selected_instrument_id`), the
 * REST operation `{payment_data: <instrument>}` (payment_data.json) — the selected instrument, or
 * the only one. Without one the body is `{}`, which REST refuses as its schema says.
 */
function paymentData(payment: Json | undefined): Json {
  const instruments = Array.isArray(payment?.instruments) ? (payment.instruments as Json[]) : [];
  const chosen = instruments.find((instrument) => instrument.id === payment?.selected_instrument_id) ?? (instruments.length === 1 ? instruments[0] : undefined);
  return chosen ? { payment_data: chosen } : {};
}

function ucpTool(version: UcpVersion, method: RpcMethod, operation: UcpOperation, files: Map<string, Json>, components: Json): GatewayTool {
  const params = method.params.map((param) => ({ ...param, schema: resolveRefs(param.schema, components) as Json }));
  const required = params.filter((param) => param.required).map((param) => param.name);
  const defs: Json = {};
  const advertised: Json = {};
  const envelope: Json = {};
  for (const { name, schema } of params) {
    if (typeof schema.$ref === 'string') {
      const bundle = ucpBundle(files, schema.$ref);
      Object.assign(defs, bundle.defs);
      advertised[name] = { $ref: bundle.ref };
      envelope[name] = { type: 'object' };
    } else {
      advertised[name] = schema;
      envelope[name] = schema;
    }
  }
  const check = envelopeChecker(method.name, { type: 'object', required, properties: envelope }, ucpErrorData);
  return {
    definition: {
      name: method.name,
      description: `UCP ${version}: ${method.description ?? method.summary ?? method.name}`,
      inputSchema: { type: 'object', required, properties: advertised, ...(Object.keys(defs).length ? { $defs: defs } : {}) } as { type: 'object' },
      annotations: { readOnlyHint: operation.method === 'GET' || operation.path.startsWith(`${UCP_PREFIX}/catalog/`) },
    },
    toRest(args, context) {
      check(args);
      // checkout-mcp.md "Identifier Pattern": the top-level `id` names the resource; the payload MUST NOT carry one.
      const payload = operation.body ? args[operation.body] : undefined;
      if (args.id !== undefined && payload && typeof payload === 'object' && 'id' in payload) {
        const message = `${method.name}: ${operation.body}.id is not allowed; the top-level id names the resource`;
        throw new RpcError(ErrorCode.InvalidParams, message, ucpErrorData(message));
      }
      const profile = profileOf(version, args, context);
      const meta = (args.meta ?? {}) as Json;
      const key = idempotencyKeyOf(version, operation, args);
      const headers: Record<string, string> = {
        'UCP-Agent': `profile=${sfString(profile)}, version=${sfString(version)}`,
        'Request-Id': typeof meta['request-id'] === 'string' ? meta['request-id'] : randomUUID(),
        ...(key ? { 'Idempotency-Key': key } : {}),
      };
      const body = bodyOf(version, operation, args);
      return { method: operation.method, path: operation.path.replace('{id}', segment(String(args.id ?? ''))), headers, ...(body !== undefined ? { body } : {}) };
    },
    fromRest: (reply) => fromUcpRest(version, reply),
  };
}

const cache = new Map<UcpVersion, GatewayTool[]>();

/** The tools of `version`, in its OpenRPC document's order (built once). */
export function ucpTools(version: UcpVersion): GatewayTool[] {
  const cached = cache.get(version);
  if (cached) return cached;
  const root = ucpSchemaDir(version);
  const document = JSON.parse(readFileSync(join(root, OPENRPC[version]), 'utf8')) as { methods: RpcMethod[]; components?: Json };
  const files = schemaFiles(join(root, 'schemas'));
  if (version === '2026-01-11') {
    // Its ucp.json names ../services/service_schema.json, whose own `$id` says …/schemas/service.json (as ucp-schemas.ts corrects, in memory only).
    const service = JSON.parse(readFileSync(join(root, 'services', 'service_schema.json'), 'utf8')) as Json;
    files.set(SERVICE_SCHEMA_2026_01_11, { ...service, $id: SERVICE_SCHEMA_2026_01_11 });
  }
  const tools = document.methods.map((method) => {
    const operation = UCP_OPERATIONS[version][method.name];
    if (!operation) throw new Error(`UCP ${version} tool ${method.name} has no REST operation`);
    return ucpTool(version, method, operation, files, document.components ?? {});
  });
  cache.set(version, tools);
  return tools;
}
