/**
 * Whole HTTP requests for one contract operation, generated from its parameters
 * and request body schema: valid, boundary or malformed — in the body, the query,
 * the path, the headers or the credentials — plus raw hostile bodies (broken
 * JSON, deep nesting, prototype keys, oversize). URLs the gateway would call
 * (`target_url`) always point at the local receiver: the fuzzer never makes the
 * gateway reach beyond loopback.
 */
import fc from 'fast-check';
import { deref, malformed, schemaArbitrary, type Mode, type Schema } from './schema-arbitrary.js';

export type RequestMode = Mode | 'malformed';

export interface FuzzRequest {
  mode: RequestMode;
  /** What was broken, for the report. */
  broken?: string | undefined;
  method: string;
  path: string;
  query: [string, string][];
  headers: Record<string, string>;
  body?: string | undefined;
}

/** What exists in the gateway under test, so valid requests reach deep code paths. */
export interface FuzzWorld {
  key: string;
  merchantId: string;
  productIds: string[];
  skus: string[];
  sessionIds: string[];
  /** Orders of completed sessions (not among sessionIds). */
  orderIds: string[];
  receiverUrl: string;
}

export interface OperationSpec {
  method: string;
  template: string;
  operation: Schema;
}

const printable = (min: number, max: number) => fc.string({ unit: fc.integer({ min: 0x20, max: 0x7e }).map((c) => String.fromCharCode(c)), minLength: min, maxLength: max });

const RAW_SEGMENTS = ['%zz', '%', '%E0%A4%A', '%C0%AF', '..', '.', '%2e%2e', 'a%2Fb', '%00', '%20', '~', "'", '"', '<script>', 'x'.repeat(3_000), '%F0%9F%9B%92'];

const RAW_BODIES = [
  '',
  '{',
  '{"items": [',
  'nul',
  '[]',
  '"text"',
  '12',
  'null',
  '{"items": [{"product_id": "a"}],}',
  '{"a": 1e999}',
  '\u0000',
  '\uFEFF{}',
  `{"payload": {"deep": ${'['.repeat(5_000)}${']'.repeat(5_000)}}, "event_type": "order.created"}`,
  `${'['.repeat(100_000)}${']'.repeat(100_000)}`,
  `{"payload": ${'{"a":'.repeat(2_000)}1${'}'.repeat(2_000)}, "event_type": "order.created"}`,
  '{"__proto__": {"admin": true}, "constructor": {"prototype": {"admin": true}}, "items": [{"product_id": "p-0"}], "event_type": "order.created"}',
  JSON.stringify({ items: [{ product_id: 'p-0' }], padding: 'x'.repeat(1_100_000) }),
  JSON.stringify({ items: Array.from({ length: 5_000 }, (_, i) => ({ product_id: `p-${i % 4}` })) }),
];

const BAD_VALUES = ['abc', '-1', '0', '1e999', '', 'NaN', 'Infinity', '0x10', '1,2', ' 1', '1.5', '9'.repeat(400), '%zz', 'null', '[]'];

function hints(world: FuzzWorld): Record<string, fc.Arbitrary<unknown>> {
  const known = (values: string[]) => (values.length ? fc.oneof({ weight: 3, arbitrary: fc.constantFrom(...values) }, { weight: 1, arbitrary: printable(1, 30) }) : printable(1, 30));
  return {
    product_id: known(world.productIds),
    variant_sku: known(world.skus),
    checkout_session_id: known(world.sessionIds),
    session_id: known(world.sessionIds),
    order_id: known(world.orderIds),
    target_url: fc.webPath().map((path) => `${world.receiverUrl}${path.startsWith('/') ? path : `/${path}`}`),
  };
}

function parametersOf(root: Schema, spec: OperationSpec): Schema[] {
  const pathItem = root.paths[spec.template] as Schema;
  return [...(pathItem.parameters ?? []), ...(spec.operation.parameters ?? [])].map((p: Schema) => deref(root, p));
}

