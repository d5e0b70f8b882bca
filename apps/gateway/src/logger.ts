import pino, { type Logger } from 'pino';
import type { LogLevel } from './config/config.js';

/** Structured JSON logs. Credentials never reach a log line: the redaction list is the backstop. */
export function createLogger(level: LogLevel, destination: pino.DestinationStream = pino.destination(2)): Logger {
  return pino(
    {
      level,
      base: undefined,
      redact: {
        paths: ['req.headers.authorization', 'req.headers["x-acp-api-key"]', 'req.headers.signature', '*.signature_secret', '*.signingSecret', '*.secret'],
        censor: '[redacted]',
      },
    },
    destination,
  );
}
