import { loadContract } from './document.js';

/** Supported API-Version values, oldest first, as the contract lists them; the newest is the default. */
export function supportedApiVersions(): string[] {
  const parameter = loadContract().components.parameters?.ApiVersion as { schema?: { enum?: string[] } } | undefined;
  const versions = parameter?.schema?.enum;
  if (!versions?.length) throw new Error('the contract lists no API-Version values (components.parameters.ApiVersion)');
  return [...versions].sort();
}
