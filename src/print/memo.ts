/** The value kept under `key`, made and kept on first use (a pending promise is kept as made). */
export function kept<K, V>(store: { get(key: K): V | undefined; set(key: K, value: V): unknown }, key: K, make: () => V): V {
  let value = store.get(key);
  if (value === undefined) store.set(key, (value = make()));
  return value;
}
