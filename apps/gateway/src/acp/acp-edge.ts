/**
 * The ACP profile's own edge rules, beside the shared ones (authentication, rate limits,
 * idempotency store, body parsing): Bearer credentials, Idempotency-Key required on every POST
 * and echoed, Signature/Timestamp over canonical JSON, and request bodies validated against the
 * official schema, as the profile takes it (request-schema.ts), before anything runs.
 */
import type { RequestHandler } from 'express';
import { checkSignature, type SignatureProblem } from '../auth/request-signature.js';
import { AuthenticationError } from '../kernel/errors.js';
import { checkRequestV2, type SignatureV2Options } from '../http/middleware/verify-signature.js';
import { AcpError } from './acp-error.js';
import { acpRequestValidator, describeFirst } from './acp-schemas.js';
import { canonicalJson } from './canonical-json.js';

/** rfc.agentic_checkout.md §3.1: `Authorization: Bearer <token>` is REQUIRED (our API keys are the tokens). */
export function requireBearer(): RequestHandler {
  return (req, _res, next) => {
    if (!/^bearer\s+\S/i.test(req.get('authorization')?.trim() ?? '')) {
      throw new AuthenticationError('The ACP profile authenticates with Authorization: Bearer <API key>');
    }
    next();
  };
}

/** §6.1: every POST carries an Idempotency-Key (400 idempotency_key_required); POST answers echo it. */
export function requireIdempotencyKey(): RequestHandler {
  return (req, res, next) => {
    if (req.method !== 'POST') return next();
    const key = req.get('idempotency-key');
    if (key === undefined || key === '') {
      throw new AcpError(400, 'invalid_request', 'idempotency_key_required', 'Idempotency-Key header is required on all POST requests');
    }
    res.setHeader('Idempotency-Key', key);
    next();
  };
}

const SIGNATURE_MESSAGES: Record<SignatureProblem, string> = {
  missing_signature: 'This key signs its requests: send Signature (base64url HMAC-SHA256 of the canonical JSON body, RFC 8785)',
  malformed_signature: 'Signature must be the base64url (RFC 4648 §5, no padding) HMAC-SHA256 of the canonical JSON body: 43 characters',
  missing_timestamp: 'Signed requests need a Timestamp header (RFC 3339, e.g. 2026-04-17T10:30:00Z)',
  malformed_timestamp: 'Timestamp must be RFC 3339, e.g. 2026-04-17T10:30:00Z',
  stale_timestamp: 'Timestamp is more than 5 minutes away from the server clock',
  mismatch: 'Signature does not match the canonical JSON of the request body',
};

/**
 * Request signing as the RFC defines it (§2.1, §7): `Signature` is the HMAC-SHA256, keyed with
 * the key's signing secret, of the body's canonical JSON (RFC 8785; no bytes for a body-less
 * request), in base64url without padding and nothing else; `Timestamp` RFC 3339 within 5 minutes. Required
 * for keys with a signing secret, or for every key when `requireAll`. Our X-Request-Signature (v2, over
 * the whole request) is checked instead when sent, and required for keys whose scheme is v2: the RFC's
 * signature covers neither the path nor its timestamp, so a key that requires v2 takes it nowhere.
 */
export function verifyAcpSignature(options: { requireAll: boolean } & SignatureV2Options): RequestHandler {
  const now = options.now ?? Date.now;
  return (req, _res, next) => {
    const secret = req.ctx.principal?.signingSecret;
    if (!secret) {
      if (options.requireAll) throw new AuthenticationError('This gateway requires signed requests; use a key created with --signing-secret');
      return next();
    }
    if (checkRequestV2(req, secret, options) === 'verified') return next();
    const signed = req.ctx.rawBody?.length ? Buffer.from(canonicalJson(req.body), 'utf8') : Buffer.alloc(0);
    const problem = checkSignature(signed, req.get('signature'), req.get('timestamp'), secret, now(), 'base64url');
    if (problem) throw new AuthenticationError(SIGNATURE_MESSAGES[problem]);
    next();
  };
}

/** Validates the body against the operation's request schema: the official JSON Schema's, as the profile takes it (request-schema.ts). */
export function validateAcpRequest(schemaOf: (operationId: string) => string | undefined): RequestHandler {
  return (req, _res, next) => {
    const schema = req.ctx.operation && schemaOf(req.ctx.operation.operationId);
    if (!schema) return next();
    const validate = acpRequestValidator(schema);
    if (!validate(req.body)) {
      const { message, param } = describeFirst(validate.errors);
      throw new AcpError(400, 'invalid_request', 'invalid', message, param);
    }
    next();
  };
}