function credentials(world: FuzzWorld, broken: boolean): fc.Arbitrary<Record<string, string>> {
  if (!broken) {
    return fc.constantFrom<Record<string, string>>(
      { 'X-ACP-API-Key': world.key },
      { Authorization: `Bearer ${world.key}` },
      { Authorization: `Basic ${Buffer.from(`${world.key}:`).toString('base64')}` },
    );
  }
  return fc.oneof(
    fc.constant({}),
    fc.constant({ 'X-ACP-API-Key': `${world.key}x` }),
    fc.constant({ 'X-ACP-API-Key': world.key.replace('sk_dev_', 'sk_live_') }),
    fc.constant({ Authorization: 'Basic %%%' }),
    fc.constant({ Authorization: `Basic ${Buffer.from(`${world.key}:password`).toString('base64')}` }),
    fc.constant({ Authorization: 'Bearer' }),
    printable(0, 80).map((value) => ({ 'X-ACP-API-Key': value })),
    printable(0, 80).map((value) => ({ Authorization: value })),
    fc.constant({ 'X-ACP-API-Key': world.key, 'Merchant-Id': 'someone-else' }),
    fc.constant({ 'X-ACP-API-Key': world.key, Signature: 'AAAA', Timestamp: 'yesterday' }),
  );
}

