/**
 * The business profile of one UCP release (overview.md "Business Profile"; the release's
 * discovery/profile_schema.json): `ucp.version`; the `dev.ucp.shopping` service with its REST
 * endpoint (the public origin + /ucp) and its MCP endpoint (the origin + /mcp); the capabilities
 * served so far (capabilities.ts); the payment handlers; `signing_keys`; and, in the current
 * profile only, `supported_versions` (2026-04-08 "Protocol Version": older releases mapped to their
 * own profiles, which are leaf documents without that field). The two releases shape it
 * differently: 2026-01-11 keys transports inside one service object, lists capabilities as an
 * array and puts handlers in `payment.handlers`; 2026-04-08 lists one entry per transport, keys
 * capabilities and `payment_handlers` by name.
 */
import type { PaymentHandlerDeclaration } from '../payments/payment-provider.js';
import { advertisedCapabilities } from './capabilities.js';
import { CARD_INSTRUMENT, handler2026_01_11, handlers2026_04_08 } from './payment-handlers.js';
import type { PublicSigningJwk } from './signing-keys.js';
import { linkedVersions, MCP_PATH, UCP_PREFIX, type UcpVersion } from './ucp-version.js';

export const SHOPPING_SERVICE = 'dev.ucp.shopping';

/**
 * The test handler of UCP's reference samples (development and sandbox only): `success_token`
 * approves, `fail_token` is declined. Named as the samples and the conformance suite name it.
 */
export const TEST_HANDLER = {
  id: 'mock_payment_handler',
  name: 'dev.ucp.mock_payment',
  spec: 'https://ucp.dev/specs/mock',
  schema: 'https://ucp.dev/schemas/mock.json',
  tokens: ['success_token', 'fail_token'],
} as const;

export interface ProfileSettings {
  /** The public origin agents reach this gateway at, without a trailing slash. */
  origin: string;
  /** The release `/.well-known/ucp` describes (UCP_VERSION). */
  current: UcpVersion;
  signingKeys: readonly PublicSigningJwk[];
  /** Whether the test payment handler is offered (never in production; only with the test provider). */
  testHandler: boolean;
  /** The payment provider's handlers, as the profile shows them (payment-handlers.ts). */
  paymentHandlers?: readonly PaymentHandlerDeclaration[];
}

/** 2026-01-11's `payment.handlers` (profile and checkout answers alike): the test handler, when offered, then the provider's. */
export function paymentHandlers2026_01_11(testHandler: boolean, provider: readonly PaymentHandlerDeclaration[] = []) {
  const version = '2026-01-11';
  const test = testHandler
    ? [
        {
          id: TEST_HANDLER.id,
          name: TEST_HANDLER.name,
          version,
          spec: TEST_HANDLER.spec,
          config_schema: TEST_HANDLER.schema,
          instrument_schemas: [CARD_INSTRUMENT],
          config: { supported_tokens: [...TEST_HANDLER.tokens] },
        },
      ]
    : [];
  return [...test, ...provider.map(handler2026_01_11)];
}

/** 2026-04-08's `payment_handlers` registry (profile and `ucp` envelope of answers alike): the test handler, when offered, then the provider's. */
export function paymentHandlers2026_04_08(testHandler: boolean, provider: readonly PaymentHandlerDeclaration[] = []): Record<string, Record<string, unknown>[]> {
  const version = '2026-04-08';
  const test: Record<string, Record<string, unknown>[]> = testHandler
    ? {
        [TEST_HANDLER.name]: [
          {
            id: TEST_HANDLER.id,
            version,
            spec: TEST_HANDLER.spec,
            schema: TEST_HANDLER.schema,
            available_instruments: [{ type: 'card' }],
            config: { supported_tokens: [...TEST_HANDLER.tokens] },
          },
        ],
      }
    : {};
  return { ...test, ...handlers2026_04_08(provider) };
}

/** Where the profile of `version` is served: `/.well-known/ucp/<version>` (the spec's own example). */
export const versionProfilePath = (version: UcpVersion): string => `/.well-known/ucp/${version}`;

/** The root of the release's documents on ucp.dev: 2026-04-08 dates its URLs, 2026-01-11 did not. */
const ucpDev = (version: UcpVersion): string => (version === '2026-01-11' ? 'https://ucp.dev' : `https://ucp.dev/${version}`);

function profile2026_01_11(settings: ProfileSettings) {
  const version = '2026-01-11';
  const base = ucpDev(version);
  return {
    ucp: {
      version,
      services: {
        [SHOPPING_SERVICE]: {
          version,
          spec: `${base}/specification/overview`,
          rest: { schema: `${base}/services/shopping/rest.openapi.json`, endpoint: `${settings.origin}${UCP_PREFIX}` },
          mcp: { schema: `${base}/services/shopping/mcp.openrpc.json`, endpoint: `${settings.origin}${MCP_PATH}` },
        },
      },
      capabilities: advertisedCapabilities(version).map((capability) => ({
        name: capability.name,
        version,
        spec: `${base}/specification/${capability.doc}`,
        schema: `${base}/schemas/shopping/${capability.schema}.json`,
        ...(capability.extends ? { extends: capability.extends } : {}),
      })),
    },
    payment: { handlers: paymentHandlers2026_01_11(settings.testHandler, settings.paymentHandlers) },
    ...(settings.signingKeys.length ? { signing_keys: settings.signingKeys.map((key) => ({ ...key })) } : {}),
  };
}

function profile2026_04_08(settings: ProfileSettings, leaf: boolean) {
  const version = '2026-04-08';
  const base = ucpDev(version);
  const linked = settings.current === version && !leaf ? linkedVersions(version) : [];
  const binding = (transport: 'rest' | 'mcp', schema: string, endpoint: string) => ({ version, spec: `${base}/specification/overview`, transport, schema, endpoint });
  return {
    ucp: {
      version,
      ...(linked.length ? { supported_versions: Object.fromEntries(linked.map((older) => [older, `${settings.origin}${versionProfilePath(older)}`])) } : {}),
      services: {
        [SHOPPING_SERVICE]: [
          binding('rest', `${base}/services/shopping/rest.openapi.json`, `${settings.origin}${UCP_PREFIX}`),
          binding('mcp', `${base}/services/shopping/mcp.openrpc.json`, `${settings.origin}${MCP_PATH}`),
        ],
      },
      capabilities: Object.fromEntries(
        advertisedCapabilities(version).map((capability) => [
          capability.name,
          [{ version, spec: `${base}/specification/${capability.doc}`, schema: `${base}/schemas/shopping/${capability.schema}.json`, ...(capability.extends ? { extends: capability.extends } : {}) }],
        ]),
      ),
      payment_handlers: paymentHandlers2026_04_08(settings.testHandler, settings.paymentHandlers),
    },
    ...(settings.signingKeys.length ? { signing_keys: settings.signingKeys.map((key) => ({ ...key })) } : {}),
  };
}

/**
 * The profile of `version`: the current one at /.well-known/ucp carries `supported_versions`; a
 * version's own profile (`leaf`, at /.well-known/ucp/<version>) never does.
 */
export function businessProfile(version: UcpVersion, settings: ProfileSettings, { leaf }: { leaf: boolean }): Record<string, unknown> {
  return version === '2026-01-11' ? profile2026_01_11(settings) : profile2026_04_08(settings, leaf);
}
