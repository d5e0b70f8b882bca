/** Interns keyword terms as small integers, shared by every merchant's snapshot in one engine. */
export class TermDictionary {
  private readonly ids = new Map<string, number>();
  private readonly analysed = new Map<string, readonly number[]>();

  id(term: string): number {
    let id = this.ids.get(term);
    if (id === undefined) this.ids.set(term, (id = this.ids.size));
    return id;
  }

  /** The id of a known term, or undefined (a query term no document has). */
  find(term: string): number | undefined {
    return this.ids.get(term);
  }

  /** The term ids of a short, often repeated text (a category, tags, a vendor), analysed once. */
  cached(text: string, analyse: (text: string) => string[]): readonly number[] {
    let ids = this.analysed.get(text);
    if (ids === undefined) {
      ids = analyse(text).map((term) => this.id(term));
      if (this.analysed.size >= 50_000) this.analysed.clear();
      this.analysed.set(text, ids);
    }
    return ids;
  }

  get size(): number {
    return this.ids.size;
  }
}
