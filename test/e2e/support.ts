/**
 * Shared pieces of the end-to-end tiers (test/e2e/runE2e.ts and test/package/runPackage.ts): the
 * extension in code-server's real VS Code workbench, driven from OUTSIDE the extension host, through
 * headless chromium and playwright-core, as a person would (clicks, typing, keys), against the sandbox.
 *
 *  - Steps          a tiny sequential runner: each step is one test, gets a numbered screenshot
 *                   (NN-name.png, NN-name-FAILED.png on failure), and the counts go to the results file
 *                   runAll.js reads ($CONTENT_DOCS_TEST_RESULTS), after every step (test/harness/progress.ts):
 *                   a tier stopped by its watchdog keeps them and names the step that was running.
 *  - startWorkbench sandbox + code-server (extension linked from the repo, or whatever an earlier step
 *                   installed into the extensions dir) + chromium on the workbench with a folder open.
 *  - Ui             the few workbench gestures the tiers need, with aria/role selectors and waits.
 *
 * Everything a run writes stays in one `.test-runs/e2e-*` (or `pkg-*`) folder, removed when every step passed
 * (kept, with code-server.log and the user-data logs, when one failed).
 */
import * as fs from 'fs';
import * as path from 'path';
import type { Locator, Page } from 'playwright-core';
import { startSandbox, type Sandbox, type SandboxOptions } from '../sandbox/server';
import {
  type Chromium,
  type CodeServer,
  type HarnessEnv,
  launchChromium,
  removeDir,
  writeLanguagePack,
  repoRoot,
  startCodeServer,
} from '../harness/lib';
import { ProgressWriter } from '../harness/progress';

export { writeLanguagePack };

export const sleep = (ms: number) => new Promise<void>((r) => setTimeout(r, ms));

/** Polls `probe` until it returns something truthy; throws `what` (with the last error) after `timeoutMs`. */
export async function waitFor<T>(what: string, probe: () => T | Promise<T>, timeoutMs = 15_000, everyMs = 100): Promise<NonNullable<T>> {
  const deadline = Date.now() + timeoutMs;
  let last: unknown;
  for (;;) {
    try {
      const v = await probe();
      if (v) return v;
    } catch (e) {
      last = e;
    }
    if (Date.now() > deadline) {
      throw new Error(`timed out after ${timeoutMs / 1000} s waiting for ${what}${last ? ` (last error: ${(last as Error).message?.split('\n')[0]})` : ''}`);
    }
    await sleep(everyMs);
  }
}

export function assert(condition: unknown, message: string): asserts condition {
  if (!condition) throw new Error(message);
}

// ---------------------------------------------------------------------------------------------------
// Steps: the runner

export interface StepsOptions {
  /** Tier name, for log lines and the default results file. */
  tier: string;
  /** Where the numbered screenshots go (emptied first). */
  screenshotDir: string;
}

export class Steps {
  readonly screenshotDir: string;
  private n = 0;
  private page: Page | undefined;
  private broken: string | undefined;
  private readonly t0 = Date.now();
  /** The counts and the step running now, in the results file after every change. */
  private readonly progress: ProgressWriter;

  constructor(readonly options: StepsOptions) {
    this.screenshotDir = path.resolve(options.screenshotDir);
    removeDir(this.screenshotDir);
    fs.mkdirSync(this.screenshotDir, { recursive: true });
    this.progress = new ProgressWriter(path.resolve(process.env.CONTENT_DOCS_TEST_RESULTS || path.join(repoRoot(), '.test-runs', `${options.tier}-results.json`)));
  }

  get failures(): readonly string[] {
    return this.progress.progress.failures;
  }

  /** The page screenshots are taken of (set once the browser is up). */
  setPage(page: Page | undefined): void {
    this.page = page;
  }

