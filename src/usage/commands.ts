import vscode = require('vscode');
import { activeDocumentAccount, chooseAccount } from '../accounts/pick';
import { CMD } from '../constants';
import { usageRows } from '../model/usageFormat';
import type { CommandParts } from '../util/commandTypes';
import type { AccountPickNeeds } from '../accounts/pick';
import type { UsageStatus } from './usageStatus';

/** What Show Plan Usage takes. */
export type UsageNeeds = { readonly usage: UsageStatus } & AccountPickNeeds;

export function usageCommands(s: UsageNeeds) {
  return {
    [CMD.usageShow]: (arg?: unknown) => showUsage(s, arg),
  } satisfies CommandParts;
}

type UsageItem = vscode.QuickPickItem & { open?: true };

/**
 * The plan usage in a Quick Pick (what the status bar item summarises): this month's words, documents and
 * images against the plan's limits, the totals, and Open Account Page (the account's documents server). The figures
 * are read-only, but a Quick Pick's lines are choices: choosing any of them opens the account page, where the plan is
 * seen and changed, and the box says so (no line is a dead end).
 * Uses the figures already read; reads the account once when there are none yet.
 *
 * Whose usage: the account a row or root names (`arg`), else the account of the active document (what the status
 * bar shows), else the only account, else the one the user picks (the last used first).
 */
export async function showUsage(s: UsageNeeds, arg?: unknown): Promise<void> {
  const account = (arg === undefined ? activeDocumentAccount(s) : undefined) ?? (await chooseAccount(s, vscode.l10n.t('Content Docs: Plan Usage'), arg));
  if (!account) return;
  const info = account.usage.cached ?? (await account.usage.get());
  const base = account.documentsUrl;
  const rows: UsageItem[] = usageRows(info).map((r) => ({ label: r.label, description: r.description, open: true }));
  if (rows.length === 0) rows.push({ label: vscode.l10n.t('The server did not say how much of the plan is used.') });
  const items: UsageItem[] = [
    ...rows,
    { label: '', kind: vscode.QuickPickItemKind.Separator },
    { label: vscode.l10n.t('$(link-external) Open Account Page'), description: base, open: true },
  ];
  // With several accounts the title says whose figures these are.
  const title = s.registry.several ? vscode.l10n.t('Content Docs: Plan Usage — {0}', account.displayName) : vscode.l10n.t('Content Docs: Plan Usage');
  const picked = await s.prompter.pick(items, { title, placeHolder: vscode.l10n.t('This month against your plan: select a line to open your account page') });
  if (!picked?.open) return;
  if (!base) throw new Error(vscode.l10n.t('No server address is set ("contentDocs.documents.baseUrl").'));
  await s.usage.openExternal(vscode.Uri.parse(base));
}
