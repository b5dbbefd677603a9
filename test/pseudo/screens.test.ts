/**
 * The screens a test can read, in the pseudo-locale (test/pseudo/runPseudo.ts): the Documents and Projects views
 * signed out (their titles and welcome texts, read from the workbench) and signed in (every row's label,
 * description, tooltip and screen-reader label: template groups, Favorites, documents, "Load more"), the status bar
 * item, the Delete question, the error of a server that fails (503: a delete's message, the Projects view's row), the server's refusal of a name (422), a key the
 * server refuses, and New Document's questions (titles, placeholders, what the boxes say of a wrong answer). Each text
 * read must carry the pseudo-locale's marker and, with its data taken out (document, template and project names,
 * the server's own sentences, addresses, what Intl writes for an unknown locale: "3 months ago", "Nov 28, 2026"),
 * hold no English word. Every text is printed; screenshots of the views and the status bar go to
 * test-screenshots/pseudo-locale, to look at what the longer texts cut.
 */
import * as assert from 'assert';
import * as vscode from 'vscode';
import { CMD } from '../../src/constants';
import type { TestServices } from '../kit/services';
import { BANNED_NAME_MESSAGE, startSandbox, type Sandbox } from '../sandbox/server';
import { click, read, screenshot } from '../integration/harness';
import { closeAll, configure, MessageCapture, readView, RecordingPrompter, services, until, useSandbox, type AnyNode, type ShownItem } from '../integration/reliabilityKit';
import { englishIn, markedOrData, PSEUDO_LOCALE } from './pseudoLocale';

const WRONG_KEY = 'wrong-key-123';

/** What Intl writes in the display language, which it does not know (so in English): data, not the extension's words. */
function intlData(language: string): string[] {
  const out = new Set<string>();
  const rtf = new Intl.RelativeTimeFormat(language, { numeric: 'auto' });
  for (const unit of ['year', 'quarter', 'month', 'week', 'day', 'hour', 'minute', 'second'] as const) {
    for (let v = -130; v <= 130; v++) out.add(rtf.format(v, unit));
  }
  for (const month of ['short', 'long'] as const) {
    const f = new Intl.DateTimeFormat(language, { month });
    for (let m = 0; m < 12; m++) out.add(f.format(new Date(2024, m, 15)));
  }
  const time = new Intl.DateTimeFormat(language, { timeStyle: 'short' });
  for (const h of [1, 13]) for (const part of time.formatToParts(new Date(2024, 0, 1, h))) if (part.type === 'dayPeriod') out.add(part.value);
  return [...out];
}

function treeItemTexts(shown: ShownItem): string[] {
  const { item } = shown;
  const label = typeof item.label === 'string' ? item.label : item.label?.label ?? '';
  const tooltip = typeof item.tooltip === 'string' ? item.tooltip : item.tooltip?.value ?? '';
  const description = typeof item.description === 'string' ? item.description : '';
  return [label, description, tooltip, item.accessibilityInformation?.label ?? ''].filter(Boolean);
}

/** The names and addresses the rows show that come from the server. */
function nodeData(node: AnyNode): string[] {
  const out: string[] = [];
  const strings = (o: unknown) => {
    if (o && typeof o === 'object') for (const v of Object.values(o as Record<string, unknown>)) if (typeof v === 'string' && v.trim()) out.push(v);
  };
  if (node.kind === 'template' && typeof node.name === 'string') out.push(node.name);
  if (node.kind === 'document') out.push(String((node.doc as { name?: string }).name ?? ''));
  if (node.kind === 'project') strings(node.project);
  return out;
}

