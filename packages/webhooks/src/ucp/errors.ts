/** Every refusal of the UCP verifiers (signatures.md "Error Handling"), and the helper that makes one. */
export type UcpSignatureErrorCode =
  | 'signature_missing'
  | 'signature_invalid'
  | 'key_not_found'
  | 'digest_missing'
  | 'digest_mismatch'
  | 'algorithm_unsupported'
  | 'signature_expired'
  | 'signature_malformed'
  | 'invalid_body'
  | 'invalid_key';

/**
 * Every refusal of the UCP verifiers. `code` is stable; the first five are the error codes of
 * UCP signatures.md "Error Handling" (`signature_missing`, `signature_invalid`, `key_not_found`,
 * `digest_mismatch`, `algorithm_unsupported`), the rest narrow down what was wrong.
 */
export class UcpSignatureError extends Error {
  override readonly name = 'UcpSignatureError';
  readonly code: UcpSignatureErrorCode;

  constructor(code: UcpSignatureErrorCode, message: string, options?: { cause?: unknown }) {
    super(message, options);
    this.code = code;
    Object.setPrototypeOf(this, new.target.prototype);
  }
}

const fail = (code: UcpSignatureErrorCode, message: string, cause?: unknown) =>
  new UcpSignatureError(code, message, cause === undefined ? undefined : { cause });

export { fail as ucpFail };
