/** Minor units (bigint) as the JSON integers ACP carries; every stored amount is below 2^53. */
export function minor(amount: bigint): number {
  if (amount > BigInt(Number.MAX_SAFE_INTEGER) || amount < 0n) throw new RangeError(`amount ${amount} cannot be shown as an integer`);
  return Number(amount);
}
