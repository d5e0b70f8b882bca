/**
 * The baseline: plain Okapi BM25 (k1 = 1.2, b = 0.75) over one field, the concatenation of
 * every searchable field of a product (title, category, tags, vendor, attribute values,
 * description), with the gateway's own analyser (stop words, Porter stems) so that the
 * comparison measures ranking, not tokenisation. Any query term may match (OR).
 */
import { terms } from '../../apps/gateway/src/search/text/analyzer.js';
import { attributeText } from '../../apps/gateway/src/search/product-text.js';

export interface BaselineProduct {
  id: string;
  title: string;
  category: string;
  tags: string[];
  vendor: string;
  attributes: Record<string, string[]>;
  description: string;
}

export class PlainBm25 {
  private readonly postings = new Map<string, { doc: number; tf: number }[]>();
  private readonly lengths: number[] = [];
  private readonly ids: string[] = [];
  private readonly average: number;

  constructor(products: readonly BaselineProduct[], private readonly k1 = 1.2, private readonly b = 0.75) {
    products.forEach((p, doc) => {
      const text = [p.title, p.category, p.tags.join(' '), p.vendor, attributeText(p.attributes), p.description].join(' ');
      const tokens = terms(text);
      this.ids.push(p.id);
      this.lengths.push(tokens.length);
      const tf = new Map<string, number>();
      for (const t of tokens) tf.set(t, (tf.get(t) ?? 0) + 1);
      for (const [term, count] of tf) {
        const list = this.postings.get(term);
        if (list) list.push({ doc, tf: count });
        else this.postings.set(term, [{ doc, tf: count }]);
      }
    });
    this.average = this.lengths.reduce((a, b) => a + b, 0) / Math.max(1, this.lengths.length);
  }

  search(query: string, k = 10): string[] {
    const n = this.ids.length;
    const scores = new Map<number, number>();
    for (const term of new Set(terms(query))) {
      const list = this.postings.get(term);
      if (!list) continue;
      const idf = Math.log(1 + (n - list.length + 0.5) / (list.length + 0.5));
      for (const { doc, tf } of list) {
        const norm = tf / (tf + this.k1 * (1 - this.b + (this.b * this.lengths[doc]!) / this.average));
        scores.set(doc, (scores.get(doc) ?? 0) + idf * norm * (this.k1 + 1));
      }
    }
    return [...scores]
      .sort((a, b) => b[1] - a[1] || (this.ids[a[0]]! < this.ids[b[0]]! ? -1 : 1))
      .slice(0, k)
      .map(([doc]) => this.ids[doc]!);
  }
}
