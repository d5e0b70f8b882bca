/**
 * What of a product is searched: the text handed to an embedder and the fields of a
 * search document. Attribute values that are URLs contribute the words of their path.
 */
import type { SearchDocument } from './search-engine.js';

/** What of a product is searched: a search document's fields (a Product has them too). */
export type SearchedFields = Omit<SearchDocument, 'merchantId' | 'vector'>;

/** Attribute values as searchable text: plain values as they are, URLs reduced to their path's words. */
export function attributeText(attributes: Record<string, string[]>): string {
  const parts: string[] = [];
  for (const values of Object.values(attributes)) {
    for (const value of values) {
      if (/^https?:\/\//i.test(value)) {
        const path = value.replace(/^https?:\/\/[^/?#]*/i, '').replace(/[?#].*$/, '');
        try {
          parts.push(decodeURIComponent(path).replace(/[/_-]+/g, ' '));
        } catch {
          parts.push(path.replace(/[/_-]+/g, ' '));
        }
      } else parts.push(value);
    }
  }
  return parts.join(' ');
}

/** The text an embedder sees for a product: the title counts twice, then category, tags, description, attributes. */
export function embeddingText(product: Omit<SearchedFields, 'id' | 'price'>): string {
  return [product.title, product.title, product.category, product.tags.join(', '), product.description, attributeText(product.attributes)]
    .filter(Boolean)
    .join('\n');
}

export function toSearchDocument(merchantId: string, product: SearchedFields, vector?: Float32Array): SearchDocument {
  return {
    merchantId,
    id: product.id,
    title: product.title,
    description: product.description,
    vendor: product.vendor,
    category: product.category,
    tags: product.tags,
    attributes: product.attributes,
    price: product.price,
    vector,
  };
}
