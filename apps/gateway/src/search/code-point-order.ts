/** Compares strings by Unicode code point (PostgreSQL's COLLATE "C" on UTF-8), not by UTF-16 unit. */
export function compareCodePoints(a: string, b: string): number {
  const n = Math.min(a.length, b.length);
  for (let i = 0; i < n; i++) {
    const x = a.charCodeAt(i);
    const y = b.charCodeAt(i);
    if (x === y) continue;
    // Surrogates (U+D800–U+DFFF) encode code points above U+FFFF: they sort after every BMP unit.
    const xs = x >= 0xd800 && x <= 0xdfff ? x + 0x10000 : x;
    const ys = y >= 0xd800 && y <= 0xdfff ? y + 0x10000 : y;
    return xs - ys;
  }
  return a.length - b.length;
}
