import type { RequestHandler } from 'express';
import { InvalidRequestError } from '../../kernel/errors.js';

export class UnsupportedApiVersionError extends InvalidRequestError {
  constructor(
    given: string,
    readonly supportedVersions: string[],
  ) {
    super(`API-Version ${JSON.stringify(given)} is not supported; use one of ${supportedVersions.join(', ')}`, 'API-Version');
  }
}

/** No `API-Version` header on a profile that requires one (the ACP profile). */
export class MissingApiVersionError extends InvalidRequestError {
  constructor(readonly supportedVersions: string[]) {
    super(`The API-Version header is required; use one of ${supportedVersions.join(', ')}`, 'API-Version');
  }
}

export interface ApiVersionOptions {
  /** Refuse a request without the header (MissingApiVersionError) instead of using the newest version. */
  required?: boolean;
}

/**
 * Pins the request to an API version: the `API-Version` header, or the newest
 * supported one (unless the header is `required`). The version that answered is
 * echoed on every response.
 *
 *   app.use(apiVersion(['2026-11-01']));
 *   acpRouter.use(apiVersion(['2026-04-17'], { required: true }));
 */
export function apiVersion(supported: readonly string[], options: ApiVersionOptions = {}): RequestHandler {
  const newest = supported[supported.length - 1]!;
  return (req, res, next) => {
    const given = req.get('api-version')?.trim();
    const refusal =
      given === undefined
        ? options.required && new MissingApiVersionError([...supported])
        : !supported.includes(given) && new UnsupportedApiVersionError(given, [...supported]); // an empty header too
    const version = refusal ? newest : given || newest;
    res.setHeader('API-Version', version); // on a refusal too: the version that answered it
    if (refusal) throw refusal;
    req.ctx.apiVersion = version;
    next();
  };
}
