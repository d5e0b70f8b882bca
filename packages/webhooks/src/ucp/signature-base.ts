/** RFC 9421's signature base, and the components UCP requires a request to cover. */
import { ucpFail as fail } from './errors.js';
import { headerValue, type SignatureParams } from './structured-fields.js';
import type { UcpHeaders } from './types.js';

function targetUrl(url: string | URL): URL {
  try {
    return new URL(String(url));
  } catch (cause) {
    throw fail('signature_malformed', `The request URL must be absolute (scheme and host), got ${JSON.stringify(String(url))}.`, cause);
  }
}

/** RFC 9421 §2.5: one `"name": value` line per covered component, then `"@signature-params"`. */
export function signatureBase(method: string, url: string | URL, headers: UcpHeaders | undefined, params: SignatureParams): string {
  const target = targetUrl(url);
  const lines: string[] = [];
  const seen = new Set<string>();
  for (const name of params.components) {
    if (seen.has(name)) throw fail('signature_malformed', `Component "${name}" is covered twice.`);
    seen.add(name);
    let value: string | undefined;
    switch (name) {
      case '@method': value = method; break;
      case '@authority': value = target.host.toLowerCase(); break; // URL drops a default port already
      case '@path': value = target.pathname || '/'; break;
      case '@query': value = target.search || '?'; break;
      case '@target-uri': value = target.href; break;
      case '@scheme': value = target.protocol.slice(0, -1).toLowerCase(); break;
      case '@request-target': value = `${target.pathname || '/'}${target.search}`; break;
      default:
        if (name.startsWith('@') || !/^[a-z0-9!#$%&'*+\-.^_`|~]+$/.test(name)) {
          throw fail('signature_malformed', `Unsupported covered component "${name}".`);
        }
        value = headerValue(headers, name);
        if (value === undefined) throw fail('signature_invalid', `The signature covers the "${name}" header, which the request does not carry.`);
    }
    if (/[\r\n]/.test(value)) throw fail('signature_malformed', `Component "${name}" contains a line break.`);
    lines.push(`"${name}": ${value}`);
  }
  lines.push(`"@signature-params": ${params.raw}`);
  return lines.join('\n');
}

/** The components UCP requires for this request (signatures.md "REST Request Signing"). */
export function requiredComponents(url: string | URL, headers: UcpHeaders | undefined, hasBody: boolean): string[] {
  const components = ['@method', '@authority', '@path'];
  if (targetUrl(url).search) components.push('@query');
  if (headerValue(headers, 'ucp-agent') !== undefined) components.push('ucp-agent');
  if (headerValue(headers, 'idempotency-key') !== undefined) components.push('idempotency-key');
  if (hasBody) components.push('content-digest', 'content-type');
  return components;
}
