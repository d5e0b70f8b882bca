/**
 * One UCP release as this gateway speaks it: everything in which the releases it serves differ.
 * The rest of src/ucp/ and UCP's tools in src/mcp/ ask the release of a request, checkout or order
 * (`releaseOf(version)`, releases.ts) and never compare version strings.
 *
 * A new release is a folder `releases/<YYYY-MM-DD>/` whose one object implements this interface,
 * added to the table in releases.ts (TypeScript wants one entry per config's UCP_RELEASES, the values
 * UCP_VERSION may take), its official documents vendored in openapi/ucp/<version>/. It must say what
 * it defines (capabilities, REST operations, MCP binding), where its schemas are and which deviations
 * from them it accepts, how it words every answer (profiles, registries, envelope, refusals, the sign
 * of reductions, checkout payment, order, order webhook and its signature), and its rules
 * (negotiation, a creation the stock cannot fill). What releases share stays with the callers. The
 * catalog and the cart are worded at the first release that defines them (ucp-catalog.ts,
 * cart-state.ts): a release that changes them makes those follow the request's release.
 *
 * Nothing under releases/ imports a module that imports releases.ts (type imports count: the lint's
 * no-cycles rule): the releases sit below the modules that use them.
 */
import type { KeyObject } from 'node:crypto';
import type { UcpRelease } from '../../config/config.js';
import type { PaymentHandlerDeclaration } from '../../payments/payment-provider.js';

/** A UCP release's date, one of config's UCP_RELEASES. */
export type UcpVersion = UcpRelease;

type Json = Record<string, unknown>;

/** A capability as a profile declares it (`name`, `version`, `spec`, `schema`, `extends`), or as an answer's envelope does (`name`, `version`). */
export interface CapabilityEntry {
  name: string;
  version: string;
  spec?: string;
  schema?: string;
  extends?: string;
}

/** The payment handlers offered: UCP's test handler (when offered) and the payment provider's. */
export interface OfferedHandlers {
  testHandler: boolean;
  provider?: readonly PaymentHandlerDeclaration[] | undefined;
}

/** What a business profile holds, whatever the release's shape (business-profile.ts gathers it). */
export interface ProfileParts {
  /** The `dev.ucp.shopping` service's endpoints: REST (the origin + /ucp) and MCP (the origin + /mcp). */
  endpoints: { rest: string; mcp: string };
  /** The capabilities served at this release, each with its spec and schema. */
  capabilities: readonly CapabilityEntry[];
  handlers: OfferedHandlers;
  /** The older releases' own profiles by version: the current profile's links (empty in a leaf profile). */
  supportedVersions: Readonly<Record<string, string>>;
}

/** A refusal as ucp-error.ts's UcpError carries it. */
export interface Refusal {
  code: string;
  /** Human-readable, as UCP's `content`. */
  content: string;
  /** Its status in the gateway's table (UcpError's): a negotiation code's, or below 400 for a business outcome. */
  status: number;
  /** A negotiation failure (invalid_profile_url, profile_unreachable, profile_malformed, version_unsupported, capabilities_incompatible). */
  negotiation: boolean;
  /** About a resource (a checkout, cart or order that does not exist or can no longer change): a business outcome. */
  resource: boolean;
  /** RFC 9535 JSONPath of the request field it is about. */
  path?: string | undefined;
}

export interface ReleaseAnswer {
  status: number;
  body: Json;
}

/** A checkout of the release: its requests and its `payment`. */
export interface CheckoutRules {
  /** Fields a checkout's schema requires that requests may leave out (request-schemas.ts lists why). */
  optionalInRequests: readonly string[];
  /** The `$defs` entry by which an extension's schema composes the checkout (`fulfillment.json#/$defs/<this>`). */
  extensionDefinition: string;
  /** The schema, under schemas/shopping/, a completion's body matches. */
  completionSchema: string;
  /** The instrument a completion pays with, from its valid body; undefined when it names none. */
  instrumentOf(body: Json): Json | undefined;
  /** The refusal of a completion whose body names no instrument to pay with. */
  missingInstrument: { content: string; path: string };
  /** A checkout's `payment`: the instrument paid with (none before completion) and, where the release keeps them there, the handlers. */
  payment(instrument: Json | undefined, handlers: OfferedHandlers): Json;
  /** A creation asking more than the stock holds: `refuse`d (the release has no envelope for the outcome), or created with an `out_of_stock` message (`report`). */
  shortageAtCreation: 'refuse' | 'report';
}

