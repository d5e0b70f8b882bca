/** Minor units (bigint) as the JSON integers ACP carries; every stored amount is below 2^53. */
export function minor(amount: bigint): number {
  if (amount > BigInt(Number.MAX_SAFE_INTEGER) || amount < 0n) throw new RangeError(`amount ${amount} cannot be shown as an integer`);
  return Number(amount);
}

/**
 * Splits `total` over `weights` in proportion, in whole minor units, so that the parts add up to
 * `total` exactly (largest remainder; ties to the earlier part). Used to show each line's share
 * of the cart's tax, which is computed once on the taxable subtotal.
 */
export function allocate(total: bigint, weights: readonly bigint[]): bigint[] {
  const sum = weights.reduce((a, b) => a + b, 0n);
  if (sum === 0n) return weights.map(() => 0n);
  const parts = weights.map((w) => (total * w) / sum);
  const remainders = weights.map((w, i) => ({ i, r: (total * w) % sum }));
  let left = total - parts.reduce((a, b) => a + b, 0n);
  remainders.sort((a, b) => (a.r === b.r ? a.i - b.i : a.r > b.r ? -1 : 1));
  for (const { i } of remainders) {
    if (left === 0n) break;
    parts[i]! += 1n;
    left -= 1n;
  }
  return parts;
}
