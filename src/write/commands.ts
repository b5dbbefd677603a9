import vscode = require('vscode');
import { onMac } from '../util/keys';
import { baseName } from '../util/paths';
import type { AccountInfo, ContentDocument } from '../api/index';
import { compareNames } from '../api/collation';
import { TEMPLATES, templateName } from '../api/templates';
import { CREATIVITY_LEVELS, creativityName, nearestCreativity, serverTrim, type Creativity } from '../api/validate';
import type { CommandParts } from '../util/commandTypes';
import { CMD, PROPOSAL_SCHEME, STATE } from '../constants';
import { documentUri, openTabOf } from '../files/uris';
import type { Account } from '../accounts/account';
import { accountInUse, chooseAccount } from '../accounts/pick';
import type { DocumentsTreeProvider } from '../documents/documentsTree';
import { formatCount } from '../tree/format';
import * as config from '../util/config';
import { describeError, errorKind, isApiError, isCancellation } from '../util/errors';
import { formatList } from '../util/lists';
import { showError } from '../util/run';
import { WRITE_ACTIONS, type WriteAction, type WriteActionId } from './actions';
import { ProposalPreview, TrackedRange, type Proposal } from './preview';
import {
  checkPrompt,
  composePrompt,
  composeRequest,
  decodeAnswer,
  DEFAULT_LANGUAGE,
  DEFAULT_TONE,
  documentName,
  findLanguage,
  formatOf,
  isTone,
  LANGUAGES,
  promptLength,
  replacementFor,
  TONES,
  type Language,
  type Tone,
} from './prompt';
import type { AccountPickNeeds } from '../accounts/pick';
import type { Logger } from '../util/log';
import type { ProposalContent } from './proposalContent';

/** What the writing actions take. */
export type WriteNeeds = { readonly subscriptions: vscode.Disposable[]; readonly log: Logger; readonly proposalContent: ProposalContent } & AccountPickNeeds;

/** The one Writer of the services: the commands and @content /write share its proposals (Accept finds them there). */
const writers = new WeakMap<WriteNeeds, Writer>();

export function writerFor(s: WriteNeeds): Writer {
  let w = writers.get(s);
  if (!w) {
    w = new Writer(s);
    writers.set(s, w);
    s.subscriptions.push(w);
  }
  return w;
}

/** The writing commands on the active editor, and the proposal's Accept / Discard / Open Beside. */
export function writeCommands(s: WriteNeeds) {
  const w = writerFor(s);
  return {
    [CMD.selectionGenerate]: (arg: unknown) => w.generate(arg),
    [CMD.selectionRewrite]: (arg: unknown) => w.runAction('rewrite', arg),
    [CMD.selectionSummarize]: (arg: unknown) => w.runAction('summarize', arg),
    [CMD.selectionFixGrammar]: (arg: unknown) => w.runAction('grammar', arg),
    [CMD.selectionHeadlines]: (arg: unknown) => w.runAction('headlines', arg),
    [CMD.selectionMetaDescription]: (arg: unknown) => w.runAction('meta', arg),
    [CMD.writingLanguageTone]: () => w.chooseStyle(),
    [CMD.proposalAccept]: (arg: unknown) => w.accept(arg),
    [CMD.proposalDiscard]: (arg: unknown) => w.discard(arg),
    [CMD.proposalAcceptInTitle]: (arg: unknown) => w.accept(arg),
    [CMD.proposalDiscardInTitle]: (arg: unknown) => w.discard(arg),
    [CMD.proposalOpenDocument]: (arg: unknown) => w.openBeside(arg),
  } satisfies CommandParts;
}

/** What a run produced: the proposal under review and the document created in the account. */
export interface WriteResult {
  readonly proposal: Proposal | undefined;
  readonly document: ContentDocument;
}

/** What GET /account says that the writing actions use (each field only when the server sent it). */
interface AccountFacts {
  creativity?: Creativity;
  language?: Language;
  plan?: string;
  words?: { used: number; limit: number };
  documents?: { used: number; limit: number };
}

interface Style {
  language: Language;
  tone: Tone;
}

/** One run: everything decided before anything is sent. */
interface Job {
  /** What failed, a whole sentence ("Couldn't rewrite the text"): a message goes on with ": " and why. */
  readonly failed: string;
  readonly title: string;
  readonly confirmLabel: string;
  readonly name: string;
  readonly templateId: number;
  readonly creativity: Creativity;
  readonly prompt: string;
  readonly style: Style | undefined;
  readonly placement: WriteAction['placement'];
  /** What of the user's is sent when it is more than the editor's text (@content /write: the request too). */
  readonly sent?: string;
  readonly editor: vscode.TextEditor;
  readonly range: vscode.Range;
  readonly text: string;
  readonly wholeDocument: boolean;
  readonly others: number;
  /** The account reads made before this run started (a quota 422 reads it once more only if this run has not). */
  readonly readsBefore: number;
  /** The account the document is created in (picked when there are several). */
  readonly account: Account;
}

interface Target {
  editor: vscode.TextEditor;
  range: vscode.Range;
  text: string;
  wholeDocument: boolean;
  /** Selections besides the one used (several cursors): left as they are. */
  others: number;
}

