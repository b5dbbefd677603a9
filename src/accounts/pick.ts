import vscode = require('vscode');
import { STATE } from '../constants';
import type { Core } from '../core';
import type { Account } from './account';

/** What choosing an account takes. */
export type AccountPickNeeds = Pick<Core, 'state' | 'documentsView' | 'fs' | 'projectsView' | 'prompter' | 'registry'>;

/** An account's row, with the account as it was when the box opened. */
type AccountItem = vscode.QuickPickItem & { account: Account; shownAs: { label: string | undefined; name: string } };

/**
 * The account an action works in: the one its argument names (a row or root of a view), the only one, or the one the
 * user picks when there are several — the last used first. Undefined when the user pressed Escape. Local, no request.
 */
export async function chooseAccount(s: AccountPickNeeds, title: string, arg?: unknown): Promise<Account | undefined> {
  const named = s.documentsView.accountOf(arg) ?? s.projectsView.accountOf(arg);
  if (named) return named;
  const shown = s.registry.shown();
  if (shown.length <= 1) return s.registry.primary;
  const last = s.state.get<string>(STATE.lastAccount);
  const ordered = [...shown].sort((a, b) => Number(b.label === last) - Number(a.label === last));
  const items: AccountItem[] = ordered.map((a) => ({
    label: `$(account) ${a.displayName}`,
    description: a.label === last ? 'last used' : undefined,
    account: a,
    shownAs: { label: a.label, name: a.displayName },
  }));
  const picked = await s.prompter.pick(items, { title, placeHolder: 'Which account?' });
  if (!picked) return undefined;
  // Removed while the box was open (Remove Account…, the Accounts menu's Sign Out), or the first account signed in to
  // another server or key (its label names its server and key): never another account than the one picked.
  if (!s.registry.shown().includes(picked.account) || picked.account.label !== picked.shownAs.label) {
    throw new Error(`The account ${picked.shownAs.name} was removed from VS Code or signed in elsewhere while you chose it: nothing was sent.`);
  }
  await useAccount(s, picked.account);
  return picked.account;
}

/** Remembers the account last worked in (offered first next time). */
export async function useAccount(s: AccountPickNeeds, account: Account): Promise<void> {
  if (account.label !== undefined) await s.state.update(STATE.lastAccount, account.label);
}

/** The account of the document in the active editor, while it is one of the accounts shown (no request). */
export function activeDocumentAccount(s: AccountPickNeeds): Account | undefined {
  const uri = vscode.window.activeTextEditor?.document.uri;
  const target = uri ? s.fs.documentOf(uri) : undefined;
  if (!target) return undefined;
  return s.registry.shown().find((a) => a.documents === target.documents);
}

/**
 * The account of an action that asks no question (the @content chat): the active document's, else the one last
 * used, else the first shown. Local, no request.
 */
export function accountInUse(s: AccountPickNeeds): Account {
  const active = activeDocumentAccount(s);
  if (active) return active;
  const shown = s.registry.shown();
  const last = s.state.get<string>(STATE.lastAccount);
  return shown.find((a) => a.label !== undefined && a.label === last) ?? shown[0] ?? s.registry.primary;
}
