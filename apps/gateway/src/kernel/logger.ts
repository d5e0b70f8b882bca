import pino, { type Logger } from 'pino';
import pretty from 'pino-pretty';
import type { GatewayEnv, LogLevel } from '../config/config.js';
import { flushLogs, tracked } from './log-flush.js';

export { flushLogs };

/** Human-readable lines only for a person at a terminal in development; JSON everywhere else. */
export function wantsPrettyLogs(env: GatewayEnv, stream: { isTTY?: boolean } = process.stderr): boolean {
  return env === 'development' && stream.isTTY === true;
}

/**
 * Structured JSON logs on stderr (pretty-printed with `{ pretty: true }`, see wantsPrettyLogs),
 * written asynchronously: a request never waits on the write of its log line (pino flushes
 * what is buffered when the process exits).
 * Credentials never reach a log line: the redaction list is the backstop.
 */
export function createLogger(
  level: LogLevel,
  destination?: pino.DestinationStream,
  { pretty: prettyPrint = false }: { pretty?: boolean } = {},
): Logger {
  destination ??= prettyPrint ? pretty({ destination: 2, sync: true, colorize: true, translateTime: 'SYS:HH:MM:ss.l', ignore: 'pid,hostname' }) : tracked(pino.destination({ dest: 2, sync: false }));
  return pino(
    {
      level,
      base: undefined,
      redact: {
        paths: [
          'req.headers.authorization',
          'req.headers["x-acp-api-key"]',
          'req.headers.signature',
          '*.signature_secret',
          '*.signingSecret',
          '*.secret',
          '*.authorization',
          '*["x-acp-api-key"]',
          '*["x-webhook-signature"]',
          '*.signature',
          '*.apiKey',
        ],
        censor: '[redacted]',
      },
    },
    destination,
  );
}

