import * as vscode from 'vscode';
import { CMD } from '../constants';
import type { Services } from '../services/services';
import { usageRows } from '../status/usageFormat';
import * as config from '../util/config';
import type { CommandParts } from './types';

export function usageCommands(s: Services) {
  return {
    [CMD.usageShow]: () => showUsage(s),
  } satisfies CommandParts;
}

type UsageItem = vscode.QuickPickItem & { open?: true };

/**
 * The plan usage in a Quick Pick (what the status bar item summarises): this month's words, documents and
 * images against the plan's limits, the totals, and Open Account Page (the documents server's address).
 * Uses the figures already read; reads the account once when there are none yet.
 */
export async function showUsage(s: Services): Promise<void> {
  const info = s.account.cached ?? (await s.account.get());
  const base = config.documentsBaseUrl();
  const rows: UsageItem[] = usageRows(info).map((r) => ({ label: r.label, description: r.description }));
  if (rows.length === 0) rows.push({ label: 'The server did not say how much of the plan is used.' });
  const items: UsageItem[] = [
    ...rows,
    { label: '', kind: vscode.QuickPickItemKind.Separator },
    { label: '$(link-external) Open Account Page', description: base, open: true },
  ];
  const picked = await s.prompter.pick(items, { title: 'Content Docs: Plan Usage', placeHolder: 'This month against your plan' });
  if (!picked?.open) return;
  if (!base) throw new Error('No server address is set ("contentDocs.documents.baseUrl").');
  await s.usage.openExternal(vscode.Uri.parse(base));
}