  /**
   * Runs one step (one test). The steps form a story, so once one fails the later ones are not run
   * and count as failed ("not run"), which keeps the counts honest.
   * The step gets `shot(suffix?)` for extra screenshots; a numbered one is always taken at its end.
   */
  async step(slug: string, name: string, fn: (shot: (suffix: string) => Promise<string | undefined>) => Promise<void>): Promise<boolean> {
    assert(/^[a-z0-9-]+$/.test(slug), `step id must be lowercase letters, digits and '-': ${slug}`);
    const no = String(++this.n).padStart(2, '0');
    const title = `${this.options.tier}: ${name}`;
    if (this.broken) {
      this.progress.fail(`${title} (not run: "${this.broken}" failed)`);
      console.log(`  - ${no} ${name} (not run)`);
      return false;
    }
    const t = Date.now();
    const shot = async (suffix: string) => this.screenshot(`${no}-${slug}-${suffix}`);
    this.progress.startTest(title);
    try {
      await fn(shot);
      await this.screenshot(`${no}-${slug}`);
      this.progress.pass(title);
      console.log(`  ✓ ${no} ${name} (${((Date.now() - t) / 1000).toFixed(1)} s)`);
      return true;
    } catch (e) {
      await this.screenshot(`${no}-${slug}-FAILED`);
      this.progress.fail(`${title}: ${(e as Error).message?.split('\n')[0] ?? e}`);
      this.broken = name;
      console.log(`  ✗ ${no} ${name} (${((Date.now() - t) / 1000).toFixed(1)} s)\n      ${String((e as Error).stack ?? e).split('\n').slice(0, 6).join('\n      ')}`);
      return false;
    }
  }

  /** A failure outside any step (setup, teardown). */
  fail(what: string, e: unknown): void {
    this.progress.fail(`${this.options.tier}: ${what}: ${(e as Error)?.message?.split('\n')[0] ?? e}`);
    this.broken ??= what;
    console.log(`  ✗ ${what}\n      ${String((e as Error)?.stack ?? e).split('\n').slice(0, 6).join('\n      ')}`);
  }

  get ok(): boolean {
    return this.failures.length === 0;
  }

  /** The watchdog stopped the tier: one failure that names the step that was running (or the last one that ended). */
  timedOut(why: string): void {
    const p = this.progress.progress;
    this.progress.fail(p.running ? `timed out in: ${p.running.title}` : `${this.options.tier}: timed out (${why})${p.last ? ` after: ${p.last}` : ''}`);
    this.broken ??= why;
  }

  /** `<screenshotDir>/<name>.png` of the page (or of `clip`). */
  async screenshot(name: string, clip?: { x: number; y: number; width: number; height: number }): Promise<string | undefined> {
    if (!this.page) return undefined;
    const file = path.join(this.screenshotDir, `${name}.png`);
    try {
      await this.page.mouse.move(640, 4).catch(() => undefined); // the title bar: no hover over what the shot shows
      await this.page.screenshot({ path: file, timeout: 15_000, ...(clip ? { clip } : {}) });
      return file;
    } catch (e) {
      console.log(`    (screenshot ${name} failed: ${(e as Error).message?.split('\n')[0]})`);
      return undefined;
    }
  }

  /** Marks the results runAll.js reads as final, prints the tier's summary line. */
  report(): void {
    this.progress.finish();
    const body = this.progress.progress;
    console.log(`[${this.options.tier}] ${body.passed} passed, ${body.failed} failed; ${((Date.now() - this.t0) / 1000).toFixed(1)} s; screenshots in ${this.screenshotDir}`);
  }
}

/**
 * Ctrl+C / SIGTERM (runAll.js forwards them) and a watchdog: both stop what the tier started
 * (`cleanup`), the watchdog also records a failure and writes the results. Nothing is left running.
 */
export function installGuards(steps: Steps, limitMs: number, cleanup: () => Promise<void>): void {
  let finishing = false;
  const finish = async (why: string, code: number) => {
    if (finishing) return;
    finishing = true;
    console.log(`[${steps.options.tier}] ${why}: stopping what the tier started`);
    await Promise.race([cleanup().catch(() => undefined), sleep(20_000)]);
    if (code !== 130) {
      steps.timedOut(why);
      steps.report();
    }
    process.exit(code);
  };
  for (const sig of ['SIGINT', 'SIGTERM', 'SIGHUP'] as const) process.once(sig, () => void finish(sig, 130));
  setTimeout(() => void finish(`the tier took longer than ${limitMs / 1000} s`, 1), limitMs);
}

// ---------------------------------------------------------------------------------------------------
// Workbench: sandbox + code-server + chromium

export interface Workbench {
  sandbox: Sandbox;
  cs: CodeServer;
  browser: Chromium;
  page: Page;
  ui: Ui;
  workspace: string;
  /** The workbench's address with the workspace folder open (what a person opens again after closing the window). */
  url: string;
  /** Closes the browser, code-server and the sandbox; removes the run folder when asked. */
  stop(opts?: { cleanup?: boolean }): Promise<void>;
}

