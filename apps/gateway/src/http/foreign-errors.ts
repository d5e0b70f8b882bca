/**
 * Errors thrown by the libraries under the edge, as the domain's typed errors, so that every
 * protocol profile answers them in its own shape (and none of them is taken for a bug, a 500):
 *
 * - a path whose percent-encoding is not UTF-8 (`/x/%`, `%E0`): decodeURIComponent's URIError,
 *   which Express's router also throws as "Failed to decode param";
 * - a body that does not decompress as its `Content-Encoding` says (a `gzip` body that is not
 *   gzip): zlib's or brotli's own error, which body-parser passes on as a bare 400.
 *
 *   const typed = typedError(error, req.get('content-encoding')); // InvalidRequestError, or `error` as it was
 */
import { InvalidRequestError, KnownError } from '../kernel/errors.js';

interface ReadError {
  status?: unknown;
  expose?: unknown;
  type?: unknown;
  errors?: unknown;
}

/** body-parser's error for a body it could not read (not one it read and refused: those carry a `type`). */
function isUndecodableBody(error: unknown): error is Error {
  const { status, expose, type, errors } = (error ?? {}) as ReadError;
  return error instanceof Error && status === 400 && expose === true && type === undefined && errors === undefined;
}

export function typedError(error: unknown, contentEncoding: string | undefined): unknown {
  if (error instanceof KnownError) return error; // ours already (a protocol's own error too: its `status` and `expose` are no body-parser's)
  if (error instanceof URIError) return new InvalidRequestError('The path is not valid percent-encoded UTF-8');
  if (isUndecodableBody(error)) {
    const what = contentEncoding ? `not valid ${contentEncoding} data` : 'unreadable';
    return new InvalidRequestError(`The request body is ${what}: ${error.message}`);
  }
  return error;
}
