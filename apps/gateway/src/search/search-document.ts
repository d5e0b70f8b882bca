/** A product as a search engine indexes it: its searchable text, its price and its embedding. */
export interface SearchDocument {
  merchantId: string;
  id: string;
  title: string;
  description: string;
  vendor: string;
  category: string;
  tags: string[];
  attributes: Record<string, string[]>;
  price: number;
  /** The product's embedding (unit length), or undefined when it has none yet. */
  vector?: Float32Array | undefined;
}
