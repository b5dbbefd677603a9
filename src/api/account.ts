import { callOptions, type Call, type HttpClient } from './client';
import type { AccountInfo } from './schemas';

/** The cheap "is this key valid" probe: the plan and this month's usage. */
export async function getAccount(http: HttpClient, call?: Call): Promise<Record<string, unknown>> {
  const body = await http.send({ service: 'documents', method: 'GET', path: '/account', schema: (s) => s.account, ...callOptions(call) });
  return (body.data ?? body);
}

/** GET /account as a typed object: the plan's limits, the usage counters and the user's defaults (missing parts left out). */
export async function getAccountUsage(http: HttpClient, call?: Call): Promise<AccountInfo> {
  return http.send({ service: 'documents', method: 'GET', path: '/account', schema: (s) => s.accountInfo, ...callOptions(call) });
}
