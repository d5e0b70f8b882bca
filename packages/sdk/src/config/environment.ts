import { ConfigurationError } from '../errors/errors.js';

/** The gateway's environments and the prefix of their API keys. */
export const KEY_PREFIXES = {
  development: 'sk_dev_',
  sandbox: 'sk_sandbox_',
  production: 'sk_live_',
} as const;

export type Environment = keyof typeof KEY_PREFIXES;

const ENVIRONMENTS = Object.keys(KEY_PREFIXES) as Environment[];
const LIST = ENVIRONMENTS.join(', ');

/** The environment a key belongs to, from its prefix; undefined when it has none of ours. */
export function environmentOfKey(apiKey: string): Environment | undefined {
  return ENVIRONMENTS.find((env) => apiKey.startsWith(KEY_PREFIXES[env]));
}

/** The environment to use: the one asked for, checked against the key's prefix, or the key's own. */
export function resolveEnvironment(apiKey: string, asked: unknown): Environment {
  if (asked !== undefined && !ENVIRONMENTS.includes(asked as Environment)) {
    throw new ConfigurationError(`Unknown environment ${JSON.stringify(asked)}: use one of ${LIST}`);
  }
  const ofKey = environmentOfKey(apiKey);
  if (!ofKey) {
    const prefixes = ENVIRONMENTS.map((env) => `${KEY_PREFIXES[env]}… (${env})`).join(', ');
    throw new ConfigurationError(`apiKey does not look like a Commerce Gateway secret key: it must start with ${prefixes}`);
  }
  if (asked !== undefined && asked !== ofKey) {
    throw new ConfigurationError(
      `apiKey is a ${ofKey} key (${KEY_PREFIXES[ofKey]}…) but environment is "${asked as string}", whose keys start with ${KEY_PREFIXES[asked as Environment]}: use a ${asked as string} key, or drop the environment option`,
    );
  }
  return ofKey;
}
