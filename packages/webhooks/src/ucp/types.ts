/**
 * UCP request signatures. 2026-04-08 (signatures.md, "REST Binding"): RFC 9421 HTTP Message
 * Signatures over `@method`, `@authority`, `@path`, `@query` (when the URL has one), `ucp-agent`
 * (when present), `idempotency-key` (when present), `content-digest` and `content-type` (when there
 * is a body), with an RFC 9530 `Content-Digest: sha-256=:…:` of the raw body and ES256 (raw r||s).
 * 2026-01-11: a detached JWS in `Request-Signature` (jws.ts).
 *
 * This folder holds everything but the cryptography, shared by the node:crypto (ucp-node.ts) and
 * Web Crypto (ucp-web.ts) flavours; nothing in it imports a node: module. This file: the shapes
 * the signers and verifiers take and give.
 */
/** An EC public key as published in `signing_keys` of `/.well-known/ucp` (RFC 7517). */
export interface UcpJwk {
  kid?: string;
  kty: string;
  crv?: string;
  x?: string;
  y?: string;
  d?: string;
  use?: string;
  alg?: string;
  [member: string]: unknown;
}

/** Headers as Node (`IncomingHttpHeaders`), fetch (`Headers`) or a plain record give them. */
export type UcpHeaders =
  | { get(name: string): string | null }
  | Record<string, string | readonly string[] | number | undefined>;

/** The raw request body: never the parsed JSON. */
export type UcpBody = string | ArrayBuffer | ArrayBufferView;

export interface UcpSignRequest {
  method: string;
  /** The absolute target URL (`https://platform.example/webhooks/ucp?x=1`). */
  url: string | URL;
  /** The request's headers; `Content-Type` (default `application/json` when there is a body), `UCP-Agent`, `Idempotency-Key` are signed when present. */
  headers?: UcpHeaders;
  body?: UcpBody;
  /** Key ID published in `signing_keys` (defaults to the JWK's `kid`). */
  keyid?: string;
  /** Unix seconds for `created`; defaults to now. `false` leaves `created` out (it is OPTIONAL in UCP). */
  created?: number | false;
  /** Unix seconds for `expires` (optional). */
  expires?: number;
  /** Signature label; default `sig1`. */
  label?: string;
}

/** The headers to add to the request. */
export interface UcpSignedHeaders {
  /** Absent for a request without a body. */
  'Content-Digest'?: string;
  /** `application/json`, only when the request has a body and no Content-Type of its own (it is signed). */
  'Content-Type'?: string;
  'Signature-Input': string;
  'Signature': string;
}

export interface UcpVerifyRequest {
  method: string;
  /** The absolute URL the request was sent to, as the sender saw it (behind a proxy: the public URL). */
  url: string | URL;
  headers: UcpHeaders;
  body: UcpBody;
}

export interface UcpVerifyOptions {
  /** Seconds `created` may lie from now (either way), default 300. */
  tolerance?: number;
  /** Refuse a signature without `created`; default false (UCP makes `created` OPTIONAL). */
  requireCreated?: boolean;
  /** Which `Signature-Input` label to verify; default: the first. */
  label?: string;
  /** Clock in milliseconds, for tests. */
  now?: () => number;
}
