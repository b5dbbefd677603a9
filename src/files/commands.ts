import vscode = require('vscode');
import { formatCount } from '../tree/format';
import type { ContentDocument } from '../api/index';
import { templateName } from '../api/templates';
import { charLength, CREATIVITY_LEVELS, creativityName, LIMITS, nearestCreativity, type Creativity } from '../api/validate';
import { CMD } from '../constants';
import { ACCOUNT_FOLDER_NAME, accountRoot, documentUri, openTabOf } from './uris';
import { describeError, errorKind, isApiError, isCancellation } from '../util/errors';
import { showError } from '../util/run';
import { accountGone, documentTargetOf, type DocumentTarget } from '../documents/target';
import type { Account } from '../accounts/account';
import { chooseAccount } from '../accounts/pick';
import { templateCategory } from '../api/templateCategories';
import type { DocumentsTreeProvider } from '../documents/documentsTree';
import { isBack, isPressed, type Back, type Step, type StepButton } from '../ui/quickInputs';
import { collapse, documentPrompt, documentPromptLength } from '../write/prompt';
import { promptCommands, promptEditorOpen, showPromptEditor, takeRestoredPrompt, writePromptInEditor } from './promptEditor';
import type { CommandParts } from '../util/commandTypes';
import type { AccountPickNeeds } from '../accounts/pick';
import type { ArgsNeeds } from '../documents/target';
import type { Logger } from '../util/log';
import type { Prompter } from '../ui/prompter';

/** What opening, creating and finding documents take. */
export type FilesNeeds = { readonly log: Logger; readonly prompter: Prompter; readonly workspaceState: vscode.Memento } & AccountPickNeeds & ArgsNeeds;

/** Go to Document waits this long after the last keystroke before asking the server. */
export const SEARCH_DEBOUNCE_MS = 250;
const SEARCH_PAGE_SIZE = 25;

export function fileCommands(s: FilesNeeds) {
  return {
    [CMD.documentOpen]: (arg: unknown) => openDocument(s, arg),
    [CMD.documentNew]: (arg: unknown) => newDocument(s, arg),
    [CMD.documentGoTo]: (arg: unknown) => goToDocument(s, arg),
    [CMD.openAccountFolder]: (arg: unknown) => openAccountFolder(s, arg),
    ...promptCommands,
  } satisfies CommandParts;
}

// --- Open --------------------------------------------------------------------------------------------

/**
 * Opens a document in an editor: one GET (the file system reuses it for the stat and the read).
 * An editor already open on the document is shown instead of a second one.
 */
export async function openDocument(
  s: FilesNeeds,
  arg: unknown,
  options: { preview?: boolean; viewColumn?: vscode.ViewColumn } = {},
): Promise<vscode.TextEditor | undefined> {
  const target = documentTargetOf(s, arg);
  if (target === undefined) throw accountGone(s, arg) ?? new Error(vscode.l10n.t('There is no document to open.'));
  return openTarget(s, target, options);
}

/** Opens a document of the account `target` names (Retry opens it there again, never by its id alone). */
async function openTarget(
  s: FilesNeeds,
  target: DocumentTarget,
  options: { preview?: boolean; viewColumn?: vscode.ViewColumn },
): Promise<vscode.TextEditor | undefined> {
  const { account, id } = target;
  const { documents } = account;
  // Only a document shown in a tab is reused: VS Code keeps closed documents' models around for a while,
  // and those may hold text the server has changed since.
  const open = openTabOf((uri) => s.fs.documentOf(uri), account, id);
  if (open) return vscode.window.showTextDocument(open, { preview: options.preview, viewColumn: options.viewColumn });

  const known = documents.get(id);
  let doc: ContentDocument;
  try {
    doc = await documents.fetch(id);
  } catch (e) {
    if (isCancellation(e)) return undefined;
    if (errorKind(e) === 'notFound') documents.markDeleted(id);
    void showError(s.log, describeError(known?.name ? vscode.l10n.t('Couldn\'t open "{0}"', known.name) : vscode.l10n.t("Couldn't open document {0}", id), e), e, () => openTarget(s, target, options));
    return undefined;
  }
  s.fs.remember(doc);
  const uri = documentUri(doc, account);
  await s.fs.reloadIfStale(uri, id);
  return vscode.window.showTextDocument(uri, { preview: options.preview, viewColumn: options.viewColumn });
}

