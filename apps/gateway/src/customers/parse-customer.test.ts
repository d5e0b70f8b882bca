import { describe, expect, it } from 'vitest';
import { addressFingerprint } from './address-fingerprint.js';
import { CustomerRecordError, parseCustomer } from './parse-customer.js';

const home = { line1: '12 Main St', city: 'London', country: 'GB' };

describe('a customers file record', () => {
  it('reads every field: the email normalized, consents as given, addresses with and without ids', () => {
    const parsed = parseCustomer({
      email: '  Ada@Example.COM ', name: ' Ada Lovelace ', phone: '+44 20 7946 0000',
      consent: { marketing: true, sale_of_data: false },
      addresses: [{ id: 'home-1', ...home, country: 'gb', postal_code: 'N1 9GU' }, { name: 'Office', line1: '1 Bank St', line2: 'Floor 3', city: 'London', state: 'LND', country: 'GB' }],
    });
    expect(parsed).toEqual({
      email: 'ada@example.com', name: 'Ada Lovelace', phone: '+44 20 7946 0000',
      consent: { marketing: true, saleOfData: false },
      addresses: [
        { id: 'home-1', address: { line1: '12 Main St', city: 'London', postal_code: 'N1 9GU', country: 'GB' }, fingerprint: addressFingerprint({ ...home, postal_code: 'N1 9GU' }) },
        { address: { name: 'Office', line1: '1 Bank St', line2: 'Floor 3', city: 'London', state: 'LND', country: 'GB' }, fingerprint: expect.any(String) },
      ],
    });
  });

  it('reads a record of an email alone', () => {
    expect(parseCustomer({ email: 'b@example.com' })).toEqual({ email: 'b@example.com', addresses: [] });
  });

  it.each([
    [[1], '(record)', 'must be a JSON object'],
    [{ email: 'a@example.com', colour: 'red' }, 'colour', 'is not a field of a customer'],
    [{}, 'email', 'must be an email address'],
    [{ email: 'not an email' }, 'email', 'must be an email address'],
    [{ email: 'a@example.com', name: ' ' }, 'name', 'non-blank'],
    [{ email: 'a@example.com', phone: 5 }, 'phone', 'non-blank string'],
    [{ email: 'a@example.com', consent: true }, 'consent', 'must be an object'],
    [{ email: 'a@example.com', consent: { email: true } }, 'consent.email', 'is not a consent'],
    [{ email: 'a@example.com', consent: { marketing: 'yes' } }, 'consent.marketing', 'true or false'],
    [{ email: 'a@example.com', consent: { analytics: null } }, 'consent.analytics', 'true or false'],
    [{ email: 'a@example.com', addresses: {} }, 'addresses', 'must be a list'],
    [{ email: 'a@example.com', addresses: [home, { ...home, country: 'XX' }] }, 'addresses[1].country', '"XX" is not an ISO 3166-1 country'],
    [{ email: 'a@example.com', addresses: [{ ...home, country: 'USA' }] }, 'addresses[0].country', '"USA" is not an ISO 3166-1 country'],
    [{ email: 'a@example.com', addresses: [{ line1: '1 A St', country: 'US' }] }, 'addresses[0].city', 'is required'],
    [{ email: 'a@example.com', addresses: [{ ...home, zip: '12345' }] }, 'addresses[0].zip', 'is not a field of an address'],
    [{ email: 'a@example.com', addresses: [{ ...home, id: 'has space' }] }, 'addresses[0].id', '1 to 64 letters'],
    [{ email: 'a@example.com', addresses: [{ ...home, id: 'x'.repeat(65) }] }, 'addresses[0].id', '1 to 64 letters'],
    [{ email: 'a@example.com', addresses: [{ ...home, line2: '' }] }, 'addresses[0].line2', 'non-blank'],
    [{ email: 'a@example.com', addresses: [home, { ...home, line1: '12  MAIN st' }] }, 'addresses[1]', 'the same address as addresses[0]'],
    [{ email: 'a@example.com', addresses: [{ ...home, id: 'a' }, { ...home, city: 'Leeds', id: 'a' }] }, 'addresses[1].id', 'also the id of addresses[0]'],
  ])('refuses %j, naming %s', (record, field, words) => {
    let error: unknown;
    try {
      parseCustomer(record);
    } catch (caught) {
      error = caught;
    }
    expect(error).toBeInstanceOf(CustomerRecordError);
    expect((error as CustomerRecordError).field).toBe(field);
    expect((error as Error).message).toContain(words);
  });
});
