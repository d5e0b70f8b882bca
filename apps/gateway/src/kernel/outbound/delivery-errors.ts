/**
 * Why an outgoing request (a webhook, a feed push, a profile fetch, an embedding batch) got no
 * usable answer. Neither picks an HTTP status: each caller words them (the emit service as 400 /
 * 502, the worker on the attempt, the feed client, the profile fetcher, the embedder).
 */

/** What kind of failure a DeliveryError of the outbound client is (outbound-client.ts). */
export type DeliveryFailure = 'dns' | 'network' | 'timeout' | 'too-large' | 'invalid-answer';

/** The target gave no HTTP answer: DNS failure, refused or reset connection, TLS error, timeout. */
export class DeliveryError extends Error {
  override name = 'DeliveryError';
  /** Set by the outbound client; undefined for a request that could not even be made (e.g. a webhook format's refusal). */
  readonly kind: DeliveryFailure | undefined;
  /** Whether another attempt may fare better (a refused connection, a timeout) or not (a TLS error, a name that does not exist). */
  readonly transient: boolean;
  /** How many attempts the outbound client made before giving up (1 without retries). */
  attempts = 1;

  constructor(
    /** Short and human, e.g. "connection refused", "timed out after 10 s", "DNS lookup failed (ENOTFOUND)". */
    readonly reason: string,
    options?: { cause?: unknown; kind?: DeliveryFailure; transient?: boolean },
  ) {
    super(reason, options?.cause === undefined ? undefined : { cause: options.cause });
    this.kind = options?.kind;
    this.transient = options?.transient ?? true;
  }
}

/**
 * The target is not allowed: not http(s), or its host is (or resolves to) a non-public address.
 * The message is a predicate for the URL: "must use http or https, not ftp".
 */
export class UnsafeTargetError extends Error {
  override name = 'UnsafeTargetError';
}