// --- New Document… -------------------------------------------------------------------------------------

interface Draft {
  name: string;
  templateId: number;
  prompt: string;
  creativity: Creativity;
}

const DEFAULT_TEMPLATE_ID = 1; // Freestyle
/** The prompt of the last New Document… that created nothing (cancelled, refused, failed): the next one starts with it. */
let keptPrompt: string | undefined;
const DEFAULT_CREATIVITY: Creativity = 0.5; // Original
const STEPS = 4;

function validateName(value: string): string | undefined {
  const v = value.trim();
  if (!v) return vscode.l10n.t('Enter a name.');
  const n = charLength(v);
  return n > LIMITS.name ? vscode.l10n.t('A name can have at most {0} characters (this one has {1}).', LIMITS.name, n) : undefined;
}

/** Whether a prompt has several lines (written in the prompt's editor): it is sent as HTML then (documentPrompt). */
function severalLines(text: string): boolean {
  return /[\r\n]/.test(text.trim());
}

function validatePrompt(value: string): string | undefined {
  if (!value.trim()) return vscode.l10n.t('Describe what the text should be about.');
  const n = documentPromptLength(value);
  if (n <= LIMITS.prompt) return undefined;
  const limit = formatCount(LIMITS.prompt);
  return severalLines(value)
    ? vscode.l10n.t('A prompt can have at most {0} characters as sent (this one has {1}, its paragraphs and lists as HTML): shorten it in the editor.', limit, formatCount(n))
    : vscode.l10n.t('A prompt can have at most {0} characters (this one has {1}).', limit, formatCount(n));
}

/** The server's refusal of a field, as the sentence `say` makes of its messages; undefined when it refused nothing there. */
function refusal(fields: Record<string, string[]> | undefined, field: string, say: (messages: string) => string): string | undefined {
  const msgs = fields?.[field];
  return msgs?.length ? say(msgs.join(' ')) : undefined;
}

type DraftField = 'name' | 'template_id' | 'prompt' | 'creativity';
/** The steps of New Document…, in order, by the field each asks for (as the server names it in a 422). */
const FIELDS: readonly DraftField[] = ['name', 'template_id', 'prompt', 'creativity'];

/**
 * The prompt box's line: what to write, and the characters that will be sent against the limit (as the Problems view
 * counts). For a prompt written in the editor (several lines), shown joined in the box: Enter uses it with its lines.
 */
function promptLine(value: string): string {
  const count = formatCount(documentPromptLength(value));
  const limit = formatCount(LIMITS.prompt);
  if (!severalLines(value)) {
    return vscode.l10n.t('What should the text be about? {0} / {1} characters. For paragraphs or a list, write it in an editor (the button above).', count, limit);
  }
  const lines = value.split(/\r\n?|\n/).filter((l) => l.trim()).length;
  return vscode.l10n.t('Written in the editor ({0} lines, {1} / {2} characters). Enter uses it as written; typing here joins it into one line.', lines, count, limit);
}

/** The prompt step's button that opens the prompt in an editor, for paragraphs and lists. */
const editorButton = (): StepButton => ({
  id: 'editor',
  icon: 'go-to-file',
  tooltip: vscode.l10n.t('Write in an Editor… (paragraphs and lists; the character count in the status bar)'),
});

/**
 * Asks for the document's name, template, prompt and creativity: one multi-step input (VS Code's sample), "n/4"
 * beside the title, Back from the second step on, each step prefilled with its last answer. After a 422, only the
 * refused fields are asked again (all of them when the server named none we ask for), prefilled with what the user
 * typed and the server's message; Back still reaches the steps before. The answers are kept in `prev` as they come
 * (the prompt too when the user cancels, so that it is not lost). Undefined when the user cancels.
 */