function factsOf(a: AccountInfo): AccountFacts {
  const facts: AccountFacts = {};
  // Any number 0…1 on the server: the nearest named level, as New Document preselects it.
  facts.creativity = nearestCreativity(a.defaultCreativity);
  facts.language = findLanguage(a.defaultLanguage);
  if (a.plan?.name) facts.plan = a.plan.name;
  const counter = (used: number | undefined, limit: number | undefined) => (used !== undefined && limit !== undefined ? { used, limit } : undefined);
  facts.words = counter(a.month.words, a.limits.words);
  facts.documents = counter(a.month.documents, a.limits.documents);
  return facts;
}

/** The document a proposal URI names (`?document=<id>`), if it is one. */
function proposalQuery(uri: vscode.Uri | undefined): URLSearchParams | undefined {
  return uri?.scheme === PROPOSAL_SCHEME ? new URLSearchParams(uri.query) : undefined;
}

function proposalDocumentId(uri: vscode.Uri | undefined): number | undefined {
  if (uri?.scheme !== PROPOSAL_SCHEME) return undefined;
  const id = Number(new URLSearchParams(uri.query).get('document'));
  return Number.isSafeInteger(id) && id > 0 ? id : undefined;
}

function anotherAccount(name: string): Error {
  return new Error(
    vscode.l10n.t(
      'The document "{0}" was created in an account that is no longer signed in here (signed out, removed, or its API key or server changed since): nothing was sent. Sign in to that account again to open it.',
      name,
    ),
  );
}

/**
 * A name for a notification's text, where `[label](command:…)` is a link: a file named like one (the document's name
 * holds the file's) must not put a command of its own there.
 */
function noLinks(s: string): string {
  return s.replace(/\]\(/g, ']\u200b(');
}

function capitalize(s: string): string {
  return s.charAt(0).toUpperCase() + s.slice(1);
}

/** The keys of Accept and Discard on a proposal diff (the manifest's keybindings), as VS Code names them. */
function proposalKeys(): { accept: string; discard: string } {
  return { accept: onMac() ? '⌘Enter' : 'Ctrl+Enter', discard: 'Escape' };
}

/** The template that labels the documents @content /write creates: Freestyle (the request says what to write). */
const WRITE_TEMPLATE = 1;

const reached = (c: { used: number; limit: number } | undefined) => c !== undefined && c.limit !== -1 && c.used >= c.limit;

export class Writer implements vscode.Disposable {
  private preview: ProposalPreview | undefined;
  /** GET /account requests made by the writing actions (at most one per run). */
  private accountReads = 0;
  private readonly disposables: vscode.Disposable[] = [];

  constructor(private readonly s: WriteNeeds) {}

  dispose(): void {
    for (const d of this.disposables.splice(0)) d.dispose();
    this.preview?.dispose();
  }

  private get proposals(): ProposalPreview {
    this.preview ??= new ProposalPreview(this.s.log, this.s.proposalContent);
    return this.preview;
  }

  // --- The account, read lazily, once a session ------------------------------------------------------------

  /**
   * The account, through the account service the status bar shares: as already read this session, else one read
   * (again only after a failure, or when `fresh` is asked). Never throws.
   */
  private async accountFacts(account: Account, fresh = false): Promise<AccountFacts | undefined> {
    const cached = account.usage.cached;
    if (cached && !fresh) return factsOf(cached);
    this.accountReads++;
    try {
      return factsOf(await (fresh ? account.usage.refresh() : account.usage.get()));
    } catch (e) {
      this.s.log.warn(`[write] ${describeError("Couldn't read the account's defaults", e)}`);
      return undefined;
    }
  }

  // --- Language and tone -------------------------------------------------------------------------------------

  private savedStyle(): Partial<Style> {
    const saved = this.s.state.get<{ language?: unknown; tone?: unknown }>(STATE.writeStyle);
    return { language: findLanguage(saved?.language), tone: isTone(saved?.tone) ? saved.tone : undefined };
  }

  /** The last choice, else the account's default language (read only when no choice was made), else English. */
  private async style(account: Account): Promise<Style> {
    const saved = this.savedStyle();
    const language = saved.language ?? (await this.accountFacts(account))?.language ?? findLanguage(DEFAULT_LANGUAGE)!;
    return { language, tone: saved.tone ?? DEFAULT_TONE };
  }

