import vscode = require('vscode');
import type { Credentials } from '../accounts/credentials';
import { CMD, CONFIG, CTX, PROPOSAL_SCHEME } from '../constants';
import * as config from '../util/config';
import { WRITE_ACTION_IDS, type WriteActionId } from './actionIds';

/** The one-step writing actions the editor menu and the Code Actions offer (`contentDocs.write.menuActions`; all five by default). */
function writeMenuActions(): readonly string[] {
  const v = vscode.workspace.getConfiguration(CONFIG).get<unknown>('write.menuActions');
  return Array.isArray(v) ? v.filter((x): x is string => typeof x === 'string') : WRITE_ACTION_IDS;
}

/** Each one-step action's command and the context key that leaves it out of the editor's Content Docs menu. */
export const ACTION_COMMANDS: Readonly<Record<WriteActionId, { command: string; off: string }>> = {
  rewrite: { command: CMD.selectionRewrite, off: CTX.writeMenuRewriteOff },
  summarize: { command: CMD.selectionSummarize, off: CTX.writeMenuSummarizeOff },
  grammar: { command: CMD.selectionFixGrammar, off: CTX.writeMenuGrammarOff },
  headlines: { command: CMD.selectionHeadlines, off: CTX.writeMenuHeadlinesOff },
  meta: { command: CMD.selectionMetaDescription, off: CTX.writeMenuMetaOff },
};

const KIND = vscode.CodeActionKind.RefactorRewrite.append('contentDocs');
/** Documents that are not the user's text: our own proposals, output channels. */
const SKIPPED_SCHEMES = new Set([PROPOSAL_SCHEME, 'output', 'vscode-scm', 'comment']);

/**
 * The writing actions on a non-empty selection, as Code Actions of the kind Rewrite, in any file. Local only: no
 * request, nothing loaded; shown only while signed in. Offered when the user asks for Code Actions: Ctrl+. (Quick
 * Fix…, which asks for every kind and lists these under Rewrite), Refactor… (Ctrl+Shift+R) or the context menu's
 * Refactor…. Never to the light bulb's automatic requests: a light bulb on every selection of every file would be
 * noise (each action also costs a document and words).
 *
 * They, the editor's Content Docs menu and its palette entries exist only once the extension is active (the menus
 * are gated on the signed-in context key activation sets), so the manifest activates it `onStartupFinished`, as
 * GitLens does: after the window is up, never delaying it. So activation loads only dist/extension.js (the
 * registrations; its files and size are declared in BUNDLES in esbuild.mjs) and sends no request
 * (test/integration/activation.test.ts).
 */
class WriteCodeActions implements vscode.CodeActionProvider {
  /** Whether an account is signed in: the key of Set API Key…, or an account added with Add Account… (contentDocs.signedIn). */
  constructor(private readonly signedIn: () => boolean) {}

  provideCodeActions(document: vscode.TextDocument, range: vscode.Range | vscode.Selection, context: vscode.CodeActionContext): vscode.CodeAction[] {
    if (context.triggerKind !== vscode.CodeActionTriggerKind.Invoke) return [];
    if (context.only && !context.only.contains(KIND)) return [];
    if (!this.signedIn() || range.isEmpty || SKIPPED_SCHEMES.has(document.uri.scheme)) return [];
    // Read-only (Git's versions, a read-only file system): a proposal could never be applied.
    if (vscode.workspace.fs.isWritableFileSystem(document.uri.scheme) === false) return [];
    const enabled = new Set(writeMenuActions());
    const out: vscode.CodeAction[] = [];
    for (const id of WRITE_ACTION_IDS) {
      if (!enabled.has(id)) continue;
      // The command's title is the Code Action's own (VS Code shows the Code Action's title, not its command's).
      const a = new vscode.CodeAction(vscode.l10n.t('Content Docs: {0}', TITLES[id]()), KIND);
      a.command = { command: ACTION_COMMANDS[id].command, title: a.title, arguments: [document.uri] };
      out.push(a);
    }
    const g = new vscode.CodeAction(vscode.l10n.t('Content Docs: Generate from Selection…'), KIND);
    g.command = { command: CMD.selectionGenerate, title: g.title, arguments: [document.uri] };
    out.push(g);
    return out;
  }
}

/**
 * The menu's context keys from the setting. `all`: every key, as a change of the setting needs; otherwise only the keys
 * of the actions turned off (at activation: a key never set is false, and the default turns none off).
 */
function setMenuContext(all: boolean): void {
  const enabled = new Set(writeMenuActions());
  for (const id of WRITE_ACTION_IDS) {
    if (all || !enabled.has(id)) void vscode.commands.executeCommand('setContext', ACTION_COMMANDS[id].off, !enabled.has(id));
  }
}

/**
 * At activation: the menu's context keys (from the setting) and the Code Action provider, signed in as the editor menu
 * is (the key of Set API Key… as last seen, or an added account). No network.
 */
export function registerWriteUi(credentials: Pick<Credentials, 'signedIn' | 'alsoSignedIn'>): vscode.Disposable[] {
  const provider = new WriteCodeActions(() => credentials.signedIn || credentials.alsoSignedIn());
  setMenuContext(false);
  return [
    vscode.languages.registerCodeActionsProvider('*', provider, { providedCodeActionKinds: [KIND] }),
    vscode.workspace.onDidChangeConfiguration((e) => {
      if (config.affects(e, 'write.menuActions')) setMenuContext(true);
    }),
  ];
}

/** Each action's command title, as the Code Action shows it (actions.ts words it the same for the command bundle). */
const TITLES: Readonly<Record<WriteActionId, () => string>> = {
  rewrite: () => vscode.l10n.t('Rewrite Selection'),
  summarize: () => vscode.l10n.t('Summarize Selection'),
  grammar: () => vscode.l10n.t('Fix Grammar'),
  headlines: () => vscode.l10n.t('Suggest Headlines'),
  meta: () => vscode.l10n.t('Write Meta Description'),
};