async function askDraft(
  s: FilesNeeds,
  tree: DocumentsTreeProvider,
  prev: Partial<Draft>,
  refused: Record<string, string[]> | undefined,
  preferred: () => Promise<Creativity | undefined>,
): Promise<Draft | undefined> {
  const askAll = !refused || !Object.keys(refused).some((k) => (FIELDS as readonly string[]).includes(k));
  const draft = prev;
  const toAsk = new Set(FIELDS.filter((f) => askAll || (refused !== undefined && f in refused)));
  const missing = (f: DraftField) =>
    (f === 'name' ? draft.name : f === 'template_id' ? draft.templateId : f === 'prompt' ? draft.prompt : draft.creativity) === undefined;
  /** The steps answered, to go back through. */
  const answered: number[] = [];
  let i = 0;
  while (i < FIELDS.length) {
    const field = FIELDS[i];
    if (!toAsk.has(field) && !missing(field)) {
      i++;
      continue;
    }
    const answer = await askStep(s, tree, field, { step: i + 1, totalSteps: STEPS }, draft, refused, preferred);
    if (answer === undefined) return undefined;
    if (isBack(answer)) {
      // To the step answered before; after a 422 that asked a later step first, to the one before it.
      i = answered.pop() ?? Math.max(0, i - 1);
      toAsk.add(FIELDS[i]);
      continue;
    }
    answered.push(i);
    i++;
  }
  return draft as Draft;
}

/** Asks one step's question and keeps its answer in `draft`: 'done', Back, or undefined (Escape). */
async function askStep(
  s: FilesNeeds,
  tree: DocumentsTreeProvider,
  field: DraftField,
  step: Step,
  draft: Partial<Draft>,
  refused: Record<string, string[]> | undefined,
  preferred: () => Promise<Creativity | undefined>,
): Promise<'done' | Back | undefined> {
  switch (field) {
    case 'name': {
      const name = await s.prompter.inputStep({
        title: vscode.l10n.t('New Document: Name'),
        ...step,
        prompt:
          refusal(refused, 'name', (m) => vscode.l10n.t('The server refused the name: {0}', m)) ??
          vscode.l10n.t("The document's name (up to {0} characters)", LIMITS.name),
        placeHolder: vscode.l10n.t('e.g. Q3 plan'),
        value: draft.name,
        validateInput: validateName,
      });
      // This box has no button of its own: an answer that is no text is Back or Escape.
      if (typeof name !== 'string') return isBack(name) ? name : undefined;
      draft.name = name.trim();
      return 'done';
    }
    case 'template_id': {
      const current = draft.templateId ?? DEFAULT_TEMPLATE_ID;
      type TemplateItem = vscode.QuickPickItem & { id: number };
      // The table's templates in the Documents view's order and under its names (by name; the server's word once a
      // document showed it), so a name is where the view has it; the current choice is active, so Enter keeps it.
      const items: TemplateItem[] = tree.templateGroups().filter((g) => !g.custom).map((g) => ({
        label: g.name,
        description:
          g.templateId === DEFAULT_TEMPLATE_ID
            ? vscode.l10n.t('{0} (default)', templateCategory(g.templateId) ?? '').trim()
            : (templateCategory(g.templateId) ?? ''),
        id: g.templateId,
      }));
      const picked = await s.prompter.pickStep(items, {
        title: vscode.l10n.t('New Document: Template'),
        ...step,
        placeHolder:
          refusal(refused, 'template_id', (m) => vscode.l10n.t('The server refused the template: {0}', m)) ??
          vscode.l10n.t('Choose a template (type to filter by name or kind; Freestyle lets the prompt decide)'),
        matchOnDescription: true,
        active: items.find((i) => i.id === current),
      });
      if (picked === undefined || isBack(picked)) return picked;
      draft.templateId = picked.id;
      return 'done';
    }
    case 'prompt': {
      const refusedPrompt = refusal(refused, 'prompt', (m) => vscode.l10n.t('The server refused the prompt: {0}', m));
      const refusedText = draft.prompt ?? '';
      for (;;) {
        const written = draft.prompt ?? '';
        // A prompt of several lines (from the editor) shows joined in the one-line box; Enter on it as shown keeps its lines.
        const shown = severalLines(written) ? collapse(written) : written;
        const meant = (value: string) => (value === shown ? written : value);
        const answer = await s.prompter.inputStep({
          title: vscode.l10n.t('New Document: Prompt'),
          ...step,
          prompt: refusedPrompt && written === refusedText ? refusedPrompt : promptLine(written),
          // The server's refusal stays said until the user changes the prompt; then the count.
          promptFor: (value) => (refusedPrompt && meant(value) === refusedText ? refusedPrompt : promptLine(meant(value))),
          placeHolder: vscode.l10n.t('e.g. A one-page plan for the third quarter'),
          value: shown,
          // The cursor after the text, nothing selected: a key typed adds to the prompt rather than replacing it.
          valueSelection: [shown.length, shown.length],
          buttons: [editorButton()],
          validateInput: (value) => validatePrompt(meant(value)),
          // Escape keeps what was typed for the next New Document….
          onCancel: (value) => {
            if (value.trim()) draft.prompt = meant(value);
          },
          // Back to change the template keeps what was typed, for when the user comes forward again.
          onBack: (value) => {
            draft.prompt = meant(value);
          },
        });
        if (answer === undefined || isBack(answer)) return answer;
        if (isPressed(answer)) {
          // The editor holds what the box held; Use Prompt goes on, closing its tab comes back here with the text kept.
          const outcome = await writePromptInEditor(meant(answer.value), s.workspaceState);
          draft.prompt = outcome.text;
          if (outcome.kind === 'use') {
            draft.prompt = outcome.text.trim();
            return 'done';
          }
          if (outcome.kind === 'ended') return undefined;
          continue;
        }
        draft.prompt = meant(answer).trim();
        return 'done';
      }
    }
    case 'creativity': {
      const yours = await preferred();
      const byDefault = yours ?? DEFAULT_CREATIVITY;
      const current = draft.creativity ?? byDefault;
      type LevelItem = vscode.QuickPickItem & { value: Creativity };
      // From 0 to 1, the default marked; the current choice is active, so Enter keeps it.
      const items: LevelItem[] = CREATIVITY_LEVELS.map((c) => ({
        label: creativityName(c.value),
        description:
          c.value !== byDefault
            ? String(c.value)
            : yours === undefined
              ? vscode.l10n.t('{0} (default)', c.value)
              : vscode.l10n.t("{0} (your account's default)", c.value),
        value: c.value,
      }));
      const picked = await s.prompter.pickStep(items, {
        title: vscode.l10n.t('New Document: Creativity'),
        ...step,
        placeHolder:
          refusal(refused, 'creativity', (m) => vscode.l10n.t('The server refused the creativity: {0}', m)) ??
          vscode.l10n.t('How inventive the text may be, from 0 (repeats the likeliest words) to 1'),
        active: items.find((i) => i.value === current),
      });
      if (picked === undefined || isBack(picked)) return picked;
      draft.creativity = picked.value;
      return 'done';
    }
  }
}