/** What differs in the release's order (order.json). */
export interface OrderShape {
  /** A line with no unit left is `removed` (else it is `fulfilled`, every unit of it accounted for). */
  removedLines: boolean;
  /** A line's quantity carries `original`, the units ordered. */
  originalQuantity: boolean;
  /** The order carries its `currency`. */
  currency: boolean;
  /** An expectation's destination carries the recipient's `full_name`. */
  destinationFullName: boolean;
  /** An adjustment's (a refund's) money: `amount`, or `totals` with the reduction's sign. */
  adjustmentAmount(amount: number): Json;
}

/** One order webhook to sign (ucp/webhooks/ucp-order-webhook.ts). */
export interface OrderDelivery {
  /** The UCP order as it stands after the event (order/ucp-order.ts). */
  order: Json;
  event: { id: string; created: string };
  /** The platform's webhook URL. */
  url: string;
  /** What every delivery carries: Content-Type, UCP-Agent, Webhook-Id, Webhook-Timestamp. */
  headers: Record<string, string>;
  signer: { kid: string; privateKey: KeyObject };
  now: Date;
}

/** The release's MCP binding of the shopping service (src/mcp/ucp-tools.ts). */
export interface McpBinding {
  /** Its OpenRPC document, under the release's vendored folder. */
  openRpc: string;
  /** The platform's profile URL a tool call carries (its arguments, or the request's `_meta`); undefined when it carries none. */
  profileOf(args: Json, requestMeta: Json | undefined): string | undefined;
  /** Where a tool call carries the profile, for the refusal of one without it. */
  profileField: string;
  /** The Idempotency-Key a tool call carries, as given (a string, or anything else: none). */
  idempotencyKeyOf(args: Json): unknown;
  /** The argument that is the REST body, by tool, where the release's tool names another than src/mcp/ucp-operations.ts. */
  bodyArguments: Readonly<Record<string, string>>;
  /** The REST body of a body argument's value (the release's tool and REST shapes may differ). */
  restBody(argument: string, value: unknown): unknown;
  /** A business outcome (`ucp.status: "error"` with `messages`) is the tool's result, not a JSON-RPC error. */
  outcomesAreResults: boolean;
  /** A protocol error's HTTP status goes with the JSON-RPC error over Streamable HTTP. */
  protocolStatus: boolean;
}

export interface Release {
  readonly version: UcpVersion;
  /** Where its documents live on ucp.dev: `<this>/specification/…`, `<this>/schemas/…`, `<this>/services/…`. */
  readonly documentsUrl: string;
  /** The capabilities it defines, by name (capabilities.ts says which are served). */
  readonly capabilities: readonly string[];
  /** Its REST binding (under services/shopping/), and the operations served at this release beyond it (by operationId). */
  readonly rest: { binding: string; alsoServed: readonly string[] };
  readonly negotiation: {
    /** Its profile links the older releases spoken (`supported_versions`). */
    linksOlderReleases: boolean;
    /** Current, it processes a platform of an older release it does not speak itself, rather than refusing it. */
    processesOlderPlatforms: boolean;
  };
  readonly schemas: {
    /** Vendored files beyond schemas/ and discovery/ its schemas refer to (paths under its folder). */
    extraFiles: readonly string[];
    /** The fragment of discovery/profile_schema.json that validates a business's or a platform's profile ('' for the whole). */
    profileFragment(kind: 'business' | 'platform'): string;
    /** A platform profile without `ucp.services` is validated as one declaring none (profile-fetcher.ts). */
    platformServicesOptional: boolean;
  };
  /** Capabilities as the release declares them (a list, or a registry keyed by name). */
  capabilityRegistry(entries: readonly CapabilityEntry[]): unknown;
  /** The payment handlers as the release declares them (a list, or a registry keyed by name). */
  paymentHandlers(offered: OfferedHandlers): unknown;
  /** The business profile (`signing_keys` apart: business-profile.ts adds them). */
  businessProfile(parts: ProfileParts): Json;
  /** The sample platform profile of development (dev-platform-profile.ts). */
  devPlatformProfile(capabilities: readonly CapabilityEntry[]): Json;
  /** The `ucp` object an answer opens with; `handlers` for a checkout's answer. */
  envelope(capabilities: readonly string[], handlers?: OfferedHandlers): Json;
  /** A refusal's status and body. */
  answer(refusal: Refusal): ReleaseAnswer;
  /** A reduction (a discount, a refunded or canceled quantity) as the release writes it: negative, or positive. */
  reduction(amount: number): number;
  readonly checkout: CheckoutRules;
  readonly order: OrderShape;
  /** The body and headers of an order webhook, signed as the release asks. */
  orderWebhook(delivery: OrderDelivery): { body: string; headers: Record<string, string> };
  readonly mcp: McpBinding;
}
