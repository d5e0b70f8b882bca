/**
 * UCP's tools for one release, made from its own OpenRPC document (2026-04-08
 * `services/shopping/mcp.openrpc.json`: 13 tools; 2026-01-11 `services/shopping/openrpc.json`:
 * the 5 checkout tools), each one REST operation under /ucp (ucp-operations.ts). The release says
 * where a call carries the platform's profile, which becomes `UCP-Agent: profile="…"`, and its
 * idempotency key, which becomes `Idempotency-Key` (releases/: `mcp`):
 *
 * - 2026-04-08 (checkout-mcp.md "Request Metadata"): `meta["ucp-agent"].profile` and `meta["idempotency-key"]`.
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
import type { Release } from '../ucp/releases/release.js';
import { releaseOf } from '../ucp/releases/releases.js';
import { ucpSchemaDir, vendoredFile } from '../ucp/ucp-schemas.js';
import { UCP_PREFIX, type UcpVersion } from '../ucp/ucp-version.js';
import { envelopeChecker } from './envelope.js';
import { schemaFiles, ucpBundle } from './schema-bundle.js';
import { RpcError, segment, type CallContext, type GatewayTool } from './tool.js';
import { fromUcpRest } from './ucp-answer.js';
import { ucpOperation, type UcpOperation } from './ucp-operations.js';

type Json = Record<string, unknown>;

interface RpcMethod {
  name: string;
  summary?: string;
  description?: string;
  params: { name: string; required?: boolean; schema: Json }[];
}

/** Where the OpenRPC documents live on ucp.dev: their relative `$ref`s resolve from here to the schemas' `$id`s. */
const OPENRPC_BASE = 'https://ucp.dev/services/shopping/mcp.openrpc.json';

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

function profileOf(release: Release, args: Json, context: CallContext): string {
  const profile = release.mcp.profileOf(args, context.requestMeta);
  if (profile === undefined) {
    const message = `Invalid arguments: ${release.mcp.profileField} is required`;
    const refusal = release.answer({ code: 'invalid_profile_url', content: message, status: 400, negotiation: true, resource: false });
    throw new RpcError(ErrorCode.InvalidParams, message, refusal.body);
  }
  return profile;
}

function idempotencyKeyOf(release: Release, operation: UcpOperation, args: Json): string | undefined {
  if (operation.idempotency === 'none') return undefined;
  const given = release.mcp.idempotencyKeyOf(args);
  return typeof given === 'string' ? given : randomUUID();
}

function bodyOf(release: Release, operation: UcpOperation, args: Json): unknown {
  if (!operation.body) return undefined;
  const payload = release.mcp.restBody(operation.body, args[operation.body]);
  return operation.idInBody && payload && typeof payload === 'object' ? { ...(payload as Json), id: args.id } : payload;
}

function ucpTool(release: Release, method: RpcMethod, operation: UcpOperation, files: Map<string, Json>, components: Json): GatewayTool {
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
      description: `UCP ${release.version}: ${method.description ?? method.summary ?? method.name}`,
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
      const profile = profileOf(release, args, context);
      const meta = (args.meta ?? {}) as Json;
      const key = idempotencyKeyOf(release, operation, args);
      const headers: Record<string, string> = {
        'UCP-Agent': `profile=${sfString(profile)}, version=${sfString(release.version)}`,
        'Request-Id': typeof meta['request-id'] === 'string' ? meta['request-id'] : randomUUID(),
        ...(key ? { 'Idempotency-Key': key } : {}),
      };
      const body = bodyOf(release, operation, args);
      return { method: operation.method, path: operation.path.replace('{id}', segment(String(args.id ?? ''))), headers, ...(body !== undefined ? { body } : {}) };
    },
    fromRest: (reply) => fromUcpRest(release, reply),
  };
}

const cache = new Map<UcpVersion, GatewayTool[]>();

/** The tools of `version`, in its OpenRPC document's order (built once). */
export function ucpTools(version: UcpVersion): GatewayTool[] {
  const cached = cache.get(version);
  if (cached) return cached;
  const release = releaseOf(version);
  const root = ucpSchemaDir(version);
  const document = JSON.parse(readFileSync(join(root, release.mcp.openRpc), 'utf8')) as { methods: RpcMethod[]; components?: Json };
  const files = schemaFiles(join(root, 'schemas'));
  for (const path of release.schemas.extraFiles) {
    // By the `$id` its refs name it by (as ucp-schemas.ts corrects, in memory only): 2026-01-11's ucp.json names ../services/service_schema.json.
    const schema = vendoredFile(version, path);
    files.set(schema.$id as string, schema);
  }
  const tools = document.methods.map((method) => {
    const operation = ucpOperation(release, method.name);
    if (!operation) throw new Error(`UCP ${version} tool ${method.name} has no REST operation`);
    return ucpTool(release, method, operation, files, document.components ?? {});
  });
  cache.set(version, tools);
  return tools;
}