  /** Set Writing Language and Tone…: two picks, the current choice first; remembered for every window. */
  async chooseStyle(): Promise<Style | undefined> {
    // The account's default language, when no choice was made yet: the account in use's (none: English).
    const inUse = accountInUse(this.s);
    const current = inUse ? await this.style(inUse) : { language: this.savedStyle().language ?? findLanguage(DEFAULT_LANGUAGE)!, tone: this.savedStyle().tone ?? DEFAULT_TONE };
    type LangItem = vscode.QuickPickItem & { language: Language };
    const langs: LangItem[] = LANGUAGES.map((l) => ({ label: l.name, description: l.code === current.language.code ? vscode.l10n.t('current') : l.code, language: l }));
    langs.sort((a, b) => (a.language === current.language ? -1 : b.language === current.language ? 1 : 0));
    const lang = await this.s.prompter.pick(langs, { title: vscode.l10n.t('Writing Language (1/2)'), placeHolder: vscode.l10n.t('The language the service writes in'), matchOnDescription: true });
    if (!lang) return undefined;
    type ToneItem = vscode.QuickPickItem & { tone: Tone };
    const tones: ToneItem[] = TONES.map((t) => ({ label: t, description: t === current.tone ? vscode.l10n.t('current') : undefined, tone: t }));
    tones.sort((a, b) => (a.tone === current.tone ? -1 : b.tone === current.tone ? 1 : 0));
    const tone = await this.s.prompter.pick(tones, { title: vscode.l10n.t('Writing Tone (2/2)'), placeHolder: vscode.l10n.t('The tone of the text') });
    if (!tone) return undefined;
    const style = { language: lang.language, tone: tone.tone };
    await this.s.state.update(STATE.writeStyle, { language: style.language.code, tone: style.tone });
    return style;
  }

  // --- The text a command works on ----------------------------------------------------------------------------

  /** The editor (the one a menu or Code Action names, else the active one) and its selection, or the whole text. */
  private target(arg: unknown, title: string): Target | undefined {
    const uri = arg instanceof vscode.Uri ? arg : undefined;
    const editor =
      uri === undefined
        ? vscode.window.activeTextEditor
        : vscode.window.activeTextEditor?.document.uri.toString() === uri.toString()
          ? vscode.window.activeTextEditor
          : vscode.window.visibleTextEditors.find((e) => e.document.uri.toString() === uri.toString());
    if (!editor || editor.document.uri.scheme === PROPOSAL_SCHEME) {
      throw new Error(vscode.l10n.t('{0}: there is no editor to work on. Open a file and select some text first.', title));
    }
    const doc = editor.document;
    // A file VS Code cannot change (Git's versions, a read-only file system): a proposal could never be applied.
    if (vscode.workspace.fs.isWritableFileSystem(doc.uri.scheme) === false) {
      void vscode.window.showWarningMessage(
        vscode.l10n.t('{0}: "{1}" is read-only here, so a proposal could not be applied. Copy the text into a file you can edit. Nothing was sent.', title, baseName(doc.uri.path) || doc.uri.toString(true)),
      );
      return undefined;
    }
    // Several cursors: the primary selection only, as refactorings and inline chats do; never the whole file
    // (it holds the other selections, which the user did not give to the service).
    const sel = editor.selection;
    const others = editor.selections.length - 1;
    if (others > 0 && sel.isEmpty) {
      void vscode.window.showWarningMessage(
        vscode.l10n.t(
          '{0}: there are {1} cursors and the first one selects nothing. Select the text to work on (the first selection is the one used), then run it again. Nothing was sent.',
          title,
          others + 1,
        ),
      );
      return undefined;
    }
    const wholeDocument = sel.isEmpty;
    const range = wholeDocument ? new vscode.Range(doc.positionAt(0), doc.positionAt(doc.getText().length)) : new vscode.Range(sel.start, sel.end);
    const text = doc.getText(range);
    if (!text.trim()) {
      void vscode.window.showWarningMessage(
        wholeDocument
          ? vscode.l10n.t('{0}: there is no text, the file is empty. Nothing was sent.', title)
          : vscode.l10n.t('{0}: there is no text, the selection is blank. Nothing was sent.', title),
      );
      return undefined;
    }
    return { editor, range, text, wholeDocument, others };
  }

  private nameFor(label: string, t: Target): string {
    const doc = t.editor.document;
    const base = doc.isUntitled ? doc.uri.path : baseName(doc.uri.path);
    return documentName(label, base, t.wholeDocument ? undefined : t.range.start.line + 1);
  }

  // --- The one-step actions --------------------------------------------------------------------------------

  async runAction(id: WriteActionId, arg: unknown): Promise<WriteResult | undefined> {
    const action = WRITE_ACTIONS[id];
    const failed = action.failed;
    const t = this.target(arg, action.title);
    if (!t) return undefined;
    const account = await chooseAccount(this.s, vscode.l10n.t('{0}: Account', action.title));
    if (!account) return undefined;
    const readsBefore = this.accountReads;
    const style = action.styled ? await this.style(account) : undefined;
    const format = formatOf(t.editor.document.languageId);
    const prompt = composePrompt({
      task: action.task,
      language: style?.language,
      tone: style?.tone,
      text: t.text,
      format,
      keepStructure: action.placement === 'replace',
    });
    return this.send({
      failed,
      title: action.title,
      confirmLabel: action.button,
      name: this.nameFor(action.label, t),
      templateId: action.templateId,
      creativity: config.writeCreativity(),
      prompt,
      style,
      placement: action.placement,
      ...t,
      readsBefore,
      account,
    });
  }

  // --- Generate from Selection… --------------------------------------------------------------------------------

