import type { SearchProductsData } from '../generated/types.gen.js';

/** Query of a product search: `q`, `category`, `tag`, `min_price`, `max_price`, `page`, `page_size`. */
export type ProductSearchParams = NonNullable<SearchProductsData['query']>;
