/**
 * The origin ACP's public documents name (discovery's `api_base_url` and `documentation_url`) and
 * how they may be cached (http/public-origin.ts); a request whose origin cannot be named is refused
 * in ACP's error shape.
 */
import type { Request } from 'express';
import { originHeaders, publicOrigin as documentOrigin, type PublicOrigin, type PublicOriginOptions } from '../http/public-origin.js';
import { AcpError } from './acp-error.js';

export function publicOrigin(req: Request, options: PublicOriginOptions): PublicOrigin {
  const found = documentOrigin(req, options);
  if (!found) {
    throw new AcpError(400, 'invalid_request', 'invalid', `The request's origin (${originHeaders(options).join(', ')}) is not an http(s) host this gateway can name in a document; set PUBLIC_BASE_URL`);
  }
  return found;
}
