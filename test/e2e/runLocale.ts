/**
 * End-to-end, in German: code-server started with `--locale de` (and the languagepacks.json entry that makes it take
 * it, see WorkbenchOptions.locale), driven by playwright-core from outside. What a German writer reads of Content
 * Docs is German: the welcome view, the key box and its error, the Documents view, the status bar's plan usage (its
 * figures written the German way), a question (the delete confirmation) and the command palette's titles
 * (package.nls.de.json). Every step takes a screenshot (test-screenshots/e2e-locale).
 *
 *   node out/test/e2e/runLocale.js       (build first: node esbuild.mjs && npx tsc -p tsconfig.test.json)
 *   npm run test:e2e:locale              (builds, then runs it)
 *
 * CONTENT_DOCS_E2E_LOCALE=fr starts VS Code in another language (the German checks then fail: a look at the
 * screenshots is the check); empty: no locale.
 */
import * as path from 'path';
import { createRunDir, harnessEnvOrReport, repoRoot } from '../harness/lib';
import { assert, installGuards, re, Steps, startWorkbench, waitFor, type Workbench } from './support';

const LIMIT_MS = 240_000;

async function main(): Promise<number> {
  const henv = harnessEnvOrReport();
  if (!henv) return 2;
  const steps = new Steps({ tier: 'e2e-locale', screenshotDir: process.env.CONTENT_DOCS_E2E_SHOTS || path.join(repoRoot(), 'test-screenshots', 'e2e-locale') });
  const runDir = createRunDir('e2e-locale');
  console.log(`[e2e-locale] run folder ${runDir}`);
  let wb: Workbench | undefined;
  installGuards(steps, LIMIT_MS, async () => wb?.stop());
  try {
    wb = await startWorkbench({ harnessEnv: henv, runDir, extension: 'link', locale: process.env.CONTENT_DOCS_E2E_LOCALE ?? 'de', settings: { 'contentDocs.documents.pageSize': 10 }, viewport: { width: 1280, height: 800 } });
    steps.setPage(wb.page);
    await story(steps, wb);
  } catch (e) {
    steps.fail('starting the sandbox, code-server and chromium', e);
  } finally {
    await wb?.stop({ cleanup: steps.ok }).catch((e) => steps.fail('stopping', e));
    if (!steps.ok) console.log(`[e2e-locale] run folder kept: ${runDir}`);
  }
  steps.report();
  return steps.ok ? 0 : 1;
}