describe(`pseudo-locale (${PSEUDO_LOCALE}): no English left on the screens a test can read`, function () {
  this.timeout(60_000);
  let sandbox: Sandbox;
  let s: TestServices;
  const prompter = new RecordingPrompter();
  const messages = new MessageCapture();
  let data: string[] = [];

  /** Checks that each text read carries the marker and has no English word once `extra` data and the run's data are out. */
  function noEnglish(screen: string, texts: ReadonlyArray<string | undefined>, extra: readonly string[] = []): void {
    const problems: string[] = [];
    for (const text of texts) {
      if (text === undefined || !text.trim()) continue;
      const english = englishIn(text, [...extra, ...data]);
      console.log(`[pseudo-locale] ${screen}: ${JSON.stringify(text)}${english.length ? `  <-- English: ${english.join(' ')}` : ''}`);
      if (english.length) problems.push(`${JSON.stringify(text)} (English: ${english.join(' ')})`);
      else if (!markedOrData(text, [...extra, ...data])) problems.push(`${JSON.stringify(text)} (no pseudo-locale marker)`);
    }
    assert.deepStrictEqual(problems, [], `${screen}: English left`);
  }

  before(async () => {
    sandbox = await startSandbox({ rateLimit: 0, storeDelayMs: 0 });
    s = await services();
    await closeAll();
    s.prompter.current = prompter;
    messages.install();
    data = [
      ...intlData(vscode.env.language),
      ...[...sandbox.documents.values()].map((d) => d.name),
      sandbox.docsUrl, sandbox.seoUrl, new URL(sandbox.docsUrl).host, new URL(sandbox.seoUrl).host,
      'Content Docs', // the product's name is not translated (docs/l10n-glossary.md)
    ];
  });

  after(async () => {
    messages.dispose();
    s.prompter.current = s.prompter.vscode;
    await closeAll();
    await sandbox?.close();
  });

  beforeEach(() => {
    prompter.reset();
    messages.clear();
    sandbox.clearFaults();
  });

  it('VS Code runs in the pseudo-locale', () => {
    console.log(`[pseudo-locale] vscode.env.language = ${vscode.env.language}`);
    assert.strictEqual(vscode.env.language, PSEUDO_LOCALE);
  });

  it('signed out: the views\' titles and welcome texts', async () => {
    await s.credentials.clearKey();
    await vscode.commands.executeCommand('workbench.view.extension.contentDocs');
    const welcome = await until('the welcome texts of both views', async () => {
      const both = [await read('.welcome-view-content >> nth=0'), await read('.welcome-view-content >> nth=1')];
      return both.every((w) => w.visible && w.text.trim()) ? both.map((w) => w.text) : undefined;
    }, 20_000);
    const headers = [(await read('.pane-header >> nth=0')).text, (await read('.pane-header >> nth=1')).text];
    const container = (await read('#workbench\\.parts\\.sidebar .composite.title')).text;
    await screenshot('pseudo-01-welcome');
    noEnglish('welcome', [...welcome, ...headers, container]);
  });

  it('a key the server refuses: the key box and what it says under it', async () => {
    await configure('documents.baseUrl', sandbox.docsUrl);
    await configure('projects.baseUrl', sandbox.seoUrl);
    prompter.inputs = [WRONG_KEY];
    await vscode.commands.executeCommand(CMD.signIn);
    assert.ok(prompter.checked.some((c) => c.problem), `the server refused the key: ${JSON.stringify(prompter.checked)}`);
    noEnglish('key box', [
      ...prompter.asked.flatMap((q) => [q.title, q.prompt]),
      ...prompter.checked.map((c) => c.problem),
      ...messages.shown.flatMap((m) => [m.message, m.detail, ...m.items]),
    ], [WRONG_KEY]);
  });

  it('signed in: the Documents view (groups, Favorites, documents, Load more)', async () => {
    await configure('documents.pageSize', 10);
    await useSandbox(s, sandbox);
    const root = await readView(s.documentsTree as never, 1);
    const templates = root.nodes.filter((n) => n.node.kind === 'template');
    assert.ok(templates.length > 3, `template groups are listed: ${root.labels.join(' | ')}`);
    const groupData = root.nodes.flatMap((n) => nodeData(n.node));
    const favorites = root.nodes.find((n) => n.node.kind === 'favorites');
    assert.ok(favorites, 'a Favorites group');
    const article = templates.find((n) => n.node.name === 'Article') ?? templates[0];
    const inFavorites = await readView(s.documentsTree as never, 1, favorites.node);
    const inArticle = await readView(s.documentsTree as never, 1, article.node);
    assert.ok(inArticle.loadMore, `"${String(article.node.name)}" has more documents than a page: Load more`);
    const all = [...root.nodes, ...inFavorites.nodes, ...inArticle.nodes];
    // The rows as the workbench shows them, at the side bar's default width: the first group (All Documents) and Article opened.
    await vscode.commands.executeCommand('workbench.view.extension.contentDocs');
    const articleRow = '.monaco-list-row[aria-level="1"]:has(.label-name:has-text("Article"))';
    await until('the "Article" row', async () => (await read(articleRow)).visible, 15_000);
    await click('.monaco-list-row[aria-level="1"] >> nth=0');
    await click(articleRow);
    await until('the documents under the groups', async () => (await read('.monaco-list-row[aria-level="2"]')).visible, 15_000);
    await screenshot('pseudo-02-documents');
    noEnglish('Documents view', all.flatMap(treeItemTexts), [...groupData, ...all.flatMap((n) => nodeData(n.node))]);
  });

  it('signed in: the Projects view', async () => {
    const view = await readView(s.projectsTree as never, 1);
    assert.ok(view.projects > 0, `projects are listed: ${view.labels.join(' | ')}`);
    noEnglish('Projects view', view.nodes.flatMap(treeItemTexts), view.nodes.flatMap((n) => nodeData(n.node)));
  });

  it('the Projects view when the server fails (503): its error row', async () => {
    sandbox.setFault('projects.list', { kind: 'status503', count: 10 });
    await vscode.commands.executeCommand(CMD.projectsRefresh);
    const view = await readView(s.projectsTree as never, 1);
    assert.ok(view.error, `an error row, not ${view.labels.slice(0, 3).join(' | ')}`);
    await screenshot('pseudo-04-projects-error');
    noEnglish('Projects error row', treeItemTexts(view.error));
    sandbox.clearFaults();
    await vscode.commands.executeCommand('contentDocs.retry', view.error.node);
    assert.ok((await readView(s.projectsTree as never, 1)).projects > 0, 'after Retry the view lists projects');
  });

  it('the status bar item: its text, tooltip and screen-reader label', async () => {
    const state = await until('the plan usage in the status bar', () => (s.usage.state.visible && s.usage.state.text ? s.usage.state : undefined), 15_000);
    await screenshot('pseudo-03-status-bar');
    noEnglish('status bar', [state.text, state.tooltip, state.accessibility.label], [sandbox.account.plan?.name ?? '', sandbox.account.seoPlan?.name ?? '']);
  });

  it('Delete Document…: the question, and the error of a server that fails (503)', async () => {
    const article = (await readView(s.documentsTree as never, 1)).nodes.find((n) => n.node.kind === 'template' && n.node.name === 'Article');
    assert.ok(article);
    const row = (await readView(s.documentsTree as never, 1, article.node)).nodes.find((n) => n.node.kind === 'document');
    assert.ok(row, 'a document under Article');
    const name = String((row.node.doc as { name: string }).name);
    prompter.confirms = [false];
    await vscode.commands.executeCommand(CMD.documentDelete, row.node);
    const question = prompter.asked.find((q) => q.kind === 'confirm');
    assert.ok(question, 'Delete asks first');
    noEnglish('Delete question', [question.title, question.message, ...(question.items ?? [])], [name]);

    sandbox.setFault('documents.delete', { kind: 'status503', count: 10 });
    prompter.reset();
    prompter.confirms = [true];
    const t = Date.now();
    await vscode.commands.executeCommand(CMD.documentDelete, row.node);
    const error = await messages.waitFor('the error of the failed delete', (m) => m.level === 'error' && m.at >= t, 20_000);
    assert.ok(sandbox.documents.has((row.node.doc as { id: number }).id), 'nothing was deleted');
    noEnglish('503 error', [error.message, error.detail, ...error.items], [name]);
  });

  it('New Document…: its questions, what the boxes say of a wrong answer, and the server\'s refusal of a name (422)', async () => {
    const step = (q: { step?: string }) => Number(q.step?.split('/')[0]);
    // An empty name: the name box says why it cannot be taken (then Escape).
    prompter.answer = (q) => (step(q) === 1 ? '   ' : undefined);
    await vscode.commands.executeCommand(CMD.documentNew);
    const emptyName = [...prompter.validationProblems];
    // A prompt longer than the limit: the prompt box says so.
    prompter.reset();
    prompter.answer = (q, items) => (step(q) === 1 ? 'Pseudo plan' : step(q) === 2 ? items?.find((i) => i.label === 'Freestyle')?.label : step(q) === 3 ? 'x'.repeat(5000) : undefined);
    await vscode.commands.executeCommand(CMD.documentNew);
    const tooLong = [...prompter.validationProblems];
    // A name the server refuses (422), asked again with its message, then a good one: the document is written.
    prompter.reset();
    prompter.answer = (q, items, nth) => {
      if (step(q) === 1) return nth === 1 ? 'Launch bannedword plan' : 'Pseudo launch plan';
      if (step(q) === 2) return items?.find((i) => i.label === 'Freestyle')?.label;
      if (step(q) === 3) return 'A launch plan';
      if (step(q) === 4) return q.active;
      return undefined;
    };
    await vscode.commands.executeCommand(CMD.documentNew);
    const asked = prompter.asked;
    assert.ok(asked.filter((q) => step(q) === 1).length >= 2, `the name is asked again after the 422: ${asked.map((q) => q.title).join(' | ')}`);
    assert.ok([...sandbox.documents.values()].some((d) => d.name === 'Pseudo launch plan'), 'the document was written');
    const templateNames = asked.filter((q) => q.kind === 'pick' && step(q) === 2).flatMap((q) => q.items ?? []);
    noEnglish('New Document', [
      ...asked.flatMap((q) => [q.title, q.prompt, ...(q.kind === 'pick' && step(q) === 4 ? q.items ?? [] : []), ...(q.descriptions ?? []), ...(q.buttons ?? []).map((b) => b.replace(/^[\w-]+: /, ''))]),
      ...emptyName,
      ...tooLong,
      ...messages.shown.flatMap((m) => [m.message, m.detail, ...m.items]),
    ], [`name: ${BANNED_NAME_MESSAGE}`, BANNED_NAME_MESSAGE, 'Launch bannedword plan', 'Pseudo launch plan', 'Pseudo plan', 'A launch plan', ...templateNames]);
    assert.ok(emptyName.length > 0, 'the name box refused an empty name');
    assert.ok(tooLong.length > 0, 'the prompt box refused the long prompt');
    await closeAll();
  });
});