  async generate(arg: unknown): Promise<WriteResult | undefined> {
    const failed = vscode.l10n.t("Couldn't generate from the text");
    const t = this.target(arg, vscode.l10n.t('Generate from Selection'));
    if (!t) return undefined;
    const account = await chooseAccount(this.s, vscode.l10n.t('Generate from Selection: Account'));
    if (!account) return undefined;
    const readsBefore = this.accountReads;

    // 1. The template: the 52 and the custom ones the Documents view has seen; the last used first, then by name.
    type TemplateItem = vscode.QuickPickItem & { id: number; name: string };
    const recent = this.s.state.get<unknown[]>(STATE.writeRecentTemplates, []).filter((v): v is number => typeof v === 'number');
    // Named as the view names them: the server's word once a document showed it; custom ones of this account only.
    const all = new Map<number, { name: string; custom: boolean }>(TEMPLATES.map((x) => [x.id, { name: x.name, custom: false }]));
    for (const g of this.treeOf(account).templateGroups()) all.set(g.templateId, { name: g.name, custom: g.custom });
    const items: TemplateItem[] = [...all].map(([id, x]) => ({
      label: x.name,
      description: recent.includes(id) ? vscode.l10n.t('recently used') : x.custom ? vscode.l10n.t('custom template') : undefined,
      id,
      name: x.name,
    }));
    const rank = (id: number) => (recent.includes(id) ? recent.indexOf(id) : Number.MAX_SAFE_INTEGER);
    items.sort((a, b) => rank(a.id) - rank(b.id) || compareNames(a.name, b.name) || a.id - b.id);
    const template = await this.s.prompter.pick(items, {
      title: vscode.l10n.t('Generate from Selection (1/3): Template'),
      placeHolder: vscode.l10n.t('What should the service write from the text? Type to filter'),
      matchOnDescription: true,
    });
    if (!template) return undefined;

    // 2. Creativity: the account's default (read once a session, now that it is needed), else the setting.
    const facts = await this.accountFacts(account);
    const preset = facts?.creativity ?? config.writeCreativity();
    type LevelItem = vscode.QuickPickItem & { value: Creativity };
    const levels: LevelItem[] = CREATIVITY_LEVELS.map((c) => ({
      label: creativityName(c.value),
      description: `${c.value}${c.value === preset ? (facts?.creativity !== undefined ? vscode.l10n.t(' · your account default') : vscode.l10n.t(' · default')) : ''}`,
      value: c.value,
    }));
    levels.sort((a, b) => (a.value === preset ? -1 : b.value === preset ? 1 : a.value - b.value));
    const level = await this.s.prompter.pick(levels, { title: vscode.l10n.t('Generate from Selection (2/3): Creativity'), placeHolder: vscode.l10n.t('How inventive the text may be') });
    if (!level) return undefined;

    // 3. An optional extra instruction; the prompt's length is checked as it is typed.
    const style = await this.style(account);
    const format = formatOf(t.editor.document.languageId);
    const task = vscode.l10n.t('Write a text of the kind "{0}", based on the text below.', template.name);
    const compose = (extra: string) => composePrompt({ task, extra, language: style.language, tone: style.tone, text: t.text, format, keepStructure: true });
    const extra = await this.s.prompter.input({
      title: vscode.l10n.t('Generate from Selection (3/3): Extra Instruction'),
      prompt: vscode.l10n.t(
        'Optional, e.g. "for beginners, under 300 words". Written in {0}, {1} tone (Set Writing Language and Tone… changes it). Enter to go on.',
        style.language.name,
        style.tone.toLowerCase(),
      ),
      validateInput: (v) => {
        const n = promptLength(compose(v));
        return checkPrompt(t.text, compose(v))?.kind === 'tooLong'
          ? vscode.l10n.t('The prompt would have {0} characters; the service accepts at most {1}.', formatCount(n), formatCount(2048))
          : undefined;
      },
    });
    if (extra === undefined) return undefined;
    await this.s.state.update(STATE.writeRecentTemplates, [template.id, ...recent.filter((id) => id !== template.id)].slice(0, 10));

    return this.send({
      failed,
      title: vscode.l10n.t('Generate from Selection'),
      confirmLabel: vscode.l10n.t('Generate'),
      name: this.nameFor(template.name, t),
      templateId: template.id,
      creativity: level.value,
      prompt: compose(extra),
      style,
      placement: 'replace',
      ...t,
      readsBefore,
      account,
    });
  }

  // --- @content /write ------------------------------------------------------------------------------------

