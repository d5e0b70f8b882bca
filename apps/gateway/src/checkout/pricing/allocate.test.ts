import { describe, expect, it } from 'vitest';
import { allocate } from '../../kernel/money/money.js';

const big = (values: number[]) => values.map(BigInt);

describe('allocate', () => {
  it.each([
    [286, [3201, 0, 750], [232, 0, 54]],
    [1, [1, 1, 1], [1, 0, 0]],
    [100, [1, 1, 1], [34, 33, 33]],
    [0, [5, 5], [0, 0]],
    [7, [0, 0], [0, 0]],
  ])('shares %i over %j as %j, adding up exactly', (total, weights, expected) => {
    const parts = allocate(BigInt(total), big(weights));
    expect(parts).toEqual(big(expected));
    if (weights.some((w) => w > 0)) expect(parts.reduce((a, b) => a + b, 0n)).toBe(BigInt(total));
  });
});
