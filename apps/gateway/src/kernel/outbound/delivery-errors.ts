/**
 * Why a webhook was not delivered. Neither picks an HTTP status: the emit
 * service turns them into 400 / 502, the worker records them on the attempt.
 */

/** The target gave no HTTP answer: DNS failure, refused or reset connection, TLS error, timeout. */
export class DeliveryError extends Error {
  override name = 'DeliveryError';
  constructor(
    /** Short and human, e.g. "connection refused", "timed out after 10 s", "DNS lookup failed (ENOTFOUND)". */
    readonly reason: string,
    options?: { cause?: unknown },
  ) {
    super(reason, options);
  }
}

/**
 * The target is not allowed: not http(s), or its host is (or resolves to) a non-public address.
 * The message is a predicate for the URL: "must use http or https, not ftp".
 */
export class UnsafeTargetError extends Error {
  override name = 'UnsafeTargetError';
}