  /**
   * Writes what the user asked for in the chat into the active editor: with a selection, the request works on the
   * selected text and the answer takes its place; without one, the answer goes in at the cursor. The same
   * confirmation, created document and proposal diff as Rewrite Selection. Throws when there is no editor to write in.
   */
  async writeFromRequest(request: string, account: Account): Promise<WriteResult | undefined> {
    const title = vscode.l10n.t('@content /write');
    const editor = vscode.window.activeTextEditor;
    if (!editor || editor.document.uri.scheme === PROPOSAL_SCHEME) {
      throw new Error(vscode.l10n.t('{0}: there is no editor to write in. Open a file, put the cursor where the text should go (or select text to work on), then ask again.', title));
    }
    const doc = editor.document;
    if (vscode.workspace.fs.isWritableFileSystem(doc.uri.scheme) === false) {
      throw new Error(vscode.l10n.t('{0}: "{1}" is read-only here, so a proposal could not be applied. Nothing was sent.', title, baseName(doc.uri.path) || doc.uri.toString(true)));
    }
    const sel = editor.selection;
    const range = new vscode.Range(sel.start, sel.end);
    const text = doc.getText(range);
    const style = await this.style(account);
    const format = formatOf(doc.languageId);
    const prompt = text.trim()
      ? composePrompt({ task: request, language: style.language, tone: style.tone, text, format, keepStructure: true })
      : composeRequest({ request, language: style.language, tone: style.tone, format });
    const base = doc.isUntitled ? doc.uri.path : baseName(doc.uri.path);
    return this.send({
      failed: vscode.l10n.t("Couldn't write the text"),
      title,
      confirmLabel: vscode.l10n.t('Write'),
      name: documentName(vscode.l10n.t('Write'), base, range.start.line + 1),
      templateId: WRITE_TEMPLATE,
      creativity: config.writeCreativity(),
      prompt,
      style,
      placement: 'replace',
      sent: text.trim() ? `${request}\n${text}` : request,
      editor,
      range,
      text,
      wholeDocument: false,
      others: editor.selections.length - 1,
      readsBefore: this.accountReads,
      account,
    });
  }

  // --- Sending, waiting, the proposal ------------------------------------------------------------------------

  private async send(job: Job): Promise<WriteResult | undefined> {
    const problem = checkPrompt(job.sent ?? job.text, job.prompt);
    if (problem?.kind === 'empty') {
      void vscode.window.showWarningMessage(vscode.l10n.t('{0}: there is no text. Nothing was sent.', job.title));
      return undefined;
    }
    if (problem?.kind === 'tooLong') {
      void vscode.window.showErrorMessage(
        vscode.l10n.t(
          '{0}: the prompt would have {1} characters and the service accepts at most {2} (the text itself has {3}). Select less text. Nothing was sent.',
          job.failed,
          formatCount(problem.length),
          formatCount(problem.limit),
          formatCount(problem.textLength),
        ),
      );
      return undefined;
    }

    const template = templateName(job.templateId, this.treeOf(job.account).templateGroup(job.templateId)?.name);
    const level = CREATIVITY_LEVELS.some((c) => c.value === job.creativity) ? creativityName(job.creativity) : String(job.creativity);
    if (config.writeConfirm()) {
      // Short, and no warning: sending is what the user asked for. It names what it costs and what creativity means.
      const creativity = vscode.l10n.t('creativity {0} (how freely it writes)', level);
      const dontAsk = vscode.l10n.t("{0} and Don't Ask Again", job.confirmLabel);
      const choice = await this.s.prompter.ask(
        vscode.l10n.t('{0}: send {1} characters to the service?', job.title, formatCount([...(job.sent ?? job.text)].length)),
        [
          // With several accounts, the one it is created in (the chat's /write takes the account in use, unasked).
          this.s.registry.several
            ? vscode.l10n.t(
                'It creates the document "{0}" ({1}) in the account {2}; each run counts toward that plan\'s monthly words and documents.',
                job.name,
                template,
                job.account.displayName,
              )
            : vscode.l10n.t(
                'It creates the document "{0}" ({1}) in your account; each run counts toward your plan\'s monthly words and documents.',
                job.name,
                template,
              ),
          job.style ? vscode.l10n.t('{0}, {1} tone, {2}.', job.style.language.name, job.style.tone.toLowerCase(), creativity) : `${capitalize(creativity)}.`,
          job.others > 0
            ? vscode.l10n.t('Only the first selection (line {0}) is used; the other selections ({1}) are left as they are.', job.range.start.line + 1, job.others)
            : undefined,
          vscode.l10n.t('You review the text before anything changes.'),
        ]
          .filter((x): x is string => x !== undefined)
          .join(' '),
        [job.confirmLabel, dontAsk],
      );
      if (choice !== job.confirmLabel && choice !== dontAsk) return undefined;
      if (choice === dontAsk) {
        await config.stopWriteConfirm().then(
          () => vscode.window.setStatusBarMessage(vscode.l10n.t('$(check) The writing actions no longer ask first (setting contentDocs.write.confirm)'), 5000),
          (e: unknown) => this.s.log.warn(`[write] ${describeError("Couldn't turn off contentDocs.write.confirm", e)}`),
        );
      }
    }

    const doc = job.editor.document;
    // A Retry comes later: the text must still be where it was selected, or the answer would have no place.
    if (doc.isClosed || doc.getText(job.range) !== job.text) {
      void vscode.window.showWarningMessage(
        vscode.l10n.t('{0}: the text changed or moved since it was selected, so the answer would have no place. Nothing was sent: select the text again.', job.title),
      );
      return undefined;
    }
    // The text as it was sent: if the user types meanwhile, the diff still shows the proposal where it belongs,
    // and Accept applies it where the sent text is then (or nowhere).
    const sentText = doc.getText();
    const sentVersion = doc.version;
    const start = doc.offsetAt(job.range.start);
    const end = doc.offsetAt(job.range.end);
    const place = new TrackedRange(doc.uri, sentText, start, end);
    let created: ContentDocument;
    try {
      created = await this.store(job);
    } catch (e) {
      place.dispose();
      await this.failed(job, e);
      return undefined;
    }
    this.s.log.info(`[write] created document ${created.id} (${template}) for ${job.title}`);
    // The account went while the service wrote (signed out, removed, or its key or server changed): the document is in
    // that account, and its answer lands nowhere — no proposal, the user's text as it was.
    if (job.account.gone) {
      place.dispose();
      void vscode.window.showWarningMessage(
        vscode.l10n.t(
          '{0}: the account {1} was signed out, removed, or its API key or server changed while the service was writing. The document "{2}" was created in that account; nothing was proposed, and your text is unchanged.',
          job.title,
          job.account.displayName,
          noLinks(created.name),
        ),
      );
      return undefined;
    }
    this.s.fs.remember(created);
    // The account the document was created in (its label): the proposal and Open Beside name it.
    const account = job.account.label;

    const answer = decodeAnswer(created.result ?? '', formatOf(doc.languageId), job.text);
    if (!answer) {
      place.dispose();
      void this.offerOpen(created, account, vscode.l10n.t('"{0}" was created, but the service wrote no text: nothing to propose. Your text is unchanged.', created.name));
      return { proposal: undefined, document: created };
    }
    const replacement = replacementFor(job.text, answer, job.placement).replace(/\r?\n/g, doc.eol === vscode.EndOfLine.CRLF ? '\r\n' : '\n');
    const proposal = await this.proposals.show({
      target: doc.uri,
      range: job.range,
      place,
      original: job.text,
      version: sentVersion,
      replacement,
      proposedText: sentText.slice(0, start) + replacement + sentText.slice(end),
      documentId: created.id,
      documentName: created.name,
      documentText: created.result ?? '',
      account,
      languageId: doc.languageId,
    });
    this.announce(proposal);
    return { proposal, document: created };
  }

