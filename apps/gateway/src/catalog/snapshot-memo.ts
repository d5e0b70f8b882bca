/**
 * Answers remembered by question, each valid only for the snapshot it was computed from: an
 * answer asked of another snapshot is not found (and is replaced). At most `capacity` answers,
 * the least recently asked dropped first.
 */
export class SnapshotMemo<T> {
  private readonly entries = new Map<string, { snapshot: object; value: T }>();

  constructor(private readonly capacity: number) {}

  get(key: string, snapshot: object): T | undefined {
    const entry = this.entries.get(key);
    if (!entry) return undefined;
    this.entries.delete(key);
    if (entry.snapshot !== snapshot) return undefined;
    this.entries.set(key, entry);
    return entry.value;
  }

  set(key: string, snapshot: object, value: T): void {
    this.entries.delete(key);
    if (this.entries.size >= this.capacity) this.entries.delete(this.entries.keys().next().value!);
    this.entries.set(key, { snapshot, value });
  }

  get size(): number {
    return this.entries.size;
  }
}
