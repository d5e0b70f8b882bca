/** The signing keys UCP verifiers accept: P-256 EC (ES256). */
import { ucpFail as fail } from './errors.js';
import type { UcpJwk } from './types.js';

/** Only P-256 EC keys (ES256): ES384 is OPTIONAL in UCP and not supported here. */
export function assertEs256Key(key: UcpJwk): void {
  if (key.kty !== 'EC') throw fail('algorithm_unsupported', `Key "${key.kid}" has kty "${key.kty}"; UCP signing keys are EC.`);
  if (key.crv !== 'P-256') throw fail('algorithm_unsupported', `Key "${key.kid}" is on curve ${key.crv}; this package verifies ES256 (P-256) only.`);
  if (key.alg !== undefined && key.alg !== 'ES256') throw fail('algorithm_unsupported', `Key "${key.kid}" declares alg "${key.alg}", not ES256.`);
  if (typeof key.x !== 'string' || typeof key.y !== 'string') throw fail('invalid_key', `Key "${key.kid}" lacks x or y.`);
}

/** The public members only: Node and Web Crypto both refuse unknown shapes less kindly. */
export const publicJwk = (key: UcpJwk) => ({ kty: 'EC', crv: 'P-256', x: key.x!, y: key.y! });