  /**
   * "… is ready": a notification naming Accept, Discard (with their keys) and Open Beside as links. VS Code cannot
   * close a message from code (microsoft/vscode#48960), but it closes a progress notification when its task ends: this
   * one ends once the proposal is accepted or discarded, wherever that was done (the diff's title, a key, the palette,
   * the links), so it never offers buttons for a proposal that is gone.
   */
  private announce(proposal: Proposal): void {
    const arg = encodeURIComponent(JSON.stringify([proposal.uri.toString()]));
    const link = (label: string, command: string) => `[${label}](command:${command}?${arg})`;
    const keys = proposalKeys();
    void vscode.window.withProgress(
      { location: vscode.ProgressLocation.Notification, title: vscode.l10n.t('"{0}" is ready', noLinks(proposal.documentName)) },
      async (progress) => {
        progress.report({
          // A full bar: nothing is running any more, the proposal waits for the user.
          increment: 100,
          message: vscode.l10n.t(
            '{0} ({1}) · {2} ({3}) · {4}',
            link(vscode.l10n.t('Accept'), CMD.proposalAccept),
            keys.accept,
            link(vscode.l10n.t('Discard'), CMD.proposalDiscard),
            keys.discard,
            link(vscode.l10n.t('Open Beside'), CMD.proposalOpenDocument),
          ),
        });
        await this.proposals.whenSettled(proposal);
      },
    );
  }

  /** The store, under a cancellable notification that names the action and counts the seconds. Never retried. */
  private store(job: Job): Thenable<ContentDocument> {
    return vscode.window.withProgress(
      { location: vscode.ProgressLocation.Notification, title: vscode.l10n.t('{0}: "{1}"', job.title, job.name), cancellable: true },
      async (progress, token) => {
        const t0 = Date.now();
        const tick = () =>
          progress.report({
            message: vscode.l10n.t(
              '{0} s · the service is writing. This creates a document in your account and uses your plan\'s quota.',
              Math.floor((Date.now() - t0) / 1000),
            ),
          });
        tick();
        const timer = setInterval(tick, 1000);
        const controller = new AbortController();
        const sub = token.onCancellationRequested(() => controller.abort());
        // This run read the account already (its defaults): the usage counts the new document in without a second read.
        if (this.accountReads > job.readsBefore) job.account.usage.countNextCreationLocally();
        try {
          return await job.account.documents.create({ name: job.name, prompt: job.prompt, creativity: job.creativity, templateId: job.templateId }, controller.signal);
        } finally {
          job.account.usage.countNextCreationLocally(false);
          clearInterval(timer);
          sub.dispose();
        }
      },
    );
  }

