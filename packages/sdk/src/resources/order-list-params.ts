import type { ListOrdersData } from '../generated/types.gen.js';

/** Query of an order listing: `status`, `created_after`, `created_before`, `email`, `customer_id`, `limit`, `cursor`. */
export type OrderListParams = NonNullable<ListOrdersData['query']>;