/** How long the creativity question waits for the account's default before offering the usual one. */
const ACCOUNT_WAIT_MS = 2000;

/**
 * The account's `default_creativity`, as the nearest named level: from the account as read this session,
 * else from one read started now (while the user answers the first questions; the status bar's figures
 * come with it). Undefined when it is not there in time, fails, or the server does not say.
 */
function preferredCreativity(account: Account): () => Promise<Creativity | undefined> {
  const cached = account.usage.cached;
  if (cached) return () => Promise.resolve(nearestCreativity(cached.defaultCreativity));
  const read = account.usage.get().then(
    (a) => nearestCreativity(a.defaultCreativity),
    () => undefined,
  );
  // The wait starts at the question, not now: the user may take long over the first answers.
  return async () => {
    let timer: ReturnType<typeof setTimeout> | undefined;
    const late = new Promise<undefined>((resolve) => (timer = setTimeout(() => resolve(undefined), ACCOUNT_WAIT_MS)));
    try {
      return await Promise.race([read, late]);
    } finally {
      clearTimeout(timer);
    }
  };
}

/** The server writes the text during the request: a cancellable notification while it does. Never retried. */
function store(account: Account, d: Draft): Thenable<ContentDocument> {
  return vscode.window.withProgress(
    { location: vscode.ProgressLocation.Notification, title: vscode.l10n.t('Creating "{0}"', d.name), cancellable: true },
    async (progress, token) => {
      progress.report({ message: vscode.l10n.t('the server is writing the text, which can take a minute…') });
      const controller = new AbortController();
      const sub = token.onCancellationRequested(() => controller.abort());
      try {
        return await account.documents.create(
          // One line as typed; several lines as the writing actions send a selection (minimal HTML), as the server joins lines.
          { name: d.name, prompt: documentPrompt(d.prompt), creativity: d.creativity, templateId: d.templateId },
          controller.signal,
        );
      } finally {
        sub.dispose();
      }
    },
  );
}

/**
 * New Document…: asks (in which account first, when there are several and no row of the view says), stores, opens.
 * The Documents view shows it through DocumentService.onDidCreate.
 */
