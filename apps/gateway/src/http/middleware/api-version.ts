import type { RequestHandler } from 'express';
import { InvalidRequestError } from '../../errors.js';

export class UnsupportedApiVersionError extends InvalidRequestError {
  constructor(
    given: string,
    readonly supportedVersions: string[],
  ) {
    super(`API-Version ${JSON.stringify(given)} is not supported; use one of ${supportedVersions.join(', ')}`, 'API-Version');
  }
}

/**
 * Pins the request to an API version: the `API-Version` header, or the newest
 * supported one. The version that answered is echoed on every response.
 *
 *   app.use(apiVersion(['2026-11-01']));
 */
export function apiVersion(supported: readonly string[]): RequestHandler {
  const newest = supported[supported.length - 1]!;
  return (req, res, next) => {
    const given = req.get('api-version')?.trim();
    res.setHeader('API-Version', newest);
    if (given !== undefined && !supported.includes(given)) throw new UnsupportedApiVersionError(given, [...supported]); // an empty header too
    const version = given || newest;
    res.setHeader('API-Version', version);
    req.ctx.apiVersion = version;
    next();
  };
}
