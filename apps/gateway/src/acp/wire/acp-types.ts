/**
 * The few ACP 2026-04-17 shapes the mappers write or read, transcribed from the official
 * JSON Schema (openapi/acp/2026-04-17/json-schema) with the profile's additions to requests
 * (request-schema.ts). Every body is validated against that schema at the edge; these types
 * only keep the mappers honest.
 */
export interface AcpAddress {
  name: string;
  line_one: string;
  line_two?: string;
  city: string;
  state: string;
  country: string;
  postal_code: string;
}

export interface AcpFulfillmentDetails {
  name?: string;
  phone_number?: string;
  email?: string;
  address?: AcpAddress;
}

export interface AcpBuyer {
  first_name?: string;
  last_name?: string;
  full_name?: string;
  email: string;
  phone_number?: string;
  [field: string]: unknown;
}

/** As the profile takes it: the official Item plus the RFC's `quantity` (request-schema.ts). */
export interface AcpItem {
  id: string;
  name?: string;
  unit_amount?: number;
  quantity?: number;
}

export interface AcpCapabilities {
  interventions?: { supported?: string[]; [field: string]: unknown };
  extensions?: unknown[];
  [field: string]: unknown;
}

export interface AcpSelectedFulfillmentOption {
  type: 'shipping' | 'digital' | 'pickup' | 'local_delivery';
  option_id: string;
  item_ids: string[];
}

export interface AcpCreateRequest {
  /** One of `line_items` and `items` (the RFC's name for it). */
  line_items?: AcpItem[];
  items?: AcpItem[];
  currency: string;
  capabilities: AcpCapabilities;
  buyer?: AcpBuyer;
  fulfillment_details?: AcpFulfillmentDetails;
  [field: string]: unknown;
}

export interface AcpUpdateRequest {
  line_items?: AcpItem[];
  items?: AcpItem[];
  buyer?: AcpBuyer;
  fulfillment_details?: AcpFulfillmentDetails;
  selected_fulfillment_options?: AcpSelectedFulfillmentOption[];
  [field: string]: unknown;
}

export interface AcpCompleteRequest {
  payment_data: {
    handler_id?: string;
    instrument?: { type: string; credential: { type: string; token: string } };
    purchase_order_number?: string;
    [field: string]: unknown;
  };
  buyer?: AcpBuyer;
  authentication_result?: { outcome: string; [field: string]: unknown };
  [field: string]: unknown;
}

export interface AcpTotal {
  type: string;
  display_text: string;
  amount: number;
}

export interface AcpMessage {
  type: 'info' | 'warning' | 'error';
  code?: string;
  param?: string;
  resolution?: 'recoverable' | 'requires_buyer_input' | 'requires_buyer_review';
  content_type: 'plain';
  content: string;
}
