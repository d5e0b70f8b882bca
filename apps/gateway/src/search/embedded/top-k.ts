/**
 * The best `k` of `count` candidates without sorting them all: a bounded binary heap whose
 * root is the worst of the kept ones. `better(a, b)` is a strict total order.
 */
export function topK(candidates: Int32Array, count: number, k: number, better: (a: number, b: number) => boolean): number[] {
  if (k <= 0 || count === 0) return [];
  const heap: number[] = [];
  const worse = (a: number, b: number) => better(b, a);
  const up = (i: number) => {
    while (i > 0) {
      const parent = (i - 1) >> 1;
      const item = heap[i]!;
      if (!worse(item, heap[parent]!)) break;
      heap[i] = heap[parent]!;
      heap[parent] = item;
      i = parent;
    }
  };
  const down = (i: number) => {
    for (;;) {
      const l = 2 * i + 1;
      const r = l + 1;
      let m = i;
      if (l < heap.length && worse(heap[l]!, heap[m]!)) m = l;
      if (r < heap.length && worse(heap[r]!, heap[m]!)) m = r;
      if (m === i) return;
      const item = heap[i]!;
      heap[i] = heap[m]!;
      heap[m] = item;
      i = m;
    }
  };
  for (let c = 0; c < count; c++) {
    const item = candidates[c]!;
    if (heap.length < k) {
      heap.push(item);
      up(heap.length - 1);
    } else if (better(item, heap[0]!)) {
      heap[0] = item;
      down(0);
    }
  }
  return heap.sort((a, b) => (better(a, b) ? -1 : better(b, a) ? 1 : 0));
}