export interface WorkbenchOptions {
  harnessEnv: HarnessEnv;
  /** The run folder (code-server's dirs, the browser profile, the workspace). */
  runDir: string;
  /** 'link': the repo folder linked into the extensions dir (as `npm run demo` does). 'preinstalled': whatever is already in `<runDir>/extensions`. */
  extension: 'link' | 'preinstalled';
  sandbox?: SandboxOptions;
  settings?: Record<string, unknown>;
  viewport?: { width: number; height: number };
  /**
   * VS Code's display language ("de"): `--locale` plus an entry for it in the user data folder's languagepacks.json,
   * as code-server's server reads it (without one, `--locale` alone stays English). The entry's translations of
   * VS Code itself are empty, so the workbench stays English; vscode.env.language is the locale, and the extension's
   * l10n bundle and package.nls.<locale>.json are read.
   */
  locale?: string;
}

export function extensionManifest(): { publisher: string; name: string; version: string; main: string; browser?: string } {
  return JSON.parse(fs.readFileSync(path.join(repoRoot(), 'package.json'), 'utf8'));
}

/** Where startCodeServer({ runDir }) keeps its extensions (an earlier step may install into it first). */
export function extensionsDirOf(runDir: string): string {
  return path.join(runDir, 'extensions');
}

export async function startWorkbench(o: WorkbenchOptions): Promise<Workbench> {
  const sandbox = await startSandbox({ seed: 'default', ...(o.sandbox ?? {}) });
  let cs: CodeServer | undefined;
  let browser: Chromium | undefined;
  let stopped: Promise<void> | undefined;
  const stop = async (opts: { cleanup?: boolean } = {}) => {
    stopped ??= (async () => {
      await browser?.close();
      await cs?.stop();
      await sandbox.close();
    })();
    await stopped;
    if (opts.cleanup) removeDir(o.runDir);
  };
  try {
    const workspace = path.join(o.runDir, 'workspace');
    fs.mkdirSync(workspace, { recursive: true });
    fs.writeFileSync(path.join(workspace, 'README.md'), '# Content Docs end-to-end workspace\n');
    if (o.extension === 'link') {
      const m = extensionManifest();
      const ext = extensionsDirOf(o.runDir);
      fs.mkdirSync(ext, { recursive: true });
      fs.symlinkSync(repoRoot(), path.join(ext, `${m.publisher}.${m.name}-${m.version}`), 'dir');
    }
    cs = await startCodeServer({
      harnessEnv: o.harnessEnv,
      runDir: o.runDir,
      ...(o.locale ? { extraArgs: writeLanguagePack(o.runDir, o.locale) } : {}),
      settings: {
        // User settings, as a person sets them: the extension only reads the base URLs from there.
        'contentDocs.documents.baseUrl': sandbox.docsUrl,
        'contentDocs.projects.baseUrl': sandbox.seoUrl,
        'workbench.reduceMotion': 'on',
        'workbench.hover.delay': 5000,
        'editor.hover.enabled': false,
        'editor.minimap.enabled': false,
        'window.dialogStyle': 'custom',
        'files.autoSave': 'off',
        ...(o.settings ?? {}),
      },
    });
    browser = await launchChromium({ harnessEnv: o.harnessEnv, runDir: o.runDir, viewport: o.viewport ?? { width: 1280, height: 800 } });
    const page = browser.page;
    page.setDefaultTimeout(15_000);
    const url = `${cs.url}?folder=${encodeURIComponent(workspace)}`;
    await page.goto(url, { waitUntil: 'domcontentloaded', timeout: 60_000 });
    await page.locator('.monaco-workbench').waitFor({ timeout: 60_000 });
    return { sandbox, cs, browser, page, ui: new Ui(page), workspace, url, stop };
  } catch (e) {
    await stop();
    throw e;
  }
}

// ---------------------------------------------------------------------------------------------------
// Ui: workbench gestures

/** Escapes a string for a RegExp. */
export function re(s: string): string {
  return s.replace(/[.*+?^${}()|[\]\\]/g, '\\$&');
}

export class Ui {
  constructor(readonly page: Page) {}

  /** The Content Docs icon in the activity bar. */
  get activityIcon(): Locator {
    return this.page.locator('.activitybar a.action-label[aria-label^="Content Docs"]');
  }

  /** A view pane of the Content Docs container by its title ("Documents", "Projects"). */
  pane(title: 'Documents' | 'Projects'): Locator {
    return this.page.locator('.pane', { has: this.page.locator(`.pane-header[aria-label^="${title}"]`) });
  }

