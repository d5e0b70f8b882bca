/**
 * How products look inside Meilisearch: one index for every merchant (filter merchant_id),
 * lower-cased copies of category and tags for the case-insensitive filters, and the
 * settings the adapter applies (filterable price, category, tags, vendor and price band;
 * searchable fields in order of weight; typo tolerance as the embedded engine's; facets; the
 * embedder).
 */
import type { Embedders, Settings } from 'meilisearch';
import { attributeText } from '../product-text.js';
import { priceBand } from '../embedded/facet-counter.js';
import { foldCase, type ProductFilter } from '../filter.js';
import type { SearchDocument } from '../search-engine.js';

export interface MeiliProduct {
  uid: string;
  merchant_id: string;
  product_id: string;
  title: string;
  category: string;
  category_lc: string;
  tags: string[];
  tags_lc: string[];
  vendor: string;
  attribute_values: string;
  description: string;
  price: number;
  /** Index of the price band (facet-counter.ts PRICE_EDGES): Meilisearch counts it as the `price` facet's buckets. */
  price_band: number;
  _vectors?: { default: number[] | null };
}

export const EMBEDDER_NAME = 'default';

/** A document id Meilisearch accepts (letters, digits, - and _), unique per merchant and product. */
export function documentUid(merchantId: string, productId: string): string {
  return Buffer.from(`${merchantId}\u0000${productId}`, 'utf8').toString('base64url');
}

export function toMeiliProduct(doc: SearchDocument, userProvidedVectors: boolean): MeiliProduct {
  return {
    uid: documentUid(doc.merchantId, doc.id),
    merchant_id: doc.merchantId,
    product_id: doc.id,
    title: doc.title,
    category: doc.category,
    category_lc: foldCase(doc.category),
    tags: doc.tags,
    tags_lc: doc.tags.map(foldCase),
    vendor: doc.vendor,
    attribute_values: attributeText(doc.attributes),
    description: doc.description,
    price: doc.price,
    price_band: priceBand(doc.price),
    ...(userProvidedVectors ? { _vectors: { [EMBEDDER_NAME]: doc.vector ? Array.from(doc.vector) : null } as { default: number[] | null } } : {}),
  };
}

/** Meilisearch filter strings are double-quoted; escape backslashes and quotes. */
export function quote(value: string): string {
  return `"${value.replace(/\\/g, '\\\\').replace(/"/g, '\\"')}"`;
}

/** The filter (search/filter.ts: its meaning) as a Meilisearch filter over one merchant's documents. */
export function filterExpression(merchantId: string, filters: ProductFilter): string {
  const parts = [`merchant_id = ${quote(merchantId)}`];
  if (filters.category) parts.push(`category_lc CONTAINS ${quote(foldCase(filters.category))}`);
  if (filters.tag) parts.push(`tags_lc = ${quote(foldCase(filters.tag))}`);
  if (filters.minPrice !== undefined) parts.push(`price >= ${filters.minPrice}`);
  if (filters.maxPrice !== undefined) parts.push(`price <= ${filters.maxPrice}`);
  return parts.join(' AND ');
}

export type MeiliEmbedderConfig =
  | { source: 'userProvided'; dimensions: number }
  | { source: 'rest'; url: string; apiKey?: string | undefined; model?: string | undefined; dimensions: number };

/** The embedder setting: vectors the gateway supplies, or Meilisearch calling an OpenAI-compatible endpoint itself. */
export function embedderSettings(config: MeiliEmbedderConfig): Embedders {
  if (config.source === 'userProvided') return { [EMBEDDER_NAME]: { source: 'userProvided', dimensions: config.dimensions } };
  return {
    [EMBEDDER_NAME]: {
      source: 'rest',
      url: config.url,
      ...(config.apiKey ? { apiKey: config.apiKey } : {}),
      dimensions: config.dimensions,
      documentTemplate: '{{doc.title}}\n{{doc.title}}\n{{doc.category}}\n{{doc.tags | join: ", "}}\n{{doc.description}}\n{{doc.attribute_values}}',
      request: { ...(config.model ? { model: config.model } : {}), input: ['{{text}}', '{{..}}'], dimensions: config.dimensions },
      response: { data: [{ embedding: '{{embedding}}' }, '{{..}}'] },
    },
  };
}

export function indexSettings(embedder: MeiliEmbedderConfig): Settings {
  return {
    searchableAttributes: ['title', 'category', 'tags', 'vendor', 'attribute_values', 'description'],
    // category, vendor and price_band are filterable so that they can be faceted on.
    filterableAttributes: ['merchant_id', 'price', 'category_lc', 'tags_lc', 'category', 'vendor', 'price_band'],
    sortableAttributes: ['price', 'title', 'product_id'],
    // The embedded engine's rules (query-terms.ts): 1 typo from 5 letters, 2 from 9, none in numbers.
    typoTolerance: { enabled: true, minWordSizeForTypos: { oneTypo: 5, twoTypos: 9 }, disableOnNumbers: true },
    faceting: { maxValuesPerFacet: 100, sortFacetValuesBy: { '*': 'count' } },
    displayedAttributes: ['uid', 'merchant_id', 'product_id'],
    embedders: embedderSettings(embedder),
  };
}
