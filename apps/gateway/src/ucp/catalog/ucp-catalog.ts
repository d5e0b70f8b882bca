/**
 * UCP 2026-04-08's catalog over our catalog (CatalogService: the read model and the hybrid search
 * engine): search_catalog, lookup_catalog and get_product, answering the official response bodies.
 * Knows nothing of Express; requests are checked against the official request schemas here, so every
 * transport (REST, MCP) gets the same refusals.
 *
 * - search: hybrid search with a query, a listing (title order) with filters only; a request with
 *   neither is refused (search.md "Search Inputs"). Filters: catalog-filters.ts. Pagination: an opaque
 *   cursor (search-cursor.ts), `limit` default 10, clamped to 50; `total_count` when it is known (one
 *   category at most).
 * - lookup: each id as a variant SKU (`exact`) or else a product id (`featured`: the first available
 *   variant the filters allow); at most 50 distinct ids (400 `request_too_large` beyond); ids that
 *   resolve to nothing are info messages `not_found` (rest.md "Partial Success").
 * - get_product: a product or variant id, with option selection (option-selection.ts); an unknown
 *   id (or one whose variants the filters all exclude) is the 200 error envelope `not_found`.
 */
import type { LineItemInput, Product, Variant } from '../../contract/types.js';
import type { CatalogService } from '../../catalog/catalog-service.js';
import { NotFoundError } from '../../kernel/errors.js';
import { compareTitleOrder } from '../../search/filter.js';
import { StorefrontUrls } from '../../storefront/storefront-urls.js';
import { CAPABILITY } from '../capabilities.js';
import { releaseDefining, releaseOf } from '../releases/releases.js';
import { UcpError } from '../ucp-error.js';
import { describeProblem, shoppingSchema, ucpSchemaValidator } from '../ucp-schemas.js';
import { categoryAllowed, priceAllowed, resolveFilters, type ResolvedFilters, type UcpSearchFilters } from './catalog-filters.js';
import { selectVariants } from './option-selection.js';
import { sellableVariants, toUcpProduct, ucpAvailability, ucpPrice } from './product-mapper.js';
import { decodeCursor, encodeCursor, MAX_OFFSET, searchFingerprint } from './search-cursor.js';
import type { UcpInputCorrelation, UcpMessage, UcpProduct, UcpSelectedOption } from './ucp-product.js';

export const SEARCH_CAPABILITY = CAPABILITY.catalogSearch;
export const LOOKUP_CAPABILITY = CAPABILITY.catalogLookup;
/** The release the catalog is answered at: the first that defines it (2026-04-08). */
export const CATALOG_VERSION = releaseDefining(SEARCH_CAPABILITY).version;
export const DEFAULT_LIMIT = 10;
export const MAX_LIMIT = 50;
export const MAX_LOOKUP_IDS = 50;

interface Context {
  currency?: string;
  [hint: string]: unknown;
}

export interface SearchRequest {
  query?: string;
  context?: Context;
  filters?: UcpSearchFilters;
  pagination?: { cursor?: string; limit?: number };
}

export interface LookupRequest {
  ids: string[];
  filters?: UcpSearchFilters;
  context?: Context;
}

export interface GetProductRequest {
  id: string;
  selected?: UcpSelectedOption[];
  preferences?: string[];
  filters?: UcpSearchFilters;
  context?: Context;
}

export interface UcpCatalogDeps {
  catalog: CatalogService;
  /** Resolves ids as checkout does: a variant SKU to its product, anything else as a product id (CheckoutService.itemsByIds). */
  itemsByIds: (merchantId: string, ids: readonly string[]) => Promise<LineItemInput[]>;
  /** STOREFRONT_URL: product and variant `url`s (none without it). */
  storefrontUrl?: string | undefined;
}

/** The `ucp` envelope of a catalog answer (ucp.json#/$defs/response_catalog_schema): the operation's capability, `status` success or error. */
export function catalogMeta(capability: string, status?: 'error'): Record<string, unknown> {
  return { ...releaseOf(CATALOG_VERSION).envelope([capability]), ...(status ? { status } : {}) };
}

/** Checks a request body against an official request schema: 400 `invalid_request` naming the first problem. */
function checkRequest<T>(body: unknown, definition: string): T {
  const validate = ucpSchemaValidator(CATALOG_VERSION, shoppingSchema(definition));
  if (!validate(body)) throw new UcpError('invalid_request', `The request body ${describeProblem(validate).replace(/^\(the profile\)/, '(the body)')}`, 400);
  return body as T;
}

