import type { HttpClient } from './client';
import { accountSchema } from './schemas';

/** The cheap "is this key valid" probe: the plan and this month's usage. */
export async function getAccount(http: HttpClient, signal?: AbortSignal): Promise<Record<string, unknown>> {
  const body = await http.send({ service: 'documents', method: 'GET', path: '/account', schema: accountSchema, signal });
  return (body.data ?? body);
}