  /** The view's tree (role=tree, labelled by the view name). */
  tree(title: 'Documents' | 'Projects'): Locator {
    return this.page.locator(`[role="tree"][aria-label="${title}"]`);
  }

  /** Rows of a view's tree (only the rendered ones: the list is virtual). */
  rows(title: 'Documents' | 'Projects'): Locator {
    return this.tree(title).locator('.monaco-list-rows > .monaco-list-row[role="treeitem"]'); // not the sticky-scroll copies
  }

  /** The row whose label is exactly `label` (the label element, not the aria-label, which may be a tooltip). */
  row(title: 'Documents' | 'Projects', label: string | RegExp): Locator {
    const text = typeof label === 'string' ? new RegExp(`^${re(label)}$`) : label;
    return this.rows(title).filter({ has: this.page.locator('.label-name', { hasText: text }) });
  }

  /**
   * Makes `row` fully visible inside its tree, scrolling the (virtual) list with the mouse wheel as a
   * person would: rows outside the viewport are not in the DOM, so Playwright cannot scroll to them.
   */
  async reveal(title: 'Documents' | 'Projects', row: Locator, timeoutMs = 10_000): Promise<Locator> {
    const tree = this.tree(title);
    const deadline = Date.now() + timeoutMs;
    let direction = -1; // not rendered: look upwards first, then turn round at the top
    let lastTop: number | undefined;
    for (;;) {
      const box = await tree.boundingBox();
      if (!box) throw new Error(`the ${title} tree is not shown`);
      // Rows under the sticky-scroll header (parents pinned at the top) are covered: not in view.
      const stickyHeader = tree.locator('.monaco-tree-sticky-container:not(.empty)');
      const sticky = (await stickyHeader.count()) ? await stickyHeader.first().boundingBox() : null;
      const top = sticky && sticky.height > 0 ? Math.max(box.y, sticky.y + sticky.height) : box.y;
      if (await row.count()) {
        const r = await row.first().boundingBox();
        if (r && r.y >= top - 1 && r.y + r.height <= box.y + box.height + 1) return row.first();
        direction = r && r.y < top ? -1 : 1;
      }
      if (Date.now() > deadline) throw new Error(`could not scroll a row into view in the ${title} tree`);
      await this.page.mouse.move(box.x + box.width / 2, box.y + box.height / 2);
      await this.page.mouse.wheel(0, direction * Math.max(22, box.height / 3));
      await sleep(120);
      const now = await tree.locator('.monaco-list-rows > .monaco-list-row')
        .evaluateAll((els) => Math.min(...els.map((e) => Number(e.getAttribute('data-index')))));
      if (lastTop !== undefined && now === lastTop && !(await row.count())) direction = -direction; // at an end: turn round
      lastTop = now;
    }
  }

  /** Drags the side bar's edge so it is `width` pixels wide (descriptions in the rows then show). */
  async setSidebarWidth(width: number): Promise<void> {
    const bar = this.page.locator('#workbench\\.parts\\.sidebar');
    const box = await bar.boundingBox();
    if (!box) throw new Error('the side bar is not shown');
    const y = box.y + box.height / 2;
    await this.page.mouse.move(box.x + box.width + 1, y);
    await this.page.mouse.down();
    await this.page.mouse.move(box.x + box.width + 1 + (width - box.width) / 2, y, { steps: 4 });
    await this.page.mouse.move(box.x + width + 1, y, { steps: 4 });
    await this.page.mouse.up();
    await waitFor(`the side bar to be ${width} px wide`, async () => Math.abs(((await bar.boundingBox())?.width ?? 0) - width) < 8, 3000);
  }

  /** Rows at a tree depth (1 = groups, 2 = their children). */
  rowsAtLevel(title: 'Documents' | 'Projects', level: number): Locator {
    return this.tree(title).locator(`.monaco-list-rows > .monaco-list-row[role="treeitem"][aria-level="${level}"]`);
  }

  async labelsAtLevel(title: 'Documents' | 'Projects', level: number): Promise<string[]> {
    return this.rowsAtLevel(title, level).locator('.label-name').allTextContents();
  }

  /** Opens the Content Docs container (clicks its activity-bar icon unless it is already showing). */
  async openContentDocs(): Promise<void> {
    await this.activityIcon.waitFor({ timeout: 60_000 });
    const active = await this.page.locator('#workbench\\.parts\\.sidebar[data-active-composite="workbench.view.extension.contentDocs"]').count();
    if (!active) await this.activityIcon.click();
    await this.pane('Documents').locator('.pane-header').waitFor();
  }