const notFound = (id: string): boolean => id.includes('\u0000');

export class UcpCatalog {
  constructor(private readonly deps: UcpCatalogDeps) {}

  private urls(merchantId: string): StorefrontUrls | undefined {
    return this.deps.storefrontUrl ? new StorefrontUrls(this.deps.storefrontUrl, merchantId) : undefined;
  }

  private async filtersOf(merchantId: string, filters: UcpSearchFilters | undefined, context: Context | undefined): Promise<ResolvedFilters> {
    // The merchant's currencies (a database read) only matter to a price bound.
    const priced = filters?.price?.min !== undefined || filters?.price?.max !== undefined;
    return resolveFilters(filters, context?.currency, priced ? await this.deps.catalog.currencies(merchantId) : new Set());
  }

  async search(merchantId: string, body: unknown): Promise<Record<string, unknown>> {
    const request = checkRequest<SearchRequest>(body, 'catalog_search.json#/$defs/search_request');
    const query = request.query?.trim() ?? '';
    const filters = await this.filtersOf(merchantId, request.filters, request.context);
    const filtered = filters.categories.length > 0 || Object.keys(request.filters ?? {}).length > 0;
    if (!query && !filtered) throw new UcpError('invalid_request', 'Send a non-blank query, filters, or both: a search needs at least one input', 400);
    if (query.includes('\u0000')) throw new UcpError('invalid_request', 'query must not contain the NUL character', 400);
    const limit = Math.min(request.pagination?.limit ?? DEFAULT_LIMIT, MAX_LIMIT);
    const fingerprint = searchFingerprint([query, filters.categories, filters.price, filters.priceMinor?.currency ?? null]);
    const offset = request.pagination?.cursor !== undefined ? decodeCursor(request.pagination.cursor, fingerprint) : 0;
    const page = await this.page(merchantId, query, filters, offset, limit);
    const next = offset + page.items.length;
    const hasNext = page.hasNext && next <= MAX_OFFSET;
    const urls = this.urls(merchantId);
    return {
      ucp: catalogMeta(SEARCH_CAPABILITY),
      products: page.items.map((product) => toUcpProduct(product, { variants: featuredFirst(sellableVariants(product)), urls })),
      pagination: { has_next_page: hasNext, ...(hasNext ? { cursor: encodeCursor(next, fingerprint) } : {}), ...(page.total !== undefined ? { total_count: page.total } : {}) },
      ...(filters.messages.length ? { messages: filters.messages } : {}),
    };
  }

  /** One page from our search: one category (or none) is one search; several are merged (OR), deduplicated. */
  private async page(merchantId: string, q: string, filters: ResolvedFilters, offset: number, limit: number): Promise<{ items: Product[]; hasNext: boolean; total?: number }> {
    const run = (category: string | undefined, page: number, pageSize: number) =>
      this.deps.catalog.search(merchantId, { q, category, ...filters.price, page, pageSize }, CATALOG_VERSION);
    if (filters.categories.length <= 1) {
      const category = filters.categories[0];
      // Our search pages by page number: an offset that is not a multiple of the limit reads from the start.
      const aligned = offset % limit === 0;
      const result = aligned ? await run(category, offset / limit + 1, limit) : await run(category, 1, offset + limit);
      const items = aligned ? result.items : result.items.slice(offset);
      return { items, hasNext: offset + items.length < result.total, total: result.total };
    }
    const results = await Promise.all(filters.categories.map((category) => run(category, 1, offset + limit + 1)));
    const seen = new Set<string>();
    const merged = results
      .flatMap((result) => result.items)
      .sort(q ? (a, b) => (b.similarity_score ?? 0) - (a.similarity_score ?? 0) : compareTitleOrder)
      .filter((product) => !seen.has(product.id) && seen.add(product.id));
    return { items: merged.slice(offset, offset + limit), hasNext: merged.length > offset + limit };
  }

