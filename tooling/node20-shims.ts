// vitest 5.1's reporter calls Map.groupBy (Node ≥ 21) when it prints a failure; on Node 20 that
// crash hides every failure message. Each package's vitest.config.ts imports this file.
// Remove it once the repository requires Node ≥ 21.
const groupable = Map as unknown as { groupBy?: unknown };
groupable.groupBy ??= <K, V>(items: Iterable<V>, key: (item: V, index: number) => K): Map<K, V[]> => {
  const groups = new Map<K, V[]>();
  let index = 0;
  for (const item of items) {
    const k = key(item, index++);
    const group = groups.get(k);
    if (group) group.push(item);
    else groups.set(k, [item]);
  }
  return groups;
};
