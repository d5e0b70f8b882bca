/** ACP's Address (`line_one`, `line_two`) ↔ the domain's (`line1`, `line2`). */
import type { Address } from '../../contract/types.js';
import type { AcpAddress } from './acp-types.js';

export function toDomainAddress(address: AcpAddress): Address {
  return {
    name: address.name,
    line1: address.line_one,
    ...(address.line_two !== undefined ? { line2: address.line_two } : {}),
    city: address.city,
    state: address.state,
    postal_code: address.postal_code,
    country: address.country,
  };
}