  /** The Quick Input widget (command palette, input boxes, quick picks) while it is shown. */
  get quickInput(): Locator {
    return this.page.locator('.quick-input-widget:visible');
  }

  get quickInputBox(): Locator {
    return this.quickInput.locator('input.input');
  }

  /** The quick input's title (a multi-step input says its step there). */
  get quickInputTitle(): Locator {
    return this.quickInput.locator('.quick-input-title');
  }

  /** Rows of the quick input's list. */
  get quickPickRows(): Locator {
    return this.quickInput.locator('.monaco-list-row[role="option"]');
  }

  /** F1, types the command's title, waits for it to be the one highlighted, Enter. */
  async runCommand(title: string, beforeEnter?: () => Promise<unknown>): Promise<void> {
    await this.page.keyboard.press('F1');
    await this.quickInputBox.waitFor();
    await waitFor('the command palette ("> " prefix)', async () => (await this.quickInputBox.inputValue()).startsWith('>'), 5000);
    await this.page.keyboard.type(title);
    const row = this.quickPickRows.filter({ hasText: title }).first();
    await row.waitFor();
    await waitFor(`"${title}" to be the first suggestion`, async () =>
      ((await this.quickPickRows.first().getAttribute('aria-label')) ?? '').includes(title), 10_000);
    if (beforeEnter) await beforeEnter();
    await this.page.keyboard.press('Enter');
  }

  /** Right-clicks `target` and clicks the context-menu item `item`. */
  async contextMenu(target: Locator, item: string, beforeClick?: () => Promise<unknown>): Promise<void> {
    await target.click({ button: 'right' });
    // The item's accessible name is its label, then its key when it has one ("Delete Document… Delete").
    const menuItem = this.page.getByRole('menuitem', { name: new RegExp(`^${re(item)}( |$)`) });
    await menuItem.waitFor();
    await this.clickMenuItem(menuItem, item, Date.now(), beforeClick);
  }

  /**
   * Clicks `menuItem` (`item`: its name, for the log) of a menu on screen since `shownAt` (a context menu, or a submenu
   * just opened), and waits for the menu to close.
   */
  async clickMenuItem(menuItem: Locator, item: string, shownAt = Date.now(), beforeClick?: () => Promise<unknown>): Promise<void> {
    // Point at the item first and wait until the menu highlights it: a menu that has just opened
    // ignores a click that comes too soon (it guards against the opening right-click's mouse-up).
    const pointAt = () => waitFor(`the menu to highlight "${item}"`, async () => {
      await menuItem.hover();
      return (await menuItem.evaluate((el) => el.matches('.focused, :focus') || !!el.closest('.action-item.focused')));
    }, 5000, 200);
    await pointAt();
    if (beforeClick) await beforeClick();
    const closed = async () => (await menuItem.count()) === 0;
    // VS Code's menu listens for an item's mouse-up only from 100 ms after it drew the item (a timer:
    // runOnceToEnableMouseUp in src/vs/base/browser/ui/menu/menu.ts), and the highlight comes at once.
    await sleep(Math.max(0, shownAt + 300 - Date.now()));
    await menuItem.click();
    // A timer can come later still on a busy machine (e2e-locale's delete, once in CI and in 3 of 6 runs here). The
    // menu closes before it runs the item's action, so a menu still open ran nothing: click again, as a writer would.
    for (let again = 1; again <= 2; again++) {
      if (await waitFor(`the context menu to close after clicking "${item}"`, closed, 2000).catch(() => false)) return;
      console.log(`[e2e] the context menu is still open after clicking "${item}", which ran nothing: clicking it again (${again})`);
      await pointAt();
      await menuItem.click({ timeout: 2000 });
    }
    await waitFor(`the context menu to close after clicking "${item}" three times`, closed, 5000);
  }

  /** The active editor tab. */
  get activeTab(): Locator {
    return this.page.locator('.tabs-container .tab.active');
  }

  /** The active editor's Monaco editor. */
  get activeEditor(): Locator {
    return this.page.locator('.editor-group-container.active .monaco-editor[role="code"]').first();
  }

  /** The text the active editor shows (its visible lines). */
  async activeEditorText(): Promise<string> {
    return (await this.activeEditor.locator('.view-lines').innerText()).replace(/\u00a0/g, ' ');
  }

  /** The modal dialog (VS Code's custom dialog, `window.dialogStyle: custom`). */
  get dialog(): Locator {
    return this.page.locator('.monaco-dialog-box');
  }
}
