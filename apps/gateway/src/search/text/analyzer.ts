/**
 * Text analysis shared by the keyword index and the local embedder: Unicode-folded,
 * lower-cased words and numbers; English stop words; Porter stemming for keyword terms.
 */
import { stemmer } from 'stemmer';

/** A general English stop-word list (the usual function words; nothing catalog-specific). */
export const STOP_WORDS: ReadonlySet<string> = new Set(
  (
    'a about above after again against all am an and any are as at be because been before being below between both but by ' +
    'can could did do does doing down during each few for from further had has have having he her here hers herself him ' +
    'himself his how i if in into is it its itself just me more most my myself no nor not now of off on once only or other ' +
    'our ours ourselves out over own same she should so some such than that the their theirs them themselves then there ' +
    'these they this those through to too under until up very was we were what when where which while who whom why will ' +
    'with would you your yours yourself yourselves something anything thing things someone want need looking find get ' +
    'please show me im dont'
  ).split(' '),
);

/**
 * A word is read up to this many characters (code points), the rest of it dropped — in products
 * and queries alike, so a long word still meets itself. No word of a catalog comes near it (the
 * demo's longest has 14 letters; Lucene's standard tokenizer cuts at 255); what
 * does is a pasted blob — 500 letters, or 500 CJK characters, which this analyser reads as one word
 * (a run of letters: it does not segment CJK) — and every step after this one (stemming, the stem
 * and embedding caches, typo search) costs in proportion to a word's length.
 */
export const MAX_WORD_LENGTH = 64;

/**
 * Words of a text: NFKD-folded (accents dropped), lower case, runs of letters and digits, each cut
 * to MAX_WORD_LENGTH. An English possessive is its noun (`children's` is `children`, as Lucene's
 * possessive filter reads it), not the noun and a word `s` — which, last in a query, was also read
 * as the start of every term in `s`.
 */
export function words(text: string): string[] {
  // eslint-disable-next-line no-control-regex
  if (/^[\x00-\x7f]*$/.test(text)) return cut(text.toLowerCase().replace(/(?<=[a-z])'s(?![a-z0-9])/g, '').match(/[a-z0-9]+/g) ?? []);
  const folded = text.normalize('NFKD').replace(/[\u0300-\u036f]/g, '').toLowerCase().replace(/(?<=\p{L})['\u2019]s(?![\p{L}\p{N}])/gu, '');
  return cut(folded.match(/[\p{L}\p{N}]+/gu) ?? []);
}

/** The words, each cut to MAX_WORD_LENGTH code points (in place). */
function cut(list: string[]): string[] {
  for (let i = 0; i < list.length; i++) if (list[i]!.length > MAX_WORD_LENGTH) list[i] = truncate(list[i]!, MAX_WORD_LENGTH);
  return list;
}

/** The first `length` code points of a text (never half of a surrogate pair). */
export function truncate(text: string, length: number): string {
  if (text.length <= length) return text;
  let end = 0;
  for (let n = 0; n < length && end < text.length; n++) end += text.codePointAt(end)! > 0xffff ? 2 : 1;
  return text.slice(0, end);
}

const stems = new Map<string, string>();

export function stem(word: string): string {
  let cached = stems.get(word);
  if (cached === undefined) {
    cached = /^\p{N}+$/u.test(word) ? word : stemmer(word);
    if (stems.size > 200_000) stems.clear();
    stems.set(word, cached);
  }
  return cached;
}

/** Keyword terms of a text: stemmed words without stop words. */
export function terms(text: string): string[] {
  const out: string[] = [];
  for (const word of words(text)) if (!STOP_WORDS.has(word)) out.push(stem(word));
  return out;
}
