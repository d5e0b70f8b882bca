/**
 * Interns keyword terms (stems) as small integers, shared by every merchant's snapshot in one
 * engine, and remembers for each term the shortest word it was seen as (its surface: `bookcase`
 * for `bookcas`), so that typos and unfinished words can be matched against whole words too and
 * a corrected query can be spelled out in words.
 */
import { stem, STOP_WORDS, words } from '../text/analyzer.js';

export class TermDictionary {
  private readonly ids = new Map<string, number>();
  private readonly names: string[] = [];
  private readonly surfaces: string[] = [];
  private readonly analysed = new Map<string, readonly number[]>();

  id(term: string, surface: string = term): number {
    let id = this.ids.get(term);
    if (id === undefined) {
      this.ids.set(term, (id = this.ids.size));
      this.names.push(term);
      this.surfaces.push(surface);
    } else if (surface.length < this.surfaces[id]!.length) this.surfaces[id] = surface;
    return id;
  }

  /** The id of a known term, or undefined (a query term no document has). */
  find(term: string): number | undefined {
    return this.ids.get(term);
  }

  /** The term of an id. */
  term(id: number): string {
    return this.names[id]!;
  }

  /** The shortest word seen for a term (usually its base form: `armchair` rather than `armchairs`). */
  surface(id: number): string {
    return this.surfaces[id]!;
  }

  /** Appends the term ids of a text (the analyser's keyword terms: stemmed words without stop words). */
  analyze(text: string, out: number[]): void {
    for (const word of words(text)) if (!STOP_WORDS.has(word)) out.push(this.id(stem(word), word));
  }

  /** The term ids of a short, often repeated text (a category, tags, a vendor), analysed once. */
  cached(text: string): readonly number[] {
    let ids = this.analysed.get(text);
    if (ids === undefined) {
      const out: number[] = [];
      this.analyze(text, out);
      ids = out;
      if (this.analysed.size >= 50_000) this.analysed.clear();
      this.analysed.set(text, ids);
    }
    return ids;
  }

  get size(): number {
    return this.ids.size;
  }
}
