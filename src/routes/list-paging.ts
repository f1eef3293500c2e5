// Paging when asked, for the lists the service reads whole (an account's projects, assets, keys,
// a project's shares): without limit and cursor the answer is the whole list as before; with them,
// the page after the cursor's position and its nextCursor. Items arrive sorted newest first by the
// position's time, then id, both descending.
import { pageOf, type CursorCodec, type ListPosition } from '../lib/cursors.js';

export interface PageQuery {
  limit?: number;
  cursor?: string;
}

const after = (item: ListPosition, position: ListPosition) =>
  item.createdAt < position.createdAt || (item.createdAt.getTime() === position.createdAt.getTime() && item.id < position.id);

/** The page, and nextCursor only when paging was asked. Items that are not positions themselves say where they stand. */
export function pageWhenAsked<T>(
  items: T[],
  query: PageQuery,
  cursors: () => CursorCodec,
  position: (item: T) => ListPosition = (item) => item as ListPosition,
): { items: T[] } | { items: T[]; nextCursor: string | null } {
  if (query.limit === undefined && query.cursor === undefined) return { items };
  const codec = cursors();
  const from = query.cursor === undefined ? null : codec.decode(query.cursor);
  const rest = from ? items.filter((item) => after(position(item), from)) : items;
  const limit = query.limit ?? 100;
  const positioned = rest.slice(0, limit + 1).map((item) => ({ item, ...position(item) }));
  const { page, nextCursor } = pageOf(positioned, limit, codec);
  return { items: page.map((entry) => entry.item), nextCursor };
}
