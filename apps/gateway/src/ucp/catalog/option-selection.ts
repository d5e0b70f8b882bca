/**
 * get_product's interactive option selection (catalog/lookup.md "Option Selection"):
 * - a variant id fixes the selection to that variant's options (a requested `selected` is ignored)
 *   and that variant comes first;
 * - else the requested selections (names the product does not have are dropped), relaxed while no
 *   variant matches them all: selections not named in `preferences` go first (last requested
 *   first), then `preferences` from its end;
 * - else the featured variant's options (the first available variant, else the first).
 * The variants returned are those matching the effective selections (featured first), and every
 * option value carries `exists`/`available` relative to the other selections. `allowed` narrows
 * the purchasable variants (the request's price filter).
 */
import type { Product, Variant } from '../../contract/types.js';
import { optionsOf, productOptions, sellableVariants, ucpAvailability } from './product-mapper.js';
import type { UcpProductOption, UcpSelectedOption } from './ucp-product.js';

export interface SelectionRequest {
  /** The variant the request named by id, if it did. */
  variant?: Variant | undefined;
  selected?: readonly UcpSelectedOption[] | undefined;
  preferences?: readonly string[] | undefined;
  allowed: (variant: Variant) => boolean;
}

export interface Selection {
  selected: UcpSelectedOption[];
  /** Featured first. */
  variants: Variant[];
  options: UcpProductOption[];
}

const matches = (variant: Variant, selection: readonly UcpSelectedOption[]): boolean => selection.every((s) => variant.attributes[s.name] === s.label);
const available = (variant: Variant): boolean => ucpAvailability(variant.inventory).available;

/** The selection and variants to show; undefined when no variant of the product is allowed. */
export function selectVariants(product: Product, request: SelectionRequest): Selection | undefined {
  const all = sellableVariants(product);
  const candidates = all.filter(request.allowed);
  if (candidates.length === 0) return undefined;
  const axes = productOptions(product);
  let selected: UcpSelectedOption[];
  if (request.variant && candidates.includes(request.variant)) {
    selected = optionsOf(request.variant);
  } else if (request.selected?.length) {
    selected = relaxed(candidates, request.selected.filter((s) => axes.some((axis) => axis.name === s.name)), request.preferences ?? []);
  } else {
    selected = optionsOf(candidates.find(available) ?? candidates[0]!);
  }
  const matching = candidates.filter((variant) => matches(variant, selected));
  const featured = request.variant && matching.includes(request.variant) ? request.variant : (matching.find(available) ?? matching[0]);
  const variants = featured ? [featured, ...matching.filter((variant) => variant !== featured)] : matching;
  const options = axes.map((axis) => ({
    name: axis.name,
    values: axis.values.map(({ label }) => {
      const others = [...selected.filter((s) => s.name !== axis.name), { name: axis.name, label }];
      const existing = all.filter((variant) => matches(variant, others));
      return { label, available: existing.some((variant) => request.allowed(variant) && available(variant)), exists: existing.length > 0 };
    }),
  }));
  return { selected: selected.map(({ name, label }) => ({ name, label })), variants, options };
}

/** The selections kept, dropping one at a time (per `preferences`) while no candidate matches them all. */
function relaxed(candidates: readonly Variant[], requested: readonly UcpSelectedOption[], preferences: readonly string[]): UcpSelectedOption[] {
  const unranked = requested.filter((s) => !preferences.includes(s.name)).reverse();
  const ranked = [...preferences].reverse().flatMap((name) => requested.filter((s) => s.name === name));
  const dropOrder = [...unranked, ...ranked];
  let kept = [...requested];
  for (const next of dropOrder) {
    if (candidates.some((variant) => matches(variant, kept))) break;
    kept = kept.filter((s) => s !== next);
  }
  return kept;
}