async function story(steps: Steps, wb: Workbench): Promise<void> {
  const { page, ui, sandbox } = wb;
  const pane = (title: string) => page.locator('.pane', { has: page.locator(`.pane-header[aria-label^="${title}"]`) });
  const tree = page.locator('[role="tree"][aria-label="Dokumente"]');
  const row = (label: string | RegExp) =>
    tree.locator('.monaco-list-rows > .monaco-list-row[role="treeitem"]').filter({ has: page.locator('.label-name', { hasText: typeof label === 'string' ? new RegExp(`^${re(label)}$`) : label }) });

  await steps.step('welcome', 'the welcome view says "API-Schlüssel festlegen" in the views "Dokumente" and "Projekte"', async (shot) => {
    await ui.activityIcon.waitFor({ timeout: 60_000 });
    const active = await page.locator('#workbench\\.parts\\.sidebar[data-active-composite="workbench.view.extension.contentDocs"]').count();
    if (!active) await ui.activityIcon.click();
    await pane('Dokumente').locator('.pane-header').waitFor();
    await ui.setSidebarWidth(440);
    await pane('Dokumente').locator('.welcome-view-content a.monaco-button', { hasText: 'API-Schlüssel festlegen' }).waitFor();
    await pane('Projekte').locator('.welcome-view-content a.monaco-button', { hasText: 'API-Schlüssel festlegen' }).waitFor();
    await shot('view');
  });

  await steps.step('wrong-key', 'a key the server refuses: the key box says why, in German', async (shot) => {
    await pane('Dokumente').locator('.welcome-view-content a.monaco-button', { hasText: 'API-Schlüssel festlegen' }).click();
    await ui.quickInputBox.waitFor();
    await waitFor('the key box ("API-Schlüssel" placeholder, German title)', async () =>
      (await ui.quickInputBox.getAttribute('placeholder')) === 'API-Schlüssel' && (await ui.quickInputTitle.innerText()).includes('API-Schlüssel festlegen'));
    await page.keyboard.type('wrong-key-123', { delay: 5 });
    await page.keyboard.press('Enter');
    const message = ui.quickInput.locator('.quick-input-message');
    await waitFor('the refusal under the box', async () => (await message.innerText()).includes('Der Server hat diesen API-Schlüssel nicht akzeptiert'), 15_000);
    await shot('refused');
    await page.keyboard.press('Control+A');
    await page.keyboard.type(sandbox.key, { delay: 5 });
    await page.keyboard.press('Enter');
  });

  await steps.step('documents-view', 'signed in: the Documents view lists "Favoriten" and the templates, the status bar shows the plan usage in German', async (shot) => {
    await row('Favoriten').waitFor({ timeout: 20_000 });
    await row('Article').waitFor();
    await row('Article').click();
    await waitFor('the documents under Article', async () => (await tree.locator('.monaco-list-row[aria-level="2"]').count()) > 3, 20_000);
    // A document's row: its word count and when it changed, in German ("24 Wörter · erstellt vor 7 Monaten").
    const described = tree.locator('.monaco-list-row[aria-level="2"] .label-description', { hasText: /\d+ Wörter · (erstellt|aktualisiert) vor / });
    await described.first().waitFor({ timeout: 10_000 });
    const usage = page.locator('#workbench\\.parts\\.statusbar .statusbar-item', { hasText: /Wörter|Dokumente/ });
    await usage.first().waitFor({ timeout: 15_000 });
    const text = await usage.first().innerText();
    assert(/\d/.test(text) && /Wörter|Dokumente/.test(text), `the status bar's plan usage reads ${JSON.stringify(text)}`);
    // German figures: a decimal comma in a compact figure (12,3k), never a decimal point.
    assert(!/\d\.\dk/.test(text), `the status bar writes its figures the English way: ${JSON.stringify(text)}`);
    console.log(`[e2e-locale] status bar: ${JSON.stringify(text)}`);
    await shot('view');
  });

  await steps.step('question', 'Delete Document… (the row\'s context menu) asks in German ("löschen?", "Löschen"), and Cancel deletes nothing', async (shot) => {
    const doc = tree.locator('.monaco-list-row[aria-level="2"]').first();
    const name = (await doc.locator('.label-name').innerText()).trim();
    await ui.contextMenu(doc, 'Dokument löschen…');
    await ui.dialog.waitFor({ timeout: 10_000 });
    const said = await ui.dialog.innerText();
    assert(said.includes('löschen?') && said.includes('Dies kann nicht rückgängig gemacht werden.'), `the question reads ${JSON.stringify(said)}`);
    await ui.dialog.locator('a.monaco-button', { hasText: /^Löschen$/ }).waitFor();
    await shot('dialog');
    const deletesBefore = sandbox.requests.filter((r) => r.route === 'documents.delete').length;
    await page.keyboard.press('Escape');
    await waitFor('the question to close', async () => (await ui.dialog.count()) === 0, 5000);
    assert(sandbox.requests.filter((r) => r.route === 'documents.delete').length === deletesBefore, `"${name}" was deleted after Escape`);
  });

  await steps.step('error', 'a delete the server fails: the error message (the API\'s sentence too) and its buttons are German', async (shot) => {
    sandbox.setFault('documents.delete', { kind: 'status503', count: 10 });
    const doc = tree.locator('.monaco-list-row[aria-level="2"]').first();
    const name = (await doc.locator('.label-name').innerText()).trim();
    await ui.contextMenu(doc, 'Dokument löschen…');
    await ui.dialog.waitFor({ timeout: 10_000 });
    await ui.dialog.locator('a.monaco-button', { hasText: /^Löschen$/ }).click();
    await waitFor('the delete to fail with 503', () => sandbox.requests.some((r) => r.route === 'documents.delete' && r.status === 503), 20_000);
    // A headless window has no focus, so VS Code holds the toast back: the bell opens the notification centre, which shows it.
    const toast = page.locator('.notifications-center .notification-list-item', { hasText: 'konnte nicht gelöscht werden' });
    await waitFor('the error in the notification centre', async () => {
      if (!(await page.locator('.notifications-center.visible').count())) await page.locator('#status\\.notifications a, .statusbar-item[id="status.notifications"]').first().click();
      return (await toast.count()) > 0;
    }, 20_000, 500);
    const said = await toast.innerText();
    console.log(`[e2e-locale] error: ${JSON.stringify(said)}`);
    assert(said.includes(`„${name}“ konnte nicht gelöscht werden: `) && said.includes('Der Server hatte ein Problem (HTTP 503)'), `the error reads ${JSON.stringify(said)}`);
    await toast.locator('a.monaco-button', { hasText: 'Protokoll anzeigen' }).waitFor();
    await shot('message');
    sandbox.clearFaults();
  });
}

main().then(
  (code) => process.exit(code),
  (e) => {
    console.error(e);
    process.exit(1);
  },
);