  /** Says what went wrong in plain words; nothing in the editor changed. */
  private async failed(job: Job, e: unknown): Promise<void> {
    const unchanged = vscode.l10n.t('Your text is unchanged.');
    if (isCancellation(e)) {
      void vscode.window.showInformationMessage(
        vscode.l10n.t(
          'Stopped waiting for "{0}". The service may still create the document: it will show in the Documents view after a refresh. {1}',
          job.name,
          unchanged,
        ),
      );
      return;
    }
    const action = job.failed;
    const kind = errorKind(e);
    const retry = () => this.resend(job);
    if (isApiError(e) && kind === 'validation' && e.status === 422 && e.fields && 'name' in e.fields) {
      // A 422 on `name` is the plan's quota when the account's counters say a limit is reached; otherwise the name
      // itself was refused (an administrator's banned keyword). Texts are translated: never read them.
      const facts = await this.accountFacts(job.account, this.accountReads === job.readsBefore);
      // Every message the server gave, those on the name first (a server with other rules may refuse other fields too).
      const said = [...e.fields.name, ...Object.entries(e.fields).flatMap(([field, list]) => (field === 'name' ? [] : list))].join(' ');
      const quoted = said.trim() ? ` ${vscode.l10n.t('The server said: "{0}"', said)}` : '';
      const tail = `${quoted} ${vscode.l10n.t('No document was created.')} ${unchanged}`;
      const words = reached(facts?.words);
      const documents = reached(facts?.documents);
      if (!words && !documents && (facts?.words || facts?.documents)) {
        void showError(this.s.log, `${vscode.l10n.t("{0}: the server refused the document's name \"{1}\".", action, job.name)}${tail}`, e);
        return;
      }
      const usage = [
        facts?.words ? vscode.l10n.t('{0} of {1} words', formatCount(facts.words.used), facts.words.limit === -1 ? vscode.l10n.t('unlimited') : formatCount(facts.words.limit)) : undefined,
        facts?.documents
          ? vscode.l10n.t('{0} of {1} documents', formatCount(facts.documents.used), facts.documents.limit === -1 ? vscode.l10n.t('unlimited') : formatCount(facts.documents.limit))
          : undefined,
      ].filter((u): u is string => u !== undefined);
      const head =
        words && documents
          ? vscode.l10n.t("{0}: your plan's monthly words and documents limit is reached.", action)
          : words
            ? vscode.l10n.t("{0}: your plan's monthly words limit is reached.", action)
            : documents
              ? vscode.l10n.t("{0}: your plan's monthly documents limit is reached.", action)
              : vscode.l10n.t('{0}: the server refused the document (a monthly limit of your plan, or its name).', action);
      // Whole sentences, one after the other; the figures a list of the display language.
      const used = usage.length ? ` ${vscode.l10n.t('Used this month: {0}.', formatList(usage, vscode.env.language))}` : '';
      void showError(this.s.log, `${head}${used}${tail}`, e);
      return;
    }
    if (kind === 'server' && isApiError(e) && e.status === 500) {
      void showError(
        this.s.log,
        vscode.l10n.t('{0}: the text generator failed on the server (HTTP 500). No document was created. {1} Try again in a moment.', action, unchanged),
        e,
        retry,
      );
      return;
    }
    const mayExist = kind === 'timeout' || kind === 'network' || kind === 'badResponse' || kind === 'server';
    const message =
      describeError(action, e) +
      (mayExist ? ` ${vscode.l10n.t('The service may have created the document anyway: refresh the Documents view before trying again.')}` : '') +
      ` ${unchanged}`;
    // A store is retried only on the user's word, and only when nothing can have been created.
    void showError(this.s.log, message, e, kind === 'server' || kind === 'rateLimited' ? retry : undefined);
  }

  private async resend(job: Job): Promise<void> {
    await this.send({ ...job, readsBefore: this.accountReads });
  }

  /**
   * The Documents tree of an account: what it learned of that account's templates (custom ones, the server's names).
   * Another account's custom template id is another template, or none, on this account's server.
   */
  private treeOf(account: Account): DocumentsTreeProvider {
    return this.s.documentsView.treeOf(account) as DocumentsTreeProvider;
  }

  // --- Accept, Discard, Open Beside --------------------------------------------------------------------------

  private proposalOf(arg: unknown): Proposal | undefined {
    if (arg && typeof arg === 'object' && 'uri' in arg && 'replacement' in arg) return this.preview?.get((arg as Proposal).uri);
    return this.preview?.find(arg);
  }

  async accept(arg: unknown): Promise<boolean> {
    const p = this.proposalOf(arg);
    if (!p) {
      void vscode.window.showWarningMessage(vscode.l10n.t('There is no proposal to accept: it was accepted or discarded already, or the window was reloaded since (proposals live in the window that made them). Your text is unchanged.'));
      return false;
    }
    const outcome = await this.proposals.accept(p);
    if (outcome === 'applied') return true;
    const file = baseName(p.target.path);
    const beside = vscode.l10n.t('Open Beside');
    const message =
      outcome === 'changed'
        ? vscode.l10n.t(
            'Not applied: "{0}" changed under the selection since the text was sent, so the proposal could land in the wrong place. Nothing was changed; the generated text stays in the document "{1}".',
            file,
            p.documentName,
          )
        : vscode.l10n.t('Not applied: VS Code did not accept the edit to "{0}". Nothing was changed; the generated text stays in the document "{1}".', file, p.documentName);
    void vscode.window.showWarningMessage(message, beside).then((c) => (c === beside ? this.openBeside(p) : undefined));
    return false;
  }

  async discard(arg: unknown): Promise<boolean> {
    const p = this.proposalOf(arg);
    if (!p) return false;
    await this.proposals.discard(p);
    // Not awaited: the question waits for the user, the diff is closed already.
    void this.afterDiscard(p);
    return true;
  }

