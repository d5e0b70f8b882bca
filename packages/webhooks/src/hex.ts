const DIGITS = '0123456789abcdef';

export function toHex(bytes: Uint8Array): string {
  let hex = '';
  for (const byte of bytes) hex += DIGITS[byte >> 4]! + DIGITS[byte & 15]!;
  return hex;
}

/** Decodes hex already validated by the header parser (even length, hex digits only). */
export function fromHex(hex: string): Uint8Array<ArrayBuffer> {
  const bytes = new Uint8Array(hex.length / 2);
  for (let i = 0; i < bytes.length; i++) bytes[i] = parseInt(hex.slice(i * 2, i * 2 + 2), 16);
  return bytes;
}
