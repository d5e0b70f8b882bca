/**
 * The `UCP-Agent` request header (overview.md "Platform Advertisement on Request"): an RFC 8941
 * Dictionary (parsed by @commerce-gateway/webhooks' strict parser) whose `profile` is the
 * platform's profile URI, as an sf-string —
 * `UCP-Agent: profile="https://agent.example/.well-known/ucp"`. A `version` member
 * (`version="2026-04-08"`), which neither release defines (the platform's version is its profile's
 * `ucp.version`), is taken as an early declaration when present. Other members are ignored, as a
 * dictionary's unknown keys are. Anything else is `invalid_profile_url`: no header, a field that is
 * not a dictionary, no `profile`, a `profile` that is not a string holding an absolute http(s) URL.
 */
import { parseSfDictionary, SfSyntaxError, type SfDictionaryMember } from '@commerce-gateway/webhooks';
import { UcpError } from './ucp-error.js';

export const UCP_AGENT_HEADER = 'UCP-Agent';

export interface UcpAgent {
  /** The platform's profile URI, as sent (fetched only when a handler needs the profile). */
  profile: string;
  /** A version the header itself declares, when it does. */
  version?: string;
}

const EXAMPLE = 'profile="https://agent.example/.well-known/ucp"';

const stringOf = (member: SfDictionaryMember | undefined): string | undefined =>
  member && 'value' in member && typeof member.value === 'string' ? member.value : undefined;

export function parseUcpAgent(header: string | undefined): UcpAgent {
  if (header === undefined || header.trim() === '') {
    throw new UcpError('invalid_profile_url', `The ${UCP_AGENT_HEADER} header is required: ${UCP_AGENT_HEADER}: ${EXAMPLE}`);
  }
  let members: Map<string, SfDictionaryMember>;
  try {
    members = parseSfDictionary(header);
  } catch (error) {
    if (!(error instanceof SfSyntaxError)) throw error;
    throw new UcpError('invalid_profile_url', `${UCP_AGENT_HEADER} is not an RFC 8941 dictionary (${error.message}); send ${EXAMPLE}`);
  }
  const profile = stringOf(members.get('profile'));
  if (profile === undefined) {
    const why = members.has('profile') ? 'profile must be a quoted string' : 'has no profile';
    throw new UcpError('invalid_profile_url', `${UCP_AGENT_HEADER} ${why}; send ${EXAMPLE}`);
  }
  let url: URL;
  try {
    url = new URL(profile);
  } catch {
    throw new UcpError('invalid_profile_url', `${UCP_AGENT_HEADER} profile ${JSON.stringify(profile)} is not an absolute URL`);
  }
  if ((url.protocol !== 'https:' && url.protocol !== 'http:') || url.username || url.password) {
    throw new UcpError('invalid_profile_url', `${UCP_AGENT_HEADER} profile must be an https URL without credentials`);
  }
  const agent: UcpAgent = { profile };
  if (members.has('version')) {
    const version = stringOf(members.get('version'));
    if (version === undefined) throw new UcpError('invalid_profile_url', `${UCP_AGENT_HEADER} version must be a string, e.g. version="2026-04-08"`);
    agent.version = version;
  }
  return agent;
}