  /**
   * The document the run created stays in the account after a Discard, and its words count toward the plan whether
   * it is kept or deleted (the service counts them when it writes). contentDocs.write.discardedDocument: ask (say so
   * and offer to delete it), keep, or delete.
   */
  private async afterDiscard(p: Proposal): Promise<void> {
    const choice = config.writeDiscardedDocument();
    if (choice === 'keep') return;
    if (choice === 'ask') {
      const remove = vscode.l10n.t('Delete Document');
      const keep = vscode.l10n.t('Keep');
      const answer = await vscode.window.showInformationMessage(
        vscode.l10n.t(
          'Discarded. The generated document "{0}" stays in your account; its words count toward your plan whether it is kept or deleted.',
          noLinks(p.documentName),
        ),
        remove,
        keep,
      );
      if (answer !== remove) return;
    }
    try {
      const account = await this.accountNamed(p.account);
      if (!account) throw anotherAccount(p.documentName);
      // Only the document as the run wrote it: one renamed or given other text since (Open Beside and a save, the
      // web app, while the question waited) is the user's now, and so is one with unsaved edits in an editor.
      const now = await account.documents.fetch(p.documentId).catch((e: unknown) => {
        if (errorKind(e) === 'notFound') return undefined;
        throw e;
      });
      if (!now) return;
      const edited = vscode.workspace.textDocuments.some((d) => {
        const t = d.isDirty ? this.s.fs.documentOf(d.uri) : undefined;
        return t !== undefined && t.account === account && t.id === p.documentId;
      });
      if (edited || now.name !== p.documentName || serverTrim(now.result ?? '') !== serverTrim(p.documentText)) {
        void vscode.window.showInformationMessage(
          vscode.l10n.t('The generated document "{0}" was changed since it was generated: it was kept.', noLinks(p.documentName)),
        );
        return;
      }
      await account.documents.delete(p.documentId);
      this.s.log.info(`[write] deleted the discarded proposal's document ${p.documentId}`);
      vscode.window.setStatusBarMessage(vscode.l10n.t('$(trash) Deleted "{0}"', p.documentName), 4000);
    } catch (e) {
      void showError(this.s.log, describeError(vscode.l10n.t('Couldn\'t delete "{0}"', p.documentName), e), e);
    }
  }

  /** Opens the document the run created beside the current editor (its content-docs: URI). */
  async openBeside(arg: unknown): Promise<vscode.TextEditor | undefined> {
    const p = this.proposalOf(arg);
    // A proposal gone with a window reload still names its document in its URI.
    const id = p?.documentId ?? (typeof arg === 'number' ? arg : undefined) ?? proposalDocumentId(arg instanceof vscode.Uri ? arg : vscode.window.activeTextEditor?.document.uri);
    if (id === undefined) throw new Error(vscode.l10n.t('There is no generated document to open.'));
    // Made in another account than the one used now (the key or the server changed): the same id is another document.
    // A tab restored after a reload names the account in its URI (an earlier version's named none: not provable).
    const gone = !p ? proposalQuery(arg instanceof vscode.Uri ? arg : vscode.window.activeTextEditor?.document.uri) : undefined;
    const madeIn = p ? p.account : gone ? (gone.get('account') ?? '') : undefined;
    if (madeIn !== undefined && !(await this.accountNamed(madeIn))) throw anotherAccount(p?.documentName ?? gone?.get('name') ?? `#${id}`);
    return this.openDocument(id, madeIn);
  }

  /** The account a label names now (the same server and key as when the document was made); undefined: none signed in. */
  private async accountNamed(label: string): Promise<Account | undefined> {
    await this.s.registry.settled();
    return this.s.registry.byLabel(label);
  }

  /** Opens the document beside, read in the account `label` names (an earlier version's proposal named none: the only account). */
  private async openDocument(id: number, label?: string): Promise<vscode.TextEditor> {
    const all = this.s.registry.all();
    const account = label !== undefined ? await this.accountNamed(label) : all.length === 1 ? all[0] : undefined;
    if (!account) throw anotherAccount(`#${id}`);
    // A tab of the document already open (its address of either form) is the one shown: one document, one text.
    const open = openTabOf((uri) => this.s.fs.documentOf(uri), account, id);
    if (open) return vscode.window.showTextDocument(open, { viewColumn: vscode.ViewColumn.Beside, preview: true });
    const doc = account.documents.get(id) ?? (await account.documents.fetch(id));
    this.s.fs.remember(doc);
    return vscode.window.showTextDocument(documentUri(doc, account), { viewColumn: vscode.ViewColumn.Beside, preview: true });
  }

  private async offerOpen(doc: ContentDocument, account: string, message: string): Promise<void> {
    const beside = vscode.l10n.t('Open Beside');
    if ((await vscode.window.showInformationMessage(message, beside)) !== beside) return;
    try {
      if (!(await this.accountNamed(account))) throw anotherAccount(doc.name);
      await this.openDocument(doc.id, account);
    } catch (e) {
      void showError(this.s.log, describeError(vscode.l10n.t("Couldn't open \"{0}\"", doc.name), e), e);
    }
  }
}
