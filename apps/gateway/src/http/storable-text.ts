/**
 * Text the gateway can keep: no NUL character (PostgreSQL's `text` and `jsonb` refuse it) and no
 * UTF-16 surrogate without its pair (not a character at all; UTF-8 cannot encode it). Every edge
 * refuses such text where it enters — a JSON body (middleware/json-body.ts), a path parameter
 * (middleware/match-operation.ts), an MCP tool's arguments (mcp/envelope.ts) — so that it never
 * reaches a service or the database, and each protocol answers with its own 400. What must be kept
 * whatever a request carried (an audit entry of a refused request) is escaped instead.
 *
 *   if (!isStorableText(id)) throw new InvalidRequestError(`id ${UNSTORABLE_TEXT}`, 'id');
 *   escapeUnstorable('a\u0000b') // 'a\\u0000b'
 */

const UNSTORABLE = /\u0000|[\uD800-\uDBFF](?![\uDC00-\uDFFF])|(?<![\uD800-\uDBFF])[\uDC00-\uDFFF]/g;

/** What is wrong with text that is not storable, as the end of a sentence naming it. */
export const UNSTORABLE_TEXT = 'holds a NUL character (\\u0000) or an unpaired UTF-16 surrogate, which cannot be stored';

export function isStorableText(text: string): boolean {
  UNSTORABLE.lastIndex = 0;
  return !UNSTORABLE.test(text);
}

/** The text with each unstorable character written as its visible `\uXXXX` escape. */
export function escapeUnstorable(text: string): string {
  return text.replace(UNSTORABLE, (c) => `\\u${c.charCodeAt(0).toString(16).toUpperCase().padStart(4, '0')}`);
}
