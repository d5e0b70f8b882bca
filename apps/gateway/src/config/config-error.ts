/** A setting that stops start-up: its message is one line naming the setting and how to fix it. */
export class ConfigError extends Error {
  override name = 'ConfigError';
}
