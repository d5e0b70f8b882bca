import { describe, expect, it } from 'vitest';
import { InvalidRequestError } from '../kernel/errors.js';
import { decodeCursor, encodeCursor } from './order-cursor.js';
import { orderQuery, type OrderListParams } from './order-list-params.js';

const position = { createdAt: new Date('2026-11-02T14:09:42.123Z'), id: 'ord_7HcW2pQz9LmX4tRbVn3K' };

describe('the orders cursor', () => {
  it('gives back the position it was made from', () => {
    expect(decodeCursor(encodeCursor(position))).toEqual(position);
    expect(encodeCursor(position)).toMatch(/^[A-Za-z0-9_-]+$/);
  });

  it.each([
    ['not base64url', 'a+b/c='],
    ['no order id', Buffer.from('2026-11-02T14:09:42.123Z|').toString('base64url')],
    ['an id of something else', Buffer.from('2026-11-02T14:09:42.123Z|cs_1').toString('base64url')],
    ['a time without milliseconds', Buffer.from('2026-11-02T14:09:42Z|ord_1').toString('base64url')],
    ['a day that does not exist', Buffer.from('2026-02-31T00:00:00.000Z|ord_1').toString('base64url')],
    ['text', 'bm90LWEtY3Vyc29y'],
  ])('refuses %s with 400 naming cursor', (_name, cursor) => {
    expect(() => decodeCursor(cursor)).toThrow(expect.objectContaining({ constructor: InvalidRequestError, param: 'cursor' }));
  });
});

describe('orderQuery', () => {
  it('reads the filters and the cursor', () => {
    const params: OrderListParams = { limit: 5, status: 'fulfilled', email: 'Ada@Example.com', created_after: '2026-11-01T00:00:00+02:00', created_before: '2026-11-03T00:00:00Z', cursor: encodeCursor(position) };
    expect(orderQuery(params)).toEqual({
      limit: 5,
      status: 'fulfilled',
      email: 'Ada@Example.com',
      createdAfter: new Date('2026-10-31T22:00:00Z'),
      createdBefore: new Date('2026-11-03T00:00:00Z'),
      after: position,
    });
  });

  it('leaves out what was not asked for', () => {
    expect(orderQuery({ limit: 10 })).toEqual({ limit: 10 });
  });

  it.each<[string, OrderListParams, string]>([
    ['limit 0', { limit: 0 }, 'limit'],
    ['limit 101', { limit: 101 }, 'limit'],
    ['limit 2.5', { limit: 2.5 }, 'limit'],
    ['a date that is not one', { limit: 1, created_after: 'yesterday' }, 'created_after'],
    ['a day that does not exist', { limit: 1, created_before: '2026-02-30T00:00:00Z' }, 'created_before'],
    ['year 0', { limit: 1, created_after: '0000-06-01T00:00:00Z' }, 'created_after'],
    ['equal bounds', { limit: 1, created_after: '2026-11-02T00:00:00Z', created_before: '2026-11-02T00:00:00Z' }, 'created_after'],
    ['bounds the wrong way round', { limit: 1, created_after: '2026-11-03T00:00:00Z', created_before: '2026-11-02T00:00:00Z' }, 'created_after'],
    ['a cursor it did not give', { limit: 1, cursor: 'abc' }, 'cursor'],
  ])('refuses %s with 400 naming the parameter', (_name, params, param) => {
    expect(() => orderQuery(params)).toThrow(expect.objectContaining({ constructor: InvalidRequestError, param }));
  });
});
