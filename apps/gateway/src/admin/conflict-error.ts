import { GatewayError } from '../kernel/errors.js';

/** What the admin API would create exists already (a merchant id that is taken): 409 `conflict`. */
export class ConflictError extends GatewayError {
  readonly code = 'conflict';
  override readonly status: number = 409;
}
