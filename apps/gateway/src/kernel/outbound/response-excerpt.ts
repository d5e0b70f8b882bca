/**
 * What an attempt keeps of the receiver's answer body: its first bytes as text, cut at a UTF-8
 * character boundary (never half a character), with NUL — which PostgreSQL's text refuses — shown
 * as U+FFFD like any byte that is not UTF-8.
 *
 *   responseExcerpt(Buffer.from('{"ok":true}'))  // '{"ok":true}'
 */
export const RESPONSE_EXCERPT_BYTES = 512;

export function responseExcerpt(body: Buffer, maxBytes = RESPONSE_EXCERPT_BYTES): string {
  let cut = Math.min(body.length, maxBytes);
  // Cutting inside the body: back up to the start of the character the cut would split.
  if (cut < body.length) while (cut > 0 && (body[cut]! & 0xc0) === 0x80) cut--;
  return new TextDecoder('utf-8').decode(body.subarray(0, cut)).replaceAll('\u0000', '\uFFFD');
}