  async lookup(merchantId: string, body: unknown): Promise<Record<string, unknown>> {
    const request = checkRequest<LookupRequest>(body, 'catalog_lookup.json#/$defs/lookup_request');
    const ids = [...new Set(request.ids)];
    if (ids.length > MAX_LOOKUP_IDS) throw new UcpError('request_too_large', `ids holds ${ids.length} distinct identifiers; at most ${MAX_LOOKUP_IDS} are looked up at once`, 400);
    const filters = await this.filtersOf(merchantId, request.filters, request.context);
    const usable = ids.filter((id) => !notFound(id));
    const resolved = usable.length ? await this.deps.itemsByIds(merchantId, usable) : [];
    // Per product, in the order its first identifier was asked: the identifiers naming it and how.
    const asked = new Map<string, { id: string; sku?: string | undefined }[]>();
    resolved.forEach((input, i) => asked.set(input.product_id, [...(asked.get(input.product_id) ?? []), { id: usable[i]!, sku: input.variant_sku }]));
    const found = new Map<string, Product>();
    await Promise.all([...asked.keys()].map(async (productId) => {
      const product = await this.productOrUndefined(merchantId, productId);
      if (product) found.set(productId, product);
    }));
    const urls = this.urls(merchantId);
    const products: UcpProduct[] = [];
    const missing = new Set(ids.filter(notFound));
    for (const [productId, inputs] of asked) {
      const product = found.get(productId);
      if (!product) {
        inputs.forEach((input) => missing.add(input.id));
        continue;
      }
      if (!categoryAllowed(product.category, filters.categories)) continue;
      const allowed = sellableVariants(product).filter((variant) => priceAllowed(ucpPrice(variant.price, variant.currency), filters.priceMinor));
      const shown = new Map<Variant, UcpInputCorrelation[]>();
      for (const input of inputs) {
        const exact = input.sku !== undefined ? allowed.find((variant) => variant.sku === input.sku) : undefined;
        const variant = exact ?? (input.sku === undefined ? featuredFirst(allowed)[0] : undefined);
        if (variant) shown.set(variant, [...(shown.get(variant) ?? []), { id: input.id, match: exact ? 'exact' : 'featured' }]);
      }
      if (shown.size === 0) continue;
      const mapped = toUcpProduct(product, { variants: [...shown.keys()], urls });
      mapped.variants.forEach((variant, i) => (variant.inputs = [...shown.values()][i]));
      products.push(mapped);
    }
    const messages: UcpMessage[] = [...filters.messages, ...[...missing].map((id): UcpMessage => ({ type: 'info', code: 'not_found', content: id }))];
    return { ucp: catalogMeta(LOOKUP_CAPABILITY), products, ...(messages.length ? { messages } : {}) };
  }

  async getProduct(merchantId: string, body: unknown): Promise<Record<string, unknown>> {
    const request = checkRequest<GetProductRequest>(body, 'catalog_lookup.json#/$defs/get_product_request');
    const names = (request.selected ?? []).map((s) => s.name);
    const twice = names.find((name, i) => names.indexOf(name) !== i);
    if (twice !== undefined) throw new UcpError('invalid_request', `selected names the option ${JSON.stringify(twice)} more than once; each option name may appear at most once`, 400);
    const filters = await this.filtersOf(merchantId, request.filters, request.context);
    const [input] = notFound(request.id) ? [] : await this.deps.itemsByIds(merchantId, [request.id]);
    const product = input && (await this.productOrUndefined(merchantId, input.product_id));
    const variant = input?.variant_sku !== undefined ? product?.variants.find((v) => v.sku === input.variant_sku) : undefined;
    const selection =
      product && categoryAllowed(product.category, filters.categories)
        ? selectVariants(product, {
            variant,
            selected: request.selected,
            preferences: request.preferences,
            allowed: (v) => priceAllowed(ucpPrice(v.price, v.currency), filters.priceMinor),
          })
        : undefined;
    if (!product || !selection) {
      return {
        ucp: catalogMeta(LOOKUP_CAPABILITY, 'error'),
        messages: [{ type: 'error', code: 'not_found', content: `Product not found: ${request.id}`, severity: 'unrecoverable' }],
      };
    }
    const mapped = toUcpProduct(product, { variants: selection.variants, urls: this.urls(merchantId) });
    const detail = { ...mapped, ...(selection.options.length ? { options: selection.options, selected: selection.selected } : {}) };
    return { ucp: catalogMeta(LOOKUP_CAPABILITY), product: detail, ...(filters.messages.length ? { messages: filters.messages } : {}) };
  }

  private async productOrUndefined(merchantId: string, productId: string): Promise<Product | undefined> {
    try {
      return await this.deps.catalog.get(merchantId, productId);
    } catch (error) {
      if (error instanceof NotFoundError) return undefined;
      throw error;
    }
  }
}

/** The variants with the first available one first (the featured variant), the rest in catalog order. */
function featuredFirst(variants: readonly Variant[]): Variant[] {
  const featured = variants.find((variant) => ucpAvailability(variant.inventory).available) ?? variants[0];
  return featured ? [featured, ...variants.filter((variant) => variant !== featured)] : [];
}
