/** One page of a list, whatever envelope the server used. */
export interface Page<T> {
  items: T[];
  page: number;
  perPage: number | undefined;
  total: number | undefined;
  lastPage: number | undefined;
  hasMore: boolean;
}

interface Envelope<T> {
  data: T[];
  links?: { next?: string | null } | null;
  meta?: { current_page?: number | null; last_page?: number | null; per_page?: number | null; total?: number | null } | null;
}

export function toPage<T>(body: Envelope<T>, requestedPage: number, requestedPerPage?: number): Page<T> {
  const meta = body.meta ?? undefined;
  const page = meta?.current_page ?? requestedPage;
  const lastPage = meta?.last_page ?? undefined;
  const perPage = meta?.per_page ?? requestedPerPage;
  let hasMore: boolean;
  if (body.links && 'next' in body.links && body.links.next !== undefined) hasMore = body.links.next !== null;
  else if (lastPage !== undefined) hasMore = page < lastPage;
  else hasMore = perPage !== undefined && body.data.length >= perPage;
  if (body.data.length === 0) hasMore = false;
  return { items: body.data, page, perPage, total: meta?.total ?? undefined, lastPage, hasMore };
}

/** Walks the pages of a list from `start` until the server says there is no more. */
export async function* walkPages<T>(fetchPage: (page: number) => Promise<Page<T>>, start = 1, maxPages = 10_000): AsyncGenerator<Page<T>> {
  for (let page = start, n = 0; n < maxPages; page++, n++) {
    const p = await fetchPage(page);
    yield p;
    if (!p.hasMore) return;
  }
}