export async function newDocument(s: FilesNeeds, arg?: unknown): Promise<ContentDocument | undefined> {
  // A prompt editor restored after a reload (its New Document… ended with the window): its text is this one's prompt.
  const restored = takeRestoredPrompt(s.workspaceState);
  if (restored?.trim()) keptPrompt = restored;
  if (promptEditorOpen()) {
    // A New Document… is waiting for its prompt there: one at a time.
    await showPromptEditor();
    void vscode.window.showInformationMessage(
      vscode.l10n.t('New Document… is waiting for this prompt: Use Prompt (✓ in the editor title) goes on, closing the tab goes back to its box.'),
    );
    return undefined;
  }
  const account = await chooseAccount(s, vscode.l10n.t('New Document: Account'), arg);
  if (!account) return undefined;
  // The prompt of a New Document… that was cancelled or refused is offered again, whatever the account.
  const draft: Partial<Draft> = { prompt: keptPrompt };
  let refused: Record<string, string[]> | undefined;
  const preferred = preferredCreativity(account);
  for (;;) {
    const d = await askDraft(s, s.documentsView.treeOf(account) as DocumentsTreeProvider, draft, refused, preferred);
    if (draft.prompt?.trim()) keptPrompt = draft.prompt;
    if (!d) return undefined;
    const action = vscode.l10n.t('Couldn\'t create "{0}"', d.name);
    let doc: ContentDocument;
    try {
      doc = await store(account, d);
    } catch (e) {
      if (isCancellation(e)) {
        void vscode.window.showInformationMessage(
          vscode.l10n.t('Stopped waiting for "{0}". The server may still create it: refresh the Documents view in a minute to see it.', d.name),
        );
        return undefined;
      }
      if (isApiError(e) && e.kind === 'validation' && e.fields && Object.keys(e.fields).length > 0) {
        // Say why, then ask again with everything the user typed kept.
        s.log.warn(`[new] ${describeError(action, e)}`);
        void vscode.window.showWarningMessage(describeError(action, e));
        refused = e.fields;
        continue;
      }
      const kind = errorKind(e);
      const mayExist = kind === 'timeout' || kind === 'network' || kind === 'badResponse';
      const message = mayExist
        ? vscode.l10n.t('{0} The server may have created it anyway: refresh the Documents view before trying again.', describeError(action, e))
        : describeError(action, e);
      // A store is retried only on the user's word, and only when nothing can have been created.
      void showError(s.log, message, e, kind === 'server' || kind === 'rateLimited' ? () => storeAndOpen(s, account, d) : undefined);
      return undefined;
    }
    keptPrompt = undefined;
    await showNew(s, account, doc);
    return doc;
  }
}

async function storeAndOpen(s: FilesNeeds, account: Account, d: Draft): Promise<void> {
  try {
    await showNew(s, account, await store(account, d));
  } catch (e) {
    if (!isCancellation(e)) void showError(s.log, describeError(vscode.l10n.t('Couldn\'t create "{0}"', d.name), e), e);
  }
}

async function showNew(s: FilesNeeds, account: Account, doc: ContentDocument): Promise<void> {
  s.log.info(`[new] created document ${doc.id} (${templateName(doc.template?.id, doc.template?.name)})`);
  // The account went while the server wrote (signed out, removed, or its key or server changed): the document is in
  // that account, and it is said so (a new New Document… would create a second one); it opens once that account is back.
  if (!s.registry.isLive(account)) {
    void vscode.window.showWarningMessage(
      vscode.l10n.t(
        'The document "{0}" was created in the account {1}, which was signed out, removed, or had its API key or server changed while the service was writing. Sign in to that account again to open it.',
        doc.name,
        account.displayName,
      ),
    );
    return;
  }
  s.fs.remember(doc);
  await vscode.window.showTextDocument(documentUri(doc, account), { preview: false });
}

// --- Go to Document… -----------------------------------------------------------------------------------

type DocumentPickItem = vscode.QuickPickItem & { id?: number };

function toPickItem(d: ContentDocument): DocumentPickItem {
  return {
    label: d.favorite ? `$(star-full) ${d.name || vscode.l10n.t('(no name)')}` : d.name || vscode.l10n.t('(no name)'),
    description: templateName(d.template?.id, d.template?.name),
    detail: d.words === 1 ? vscode.l10n.t('1 word') : vscode.l10n.t('{0} words', formatCount(d.words)),
    // The server already matched (accent- and case-insensitively): VS Code's own filter must not hide any.
    alwaysShow: true,
    id: d.id,
  };
}