export function requestArbitrary(root: Schema, spec: OperationSpec, world: FuzzWorld): fc.Arbitrary<FuzzRequest> {
  const parameters = parametersOf(root, spec);
  const bodySchema = deref(root, spec.operation.requestBody ?? {}).content?.['application/json']?.schema as Schema | undefined;
  const byName = hints(world);

  const build = (mode: RequestMode) => {
    const valueMode: Mode = mode === 'boundary' ? 'boundary' : 'valid';
    const options = { root, mode: valueMode, hints: byName };
    const pathValues = fc.record(
      Object.fromEntries(parameters.filter((p) => p.in === 'path').map((p) => [p.name as string, (byName[p.name] ?? schemaArbitrary(p.schema, options)).map(String)])),
    );
    const queryParameters = parameters.filter((p) => p.in === 'query');
    const query = fc
      .tuple(...queryParameters.map((p) => fc.option(schemaArbitrary(p.schema, options).map((v) => [p.name as string, String(v)] as [string, string]), { freq: 2 })))
      .map((pairs) => pairs.filter((pair): pair is [string, string] => pair !== null));
    const headers = fc.record(
      {
        'API-Version': fc.constantFrom(...((deref(root, { $ref: '#/components/parameters/ApiVersion' }).schema.enum as string[]) ?? [])),
        'Request-Id': printable(1, 60).filter((s) => s.trim() === s && s.length > 0),
        'Accept-Language': fc.constantFrom('en', 'de-DE,de;q=0.9', '*'),
        ...(['POST', 'PATCH'].includes(spec.method) ? { 'Idempotency-Key': printable(1, mode === 'boundary' ? 255 : 40) } : {}),
      },
      { requiredKeys: [] },
    );
    const body = bodySchema ? schemaArbitrary(bodySchema, options).map((value) => JSON.stringify(value)) : fc.constant(undefined);
    return { pathValues, query, headers, body };
  };

  const valid = (mode: 'valid' | 'boundary') => {
    const parts = build(mode);
    return fc.record({ path: parts.pathValues, query: parts.query, headers: parts.headers, auth: credentials(world, false), body: parts.body }).map(
      ({ path, query, headers, auth, body }): FuzzRequest => ({
        mode,
        method: spec.method,
        path: fill(spec.template, path, true),
        query,
        headers: { ...headers, ...auth, ...(body !== undefined ? { 'Content-Type': 'application/json' } : {}) },
        body,
      }),
    );
  };

  const parts = build('malformed');
  const validBodyValue = bodySchema ? schemaArbitrary(bodySchema, { root, mode: 'valid', hints: byName }) : undefined;
  const breakages: fc.Arbitrary<Partial<FuzzRequest> & { broken: string }>[] = [
    credentials(world, true).map((auth) => ({ broken: 'credentials', headers: auth })),
    fc.record({ name: fc.constantFrom('API-Version', 'Idempotency-Key', 'Request-Id', 'Merchant-Id', 'Content-Type'), value: printable(0, 300) }).map(({ name, value }) => ({ broken: `header ${name}`, headers: { [name]: value } })),
    fc.constant({ broken: 'header Idempotency-Key too long', headers: { 'Idempotency-Key': 'k'.repeat(256) } }),
    fc.record({ name: fc.oneof(fc.constantFrom(...queryParameters(parameters), 'unknown', 'page[]', '__proto__'), printable(1, 10)), value: fc.constantFrom(...BAD_VALUES) }).map(({ name, value }) => ({
      broken: `query ${name}`,
      query: [[name, value]] as [string, string][],
    })),
    fc.constant({ broken: 'query repeated', query: [['page', '1'], ['page', '2'], ['page_size', '5'], ['page_size', '500']] as [string, string][] }),
  ];
  if (spec.template.includes('{')) breakages.push(fc.constantFrom(...RAW_SEGMENTS).map((segment) => ({ broken: `path ${segment.slice(0, 20)}`, path: fill(spec.template, {}, false, segment) })));
  if (validBodyValue) {
    breakages.push(
      malformed(validBodyValue).map((value) => ({ broken: 'body value', body: JSON.stringify(value) ?? 'undefined' })),
      fc.constantFrom(...RAW_BODIES).map((body) => ({ broken: `raw body ${body.slice(0, 24)}`, body })),
      fc.constantFrom('text/plain', 'application/x-www-form-urlencoded', 'application/json; charset=utf-16', 'application/xml', '').map((type) => ({ broken: `content-type ${type}`, headers: { 'Content-Type': type } })),
    );
  } else {
    breakages.push(fc.constantFrom('POST', 'DELETE', 'PATCH').map((method) => ({ broken: `method override ${method}`, headers: { 'X-HTTP-Method-Override': method } })));
  }

  const malformedRequest = fc
    .record({ path: parts.pathValues, query: parts.query, headers: parts.headers, body: parts.body, breakage: fc.oneof(...breakages) })
    .map(({ path, query, headers, body, breakage }): FuzzRequest => {
      const auth = { 'X-ACP-API-Key': world.key };
      return {
        mode: 'malformed',
        broken: breakage.broken,
        method: spec.method,
        path: breakage.path ?? fill(spec.template, path, true),
        query: [...query, ...(breakage.query ?? [])],
        headers: {
          ...headers,
          ...(breakage.broken === 'credentials' ? {} : auth),
          ...(body !== undefined || breakage.body !== undefined ? { 'Content-Type': 'application/json' } : {}),
          ...breakage.headers,
        },
        body: spec.method === 'GET' ? undefined : (breakage.body ?? body),
      };
    });

  return fc
    .oneof({ weight: 3, arbitrary: valid('valid') }, { weight: 2, arbitrary: valid('boundary') }, { weight: 5, arbitrary: malformedRequest })
    .map((request) => Object.assign(request, { [fc.toStringMethod]: () => describeRequest(request) }));
}

/** One line for a counterexample: long bodies and headers cut short. */
export function describeRequest(request: FuzzRequest): string {
  const query = request.query.length ? `?${new URLSearchParams(request.query).toString()}` : '';
  const cut = (text: string) => (text.length > 300 ? `${text.slice(0, 300)}… (${text.length} characters)` : text);
  return `${request.method} ${cut(request.path + query)} [${request.broken ?? request.mode}] headers ${cut(JSON.stringify(request.headers))}${request.body === undefined ? '' : ` body ${cut(request.body)}`}`;
}

function queryParameters(parameters: Schema[]): string[] {
  const names = parameters.filter((p) => p.in === 'query').map((p) => p.name as string);
  return names.length ? names : ['q'];
}

/** The path with its parameters filled in (encoded), or with one raw hostile segment. */
function fill(template: string, values: Record<string, string>, encode: boolean, raw?: string): string {
  return template.replace(/\{([^}]+)\}/g, (_, name: string) => (raw !== undefined ? raw : encode ? encodeURIComponent(values[name] ?? '') || '%20' : values[name] ?? ''));
}
