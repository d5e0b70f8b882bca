import { describe, expect, it } from 'vitest';
import { isDatabaseUnavailable, isUnstorableText } from './database.js';

/** A Prisma error as the driver adapter reports it: an ORM call's, or a raw statement's (P2010, SQLSTATE in originalCode). */
const prismaError = (code: string, cause: Record<string, string>) => Object.assign(new Error('Database error'), { code, meta: { driverAdapterError: { name: 'DriverAdapterError', cause } } });

describe('database errors', () => {
  it.each([
    ['an unreachable server', prismaError('P1001', { kind: 'DatabaseNotReachable' })],
    ['a raw statement whose connection the server terminated', prismaError('P2010', { kind: 'postgres', originalCode: '57P01' })],
    ['a raw statement on a broken connection (class 08)', prismaError('P2010', { kind: 'postgres', originalCode: '08006' })],
    ['node-postgres losing its connection', new Error('Connection terminated unexpectedly')],
    ['the adapter’s own error from a COMMIT the server cut off', Object.assign(new Error('terminating connection due to administrator command'), { name: 'DriverAdapterError', cause: { kind: 'postgres', originalCode: '57P01' } })],
  ])('reads %s as unavailable (503)', (_name, error) => {
    expect(isDatabaseUnavailable(error)).toBe(true);
  });

  it.each([
    ['a raw statement breaking a unique constraint', prismaError('P2010', { kind: 'postgres', originalCode: '23505' })],
    ['a plain bug', new Error('checkout session cs_1 was not written')],
  ])('does not read %s as unavailable', (_name, error) => {
    expect(isDatabaseUnavailable(error)).toBe(false);
  });

  it('reads NUL in text as the caller’s input, from an ORM call or a raw statement', () => {
    expect(isUnstorableText(prismaError('P2039', { kind: 'postgres', code: '22021' }))).toBe(true);
    expect(isUnstorableText(prismaError('P2010', { kind: 'postgres', originalCode: '22P05' }))).toBe(true);
    expect(isUnstorableText(prismaError('P2010', { kind: 'postgres', originalCode: '23505' }))).toBe(false);
  });
});