/**
 * A Quick Pick that searches the server by name as the user types: one request per settled query
 * ({@link SEARCH_DEBOUNCE_MS} after the last keystroke); a newer query aborts the request of an older one.
 */
export async function goToDocument(s: FilesNeeds, arg?: unknown): Promise<vscode.TextEditor | undefined> {
  const account = await chooseAccount(s, vscode.l10n.t('Go to Document: Account'), arg);
  if (!account) return undefined;
  const qp = vscode.window.createQuickPick<DocumentPickItem>();
  qp.title = s.registry.several ? vscode.l10n.t('Go to Document in {0}', account.displayName) : vscode.l10n.t('Go to Document');
  qp.placeholder = vscode.l10n.t('Type part of a document name');
  qp.matchOnDescription = false;
  qp.matchOnDetail = false;
  let timer: ReturnType<typeof setTimeout> | undefined;
  let controller: AbortController | undefined;
  let seq = 0;
  let picked: number | undefined;

  const search = (value: string) => {
    if (timer) clearTimeout(timer);
    controller?.abort();
    controller = undefined;
    const my = ++seq;
    const query = value.trim();
    qp.busy = true;
    timer = setTimeout(() => void (async () => {
      timer = undefined;
      const ac = (controller = new AbortController());
      try {
        const page = await account.documents.list({ search: query || undefined, perPage: SEARCH_PAGE_SIZE }, ac.signal);
        if (my !== seq) return;
        qp.items = page.items.length
          ? page.items.map(toPickItem)
          : [{ label: query ? vscode.l10n.t('No document name contains "{0}"', query) : vscode.l10n.t('No documents yet'), alwaysShow: true }];
      } catch (e) {
        if (my !== seq || isCancellation(e)) return;
        s.log.warn(`[goto] ${describeError("Couldn't search the documents", e)}`);
        qp.items = [{ label: `$(error) ${describeError(vscode.l10n.t("Couldn't search the documents"), e)}`, alwaysShow: true }];
      } finally {
        if (my === seq) qp.busy = false;
      }
    })(), query ? SEARCH_DEBOUNCE_MS : 0);
  };

  return new Promise<vscode.TextEditor | undefined>((resolve) => {
    qp.onDidChangeValue(search);
    qp.onDidAccept(() => {
      const item = qp.selectedItems[0] ?? qp.activeItems[0];
      if (item?.id === undefined) return;
      picked = item.id;
      qp.hide();
    });
    qp.onDidHide(() => {
      if (timer) clearTimeout(timer);
      controller?.abort();
      seq++;
      qp.dispose();
      if (picked === undefined) return resolve(undefined);
      // Opened in the account it was found in (nothing is sent once that account is gone).
      openTarget(s, { account, id: picked }, {}).then(resolve, (e: unknown) => {
        void showError(s.log, describeError(vscode.l10n.t("Couldn't open the document"), e), e);
        resolve(undefined);
      });
    });
    qp.show();
    search('');
  });
}

// --- Open Account as Folder ----------------------------------------------------------------------------

/**
 * Adds `content-docs://<account>/` as a workspace folder named "Content Docs" (or shows it if it is there); with
 * several accounts, of the account picked (or the root it was run on), named after it.
 */
export async function openAccountFolder(s: FilesNeeds, arg?: unknown): Promise<void> {
  const chosen = await chooseAccount(s, vscode.l10n.t('Open Account as Folder: Account'), arg);
  if (!chosen) return;
  const root = accountRoot(chosen.label);
  const folders = vscode.workspace.workspaceFolders ?? [];
  if (!folders.some((f) => f.uri.toString() === root.toString())) {
    const name = s.registry.several ? `${ACCOUNT_FOLDER_NAME} — ${chosen.displayName}` : ACCOUNT_FOLDER_NAME;
    const ok = vscode.workspace.updateWorkspaceFolders(folders.length, 0, { uri: root, name });
    if (!ok) throw new Error(vscode.l10n.t('VS Code did not accept the folder (another change to the workspace folders may be in progress). Try again.'));
  }
  await vscode.commands.executeCommand('workbench.view.explorer');
}
