/**
 * `UCP-Agent` parsing: RFC 8941 Dictionary syntax (the package's parser, tested there:
 * packages/webhooks/src/sf-dictionary.test.ts), the `profile` string (an absolute http(s) URL), the
 * optional `version`; every malformed header is `invalid_profile_url`.
 */
import { describe, expect, it } from 'vitest';
import { parseUcpAgent } from '../src/ucp/ucp-agent.js';
import { UcpError } from '../src/ucp/ucp-error.js';

const PROFILE = 'https://agent.example/.well-known/ucp';

describe('parseUcpAgent', () => {
  it.each([
    [`profile="${PROFILE}"`, { profile: PROFILE }],
    [`  profile="${PROFILE}"  `, { profile: PROFILE }],
    [`profile="${PROFILE}", version="2026-04-08"`, { profile: PROFILE, version: '2026-04-08' }],
    [`version="2026-01-11",profile="${PROFILE}"`, { profile: PROFILE, version: '2026-01-11' }],
    [`profile="${PROFILE}";signed, agent=shopping-bot, caps=(a b);x=1, ok=?1`, { profile: PROFILE }], // unknown members and parameters ignored
    [`profile="https://old.example/p", profile="${PROFILE}"`, { profile: PROFILE }], // the last one wins (RFC 8941 §4.2.2)
    ['profile="http://localhost:8080/profile.json"', { profile: 'http://localhost:8080/profile.json' }], // https is the fetcher's rule
  ])('reads %s', (header, expected) => {
    expect(parseUcpAgent(header)).toEqual(expected);
  });

  it.each([
    [undefined, /required/],
    ['', /required/],
    ['   ', /required/],
    [`profile=${PROFILE}`, /profile must be a quoted string/], // an unquoted URL parses as a token
    [`profile='${PROFILE}'`, /not an RFC 8941 dictionary/],
    [`profile="${PROFILE}`, /not an RFC 8941 dictionary/], // unterminated
    [`profile="${PROFILE}",`, /not an RFC 8941 dictionary/], // trailing comma
    [`profile="${PROFILE}" version="2026-04-08"`, /not an RFC 8941 dictionary/], // no comma
    [`Profile="${PROFILE}"`, /not an RFC 8941 dictionary/], // keys are lowercase
    ['profile="caf\u00e9"', /not an RFC 8941 dictionary/], // non-ASCII in a string
    ['profile="a\\nb"', /not an RFC 8941 dictionary/], // only \" and \\ escape
    ['agent="x"', /has no profile/],
    ['profile', /profile must be a quoted string/], // a bare key is the boolean true
    ['profile=shopping', /profile must be a quoted string/], // a token
    ['profile=("https://a.example")', /profile must be a quoted string/], // an inner list
    ['profile=:aGk=:', /profile must be a quoted string/], // bytes
    ['profile="not a url"', /not an absolute URL/],
    ['profile="ftp://agent.example/p"', /must be an https URL/],
    ['profile="https://user:pw@agent.example/p"', /without credentials/],
    [`profile="${PROFILE}", version=2026`, /version must be a string/],
  ])('refuses %j as invalid_profile_url', (header, message) => {
    let error: unknown;
    try {
      parseUcpAgent(header);
    } catch (caught) {
      error = caught;
    }
    expect(error).toBeInstanceOf(UcpError);
    expect((error as UcpError).code).toBe('invalid_profile_url');
    expect((error as UcpError).content).toMatch(message);
  });
});
