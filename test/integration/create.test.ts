/**
 * New Document… and Go to Document…, inside a real VS Code against the sandbox: the questions are
 * answered through the extension's prompter; the Go to Document Quick Pick is typed into through the
 * harness's keyboard, as a user would.
 */
import * as assert from 'assert';
import * as vscode from 'vscode';
import { hostOf } from '../../src/accounts/accountNames';
import type { DocNode, DocumentNode } from '../../src/model/nodes';
import type { TestServices } from '../kit/services';
import { startSandbox, type Sandbox } from '../sandbox/server';
import { CMD, PROMPT_SCHEME } from '../../src/constants';
import { documentPromptLength } from '../../src/write/prompt';
import { click, press, quickPickRowInFocus, read, screenshot, typeText } from './harness';
import { BACK_BUTTON, configure, escapeWith, MessageCapture, pressButton, RecordingPrompter, SCHEME, services, sleep, until, useSandbox } from './reliabilityKit';

let sandbox: Sandbox;
let s: TestServices;

describe('New Document… and Go to Document…', function () {
  this.timeout(60_000);

  before(async () => {
    sandbox = await startSandbox({ rateLimit: 0, storeDelayMs: 0 });
    s = await services();
    await useSandbox(s, sandbox);
  });

  after(async () => {
    await vscode.commands.executeCommand('workbench.action.closeAllEditors');
    await sandbox?.close();
  });

  it('creates a document end to end; a 422 shows the server message and asks again with the input kept', async () => {
    const prompter = new RecordingPrompter();
    prompter.answer = (q, _items, nth) => {
      if (q.title === 'New Document: Name') return nth === 1 ? 'Launch bannedword plan' : 'Launch plan from the test';
      if (q.title.includes('Template')) return 'Blog post';
      if (q.title.includes('Prompt')) return 'A launch plan for a small product';
      if (q.title.includes('Creativity')) return 'Creative';
      return undefined;
    };
    s.prompter.current = prompter;
    const createdEvents: number[] = [];
    const sub = s.documents.onDidCreate((d) => createdEvents.push(d.id));
    sandbox.resetRequests();
    try {
      await vscode.commands.executeCommand('contentDocs.documentNew');
    } finally {
      sub.dispose();
    }

    // The questions, as the steps of one multi-step input (Back from the second on); after the 422 only the name again.
    assert.deepStrictEqual(
      prompter.asked.map((q) => `${q.title} ${q.step}${q.back ? ' back' : ''}`),
      [
        'New Document: Name 1/4',
        'New Document: Template 2/4 back',
        'New Document: Prompt 3/4 back',
        'New Document: Creativity 4/4 back',
        'New Document: Name 1/4',
      ],
    );
    // Templates: the 52 in the Documents view's order (by name), each with a description, Freestyle (the default) active.
    const templatePick = prompter.asked[1];
    assert.strictEqual(templatePick.items!.length, 52);
    assert.deepStrictEqual(templatePick.items!.slice(0, 3), ['About us', 'Advertisement', 'Article']);
    assert.strictEqual(templatePick.active, 'Freestyle');
    assert.ok(templatePick.descriptions!.every((d) => d.trim().length > 0), `every template has a description: ${templatePick.descriptions!.join(' | ')}`);
    assert.match(templatePick.descriptions![templatePick.items!.indexOf('Freestyle')], /\(default\)/);
    assert.strictEqual(templatePick.descriptions![templatePick.items!.indexOf('Video script')], templatePick.descriptions![templatePick.items!.indexOf('Video title')]);
    // Creativity: the levels in order from 0 to 1, the default marked and active (Enter keeps it).
    const levels = prompter.asked[3];
    assert.deepStrictEqual(levels.items, ['Repetitive', 'Deterministic', 'Original', 'Creative', 'Imaginative']);
    assert.strictEqual(levels.active, 'Original');
    assert.deepStrictEqual(levels.descriptions!.map((d) => /default\)$/.test(d)), [false, false, true, false, false], levels.descriptions!.join(' | '));
    // The prompt's box counts the characters against the limit (those of a prompt kept from a New Document… of an
    // earlier suite that created nothing, if any).
    assert.match(prompter.asked[2].prompt ?? '', new RegExp(`^What should the text be about\\? ${[...(prompter.asked[2].value ?? '')].length} / 2,048`));
    const again = prompter.asked[4];
    assert.strictEqual(again.value, 'Launch bannedword plan', 'the name is prefilled with what the user typed');
    assert.match(again.prompt ?? '', /keyword that is banned/, "the server's message is shown");
    assert.deepStrictEqual(prompter.validationProblems, [], 'every answer passed the input validation');

    const stores = sandbox.requests.filter((r) => r.route === 'documents.store');
    assert.deepStrictEqual(stores.map((r) => r.status), [422, 201]);
    assert.strictEqual(stores[1].body?.template_id, '9');
    assert.strictEqual(stores[1].body?.creativity, '0.75');
    assert.strictEqual(stores[1].body?.prompt, 'A launch plan for a small product');

    const created = [...sandbox.documents.values()].find((d) => d.name === 'Launch plan from the test');
    assert.ok(created, 'the sandbox holds the new document');
    assert.deepStrictEqual(createdEvents, [created.id], 'the tree hears of it (onDidCreate)');
    const editor = await until('the new document to open', () => {
      const e = vscode.window.activeTextEditor;
      return e?.document.uri.scheme === SCHEME && e.document.uri.authority.split('.')[0] === String(created.id) ? e : undefined;
    });
    assert.strictEqual(editor.document.getText(), created.result);
    assert.strictEqual(editor.document.uri.path, `/${hostOf(sandbox.docsUrl)}/Blog post/Launch plan from the test.md`);
    await screenshot('document-new-created');
  });

  it('New Document: cancelling any question creates nothing', async () => {
    const prompter = new RecordingPrompter();
    prompter.answer = (q) => (q.title === 'New Document: Name' ? 'Never created' : undefined);
    s.prompter.current = prompter;
    sandbox.resetRequests();
    await vscode.commands.executeCommand('contentDocs.documentNew');
    assert.strictEqual(sandbox.requests.filter((r) => r.route === 'documents.store').length, 0);
  });

  it('New Document: Back returns to the step before, its answer kept; the answers given last are the ones sent', async () => {
    const prompter = new RecordingPrompter();
    prompter.inputs = ['Back and forth', 'A first idea', BACK_BUTTON, 'A second, better idea'];
    prompter.picks = ['Blog post', BACK_BUTTON, 'Article', 'Creative'];
    s.prompter.current = prompter;
    sandbox.resetRequests();
    const doc = await vscode.commands.executeCommand<{ id: number } | undefined>('contentDocs.documentNew');
    assert.ok(doc, `created (asked: ${prompter.asked.map((q) => `${q.title} ${q.step}`).join(', ')})`);
    assert.deepStrictEqual(
      prompter.asked.map((q) => `${q.title.replace('New Document: ', '')} ${q.step}`),
      ['Name 1/4', 'Template 2/4', 'Prompt 3/4', 'Creativity 4/4', 'Prompt 3/4', 'Template 2/4', 'Prompt 3/4', 'Creativity 4/4'],
    );
    assert.deepStrictEqual(prompter.asked.map((q) => q.back), [false, true, true, true, true, true, true, true], 'Back from the second step on');
    assert.strictEqual(prompter.asked[4].value, 'A first idea', 'back at the prompt: what was typed is there');
    assert.match(prompter.asked[4].prompt ?? '', /12 \/ 2,048/, 'with its character count');
    assert.strictEqual(prompter.asked[5].active, 'Blog post', 'back at the template: the one chosen is active');
    assert.strictEqual(prompter.asked[6].value, 'A first idea');
    const stores = sandbox.requests.filter((r) => r.route === 'documents.store');
    assert.strictEqual(stores.length, 1, 'one store, after the last step');
    assert.strictEqual(stores[0].body?.name, 'Back and forth');
    assert.strictEqual(stores[0].body?.template_id, '4');
    assert.strictEqual(stores[0].body?.prompt, 'A second, better idea');
    assert.strictEqual(stores[0].body?.creativity, '0.75');
  });

  it('Go to Document finds a document by name as you type (debounced, accent-insensitive) and opens it', async () => {
    await vscode.commands.executeCommand('workbench.action.closeAllEditors');
    sandbox.resetRequests();
    const done = vscode.commands.executeCommand('contentDocs.documentGoTo');
    // The empty query lists the newest documents at once, and the box shows them (a list request at the sandbox may
    // also be a view's, reading its rows as the account was made anew: the box's rows are the listing's).
    await until('the first listing', () => sandbox.requests.some((r) => r.route === 'documents.list' && r.status === 200));
    await quickPickRowInFocus();
    await sleep(200);
    // Typed as a person types, the keys well inside the debounce of each other (one bridge call: a busy machine
    // cannot spread them out).
    await typeText('cafe');
    await until('the search for "cafe"', () =>
      sandbox.requests.some((r) => r.route === 'documents.list' && r.query.search === 'cafe' && r.status === 200),
    );
    await sleep(400);
    await screenshot('document-goto');
    const searches = sandbox.requests.filter((r) => r.route === 'documents.list' && r.query.search);
    assert.ok(searches.length <= 2, `one request per settled query, not one per keystroke: ${searches.map((r) => r.query.search).join(', ')}`);
    assert.strictEqual(searches[searches.length - 1].query.search, 'cafe');

    await press('Enter');
    await done;
    const editor = await until('the picked document to open', () => {
      const e = vscode.window.activeTextEditor;
      return e?.document.uri.scheme === SCHEME ? e : undefined;
    });
    const id = Number(editor.document.uri.authority.split('.')[0]);
    const picked = sandbox.documents.get(id);
    assert.ok(picked, 'an existing document opened');
    assert.match(picked.name.normalize('NFD').replace(/\p{M}/gu, '').toLowerCase(), /cafe/);
    assert.strictEqual(editor.document.getText(), picked.result ?? '');
  });

  describe('New Document: the prompt written in an editor', () => {
    /** The status bar item that counts the prompt's characters while its editor is active. */
    const COUNT = '.statusbar-item[id$="contentDocs.promptLength"]';
    const promptEditor = () => {
      const e = vscode.window.activeTextEditor;
      return e?.document.uri.scheme === PROMPT_SCHEME ? e : undefined;
    };
    const promptTabs = () =>
      vscode.window.tabGroups.all.flatMap((g) => g.tabs).filter((t) => t.input instanceof vscode.TabInputText && t.input.uri.scheme === PROMPT_SCHEME);
    const stores = () => sandbox.requests.filter((r) => r.route === 'documents.store');
    let messages: MessageCapture;

    /** VS Code's own quick input box, as a person sees it. */
    const BOX = '.quick-input-widget';
    const title = async () => (await read(`${BOX} .quick-input-title`)).text;
    /** Waits until the box's title names the step (/Name/, /Template/, /Prompt/, /Creativity/). */
    const untilStep = (what: string, step: RegExp, timeoutMs?: number) => until(what, async () => step.test(await title()) || undefined, timeoutMs);
    /**
     * New Document… in the real boxes (the product's prompter, not a recording one), driven by `steps` from the name
     * box on (`run`, the command's answer); the recording prompter is put back after, and a box left open is closed.
     */
    async function inRealBoxes(steps: (run: Promise<{ id: number } | undefined>) => Promise<void>): Promise<void> {
      s.prompter.current = s.prompter.vscode;
      sandbox.resetRequests();
      try {
        const run = Promise.resolve(vscode.commands.executeCommand<{ id: number } | undefined>('contentDocs.documentNew'));
        await untilStep('the name box', /Name/, 15_000);
        await steps(run);
      } finally {
        s.prompter.current = new RecordingPrompter();
        await press('Escape').catch(() => undefined);
      }
    }
    /** Types the name, takes the first template, and waits for the prompt box. */
    async function toPromptBox(name: string): Promise<void> {
      await typeText(name);
      await press('Enter');
      await untilStep('the template pick', /Template/);
      await press('Enter');
      await untilStep('the prompt box', /Prompt/);
    }

    beforeEach(async () => {
      await vscode.commands.executeCommand('workbench.action.closeAllEditors');
      messages = new MessageCapture().install();
    });
    afterEach(() => messages.dispose());

    it('Write in an Editor… holds what the box held; the paragraphs and list written there are stored as HTML; Use Prompt goes on, Back comes back to them, a 422 keeps them', async () => {
      const prompter = new RecordingPrompter();
      prompter.inputs = ['Editor bannedword plan', pressButton('editor', 'A launch plan')];
      prompter.picks = ['Blog post'];
      prompter.answer = (q, _items, nth) => {
        if (q.title === 'New Document: Name') return 'Editor plan from the test';
        if (q.title.includes('Creativity')) return nth === 1 ? BACK_BUTTON : 'Creative';
        // Enter on what the box shows.
        if (q.title.includes('Prompt')) return q.value;
        return undefined;
      };
      s.prompter.current = prompter;
      sandbox.resetRequests();
      const run = Promise.resolve(vscode.commands.executeCommand<{ id: number } | undefined>('contentDocs.documentNew'));

      const editor = await until('the prompt editor', () => promptEditor());
      assert.ok(prompter.asked[2].buttons?.some((b) => /^editor: Write in an Editor…/.test(b)), `the prompt step has the button, with its tooltip: ${(prompter.asked[2].buttons ?? []).join(' | ')}`);
      assert.strictEqual(editor.document.getText(), 'A launch plan', 'the editor holds what the box held');
      assert.strictEqual(editor.document.languageId, 'markdown');
      // Written as a user writes: keys, then a line added through the API.
      for (const key of ['.', 'Enter', 'Enter', 'It', 'Space', 'ships', 'Space', 'Monday.', 'Enter', 'Enter', '-', 'Space', 'Faster', 'Space', 'saves']) {
        if (key === 'Enter' || key === 'Space') await press(key);
        else await typeText(key);
      }
      await until('the keys typed', () => editor.document.getText() === 'A launch plan.\n\nIt ships Monday.\n\n- Faster saves' || undefined);
      await editor.edit((b) => b.insert(editor.document.lineAt(editor.document.lineCount - 1).range.end, '\n- Offline drafts'));
      const text = 'A launch plan.\n\nIt ships Monday.\n\n- Faster saves\n- Offline drafts';
      assert.strictEqual(editor.document.getText(), text);
      await until('the tab never dirty (saved to memory as it changes)', () => !editor.document.isDirty || undefined);
      const count = `${documentPromptLength(text)} / 2,048`;
      await until(`the status bar says ${count}`, async () => (await read(COUNT)).text.includes(count) || undefined);
      await screenshot('document-new-prompt-editor');
      assert.strictEqual(stores().length, 0, 'nothing sent while writing');

      // Use Prompt: the check in the editor's title.
      await vscode.commands.executeCommand(CMD.documentPromptUse);
      await until('the prompt tab closed', () => promptTabs().length === 0 || undefined);
      await until('the count gone with the editor', async () => !(await read(COUNT)).visible || undefined);
      const doc = await run;
      assert.ok(doc, `created (asked: ${prompter.asked.map((q) => `${q.title} ${q.step}`).join(', ')})`);

      assert.deepStrictEqual(
        prompter.asked.map((q) => `${q.title.replace('New Document: ', '')} ${q.step}`),
        ['Name 1/4', 'Template 2/4', 'Prompt 3/4', 'Creativity 4/4', 'Prompt 3/4', 'Creativity 4/4', 'Name 1/4'],
      );
      const back = prompter.asked[4];
      assert.strictEqual(back.value, 'A launch plan. It ships Monday. - Faster saves - Offline drafts', 'Back: the prompt shown joined in the box');
      assert.match(back.prompt ?? '', new RegExp(`Written in the editor \\(4 lines, ${count} characters\\)`));
      assert.match(back.prompt ?? '', /Enter uses it as written/);
      assert.deepStrictEqual(prompter.validationProblems, [], 'every answer passed the input validation');

      const html = '<p>A launch plan.</p><p>It ships Monday.</p><ul><li>Faster saves</li><li>Offline drafts</li></ul>';
      assert.deepStrictEqual(stores().map((r) => r.status), [422, 201], 'the name refused once, then created');
      assert.deepStrictEqual(stores().map((r) => r.body?.prompt), [html, html], 'the prompt as the writing actions send a selection, kept through the 422');
      const stored = sandbox.documents.get(doc.id);
      assert.strictEqual(stored?.prompt, html, 'the stored prompt holds the paragraphs and the list');
      assert.strictEqual(sandbox.lastModelPrompt, html, 'the model saw them: nothing for the server to join');
      await until('the new document open', () => vscode.window.activeTextEditor?.document.uri.scheme === SCHEME || undefined);
      assert.ok(!vscode.workspace.textDocuments.some((d) => d.uri.scheme === PROMPT_SCHEME && d.isDirty), 'no prompt left dirty');
    });

    it('Use Prompt over the limit says why and sends nothing, the text kept; closing the tab comes back to the box with it; Escape keeps it for the next New Document…, Ctrl+Enter uses it', async () => {
      const prompter = new RecordingPrompter();
      prompter.inputs = ['Long plan', pressButton('editor', 'Too long:')];
      prompter.picks = ['Freestyle'];
      s.prompter.current = prompter;
      sandbox.resetRequests();
      const first = Promise.resolve(vscode.commands.executeCommand<{ id: number } | undefined>('contentDocs.documentNew'));
      const editor = await until('the prompt editor', () => promptEditor());
      const long = `Too long:\n\n${'A sentence of the plan. '.repeat(80)}\n\n${'- an item\n'.repeat(20)}`;
      await editor.edit((b) => b.replace(new vscode.Range(0, 0, editor.document.lineCount, 0), long));
      const over = documentPromptLength(long);
      assert.ok(over > 2048, `over the limit as sent (${over})`);
      await until('the over-limit count in the status bar', async () => (await read(COUNT)).text.includes(`${over.toLocaleString('en-US')} / 2,048`) || undefined);

      assert.strictEqual(await vscode.commands.executeCommand(CMD.documentPromptUse), false, 'refused');
      const said = await messages.waitFor('the reason', (m) => m.level === 'warning' && /at most 2,048/.test(m.message));
      assert.match(said.message, new RegExp(`${over.toLocaleString('en-US')} characters as it will be sent`));
      assert.match(said.message, /your text is kept/);
      assert.strictEqual(promptEditor()?.document.getText(), long, 'the text and the editor kept');
      assert.strictEqual(prompter.asked.filter((q) => q.title.includes('Creativity')).length, 0, 'New Document… did not go on');

      // Closing the tab goes back to the prompt's box, the text in it (no "Save?" on the way: the close completes).
      await until('the tab saved', () => !editor.document.isDirty || undefined);
      prompter.inputs = [undefined];
      await vscode.commands.executeCommand('workbench.action.closeActiveEditor');
      assert.strictEqual(await first, undefined, 'Escape in the box: nothing created');
      const tabs = () => vscode.window.tabGroups.all.map((g) => g.tabs.map((t) => `${g.viewColumn}:${t.label}:${t.input instanceof vscode.TabInputText ? t.input.uri.toString() : '?'}`).join(', ')).join(' | ');
      // The tab model reaches the extension host by events: waited for, with the tabs named if one stays.
      await until('no prompt tab left', () => promptTabs().length === 0 || undefined).catch(() => assert.fail(`a prompt tab left: ${tabs()}`));
      const box = prompter.asked[prompter.asked.length - 1];
      assert.strictEqual(box.title, 'New Document: Prompt');
      assert.strictEqual(box.value, long.replace(/\s+/g, ' ').trim(), 'the box holds the text written, joined');
      assert.match(box.prompt ?? '', new RegExp(`${over.toLocaleString('en-US')} / 2,048 characters\\)`));
      assert.deepStrictEqual(prompter.validationProblems, [], 'nothing was accepted');
      assert.strictEqual(stores().length, 0, 'no request');

      // The next New Document… starts with it: Write in an Editor… holds it with its lines; shortened, Ctrl+Enter uses it.
      prompter.reset();
      prompter.inputs = ['Short plan'];
      prompter.picks = ['Freestyle', 'Original'];
      prompter.answer = (q) => (q.title.includes('Prompt') ? pressButton('editor', q.value) : undefined);
      const second = Promise.resolve(vscode.commands.executeCommand<{ id: number } | undefined>('contentDocs.documentNew'));
      const again = await until('the prompt editor again', () => promptEditor());
      assert.strictEqual(prompter.asked[2].value, long.replace(/\s+/g, ' ').trim(), 'the prompt kept from the cancelled New Document…');
      assert.strictEqual(again.document.getText(), long, 'its lines kept');
      const short = 'Short:\n\n- an item\n- another';
      await again.edit((b) => b.replace(new vscode.Range(0, 0, again.document.lineCount, 0), short));
      await until('the tab saved', () => !again.document.isDirty || undefined);
      await press('Control+Enter');
      const doc = await second;
      assert.ok(doc, 'created');
      assert.strictEqual(sandbox.documents.get(doc.id)?.prompt, '<p>Short:</p><ul><li>an item</li><li>another</li></ul>');
      assert.strictEqual(stores().length, 1);
    });

    it('the real boxes: the prompt step\'s button opens the editor, Ctrl+Enter comes back to the wizard, whose Back button shows the prompt joined and Enter uses it as written', async () => {
      await inRealBoxes(async (run) => {
        await toPromptBox('Real-box-plan');
        await typeText('Plan');
        await click(`${BOX} a[aria-label^="Write in an Editor"]`);
        const editor = await until('the prompt editor', () => promptEditor());
        assert.strictEqual(editor.document.getText(), 'Plan', 'what was typed in the box');
        await until('the box closed while the editor is open', async () => !(await read(BOX)).visible || undefined);
        await press('Enter');
        await press('Enter');
        await typeText('More.');
        await until('typed', () => editor.document.getText() === 'Plan\n\nMore.' || undefined);
        await press('Control+Enter');
        await untilStep('the creativity pick', /Creativity/);
        assert.strictEqual(promptTabs().length, 0, 'the editor closed');
        await click(`${BOX} .quick-input-left-action-bar [aria-label^="Back"]`);
        await untilStep('the prompt box again', /Prompt/);
        const shown = await read(`${BOX} .quick-input-message`);
        assert.match(shown.text, /Written in the editor \(2 lines, 23 \/ 2,048 characters\)/);
        await screenshot('document-new-prompt-back');
        await press('Enter');
        await untilStep('the creativity pick again', /Creativity/);
        await press('Enter');
        const doc = await run;
        assert.ok(doc, 'created');
        assert.strictEqual(sandbox.documents.get(doc.id)?.prompt, '<p>Plan</p><p>More.</p>');
      });
    });

    it('the real boxes: a prompt typed, then Back to the template and forward again, is still in the prompt box, and Write in an Editor… holds it', async () => {
      await inRealBoxes(async (run) => {
        await toPromptBox('Grinder-note');
        await typeText('Announce-our-quiet-burr-grinder');
        await until('typed', async () => /31 \/ 2,048/.test((await read(`${BOX} .quick-input-message`)).text) || undefined);
        // Back without Enter: to change the template.
        await click(`${BOX} .quick-input-left-action-bar [aria-label^="Back"]`);
        await untilStep('the template pick again', /Template/);
        await press('Enter');
        await untilStep('the prompt box again', /Prompt/);
        await until('the prompt typed before is in the box (its count says so)', async () => /31 \/ 2,048/.test((await read(`${BOX} .quick-input-message`)).text) || undefined);
        await screenshot('document-new-prompt-kept-on-back');
        await click(`${BOX} a[aria-label^="Write in an Editor"]`);
        const editor = await until('the prompt editor', () => promptEditor());
        assert.strictEqual(editor.document.getText(), 'Announce-our-quiet-burr-grinder', 'the editor holds the prompt typed before Back');
        await press('Control+Enter');
        await untilStep('the creativity pick', /Creativity/);
        await press('Enter');
        const doc = await run;
        assert.ok(doc, 'created');
        assert.strictEqual(sandbox.documents.get(doc.id)?.prompt, 'Announce-our-quiet-burr-grinder');
      });
    });

    it('the prompt step says how to write paragraphs in plain words, with no "…." and the cursor after a prompt written in the editor, so that a key typed adds to it', async () => {
      const prompter = new RecordingPrompter();
      prompter.inputs = ['Wording plan', 'One line', BACK_BUTTON];
      prompter.picks = ['Freestyle', BACK_BUTTON];
      s.prompter.current = prompter;
      assert.strictEqual(await vscode.commands.executeCommand('contentDocs.documentNew'), undefined);
      const step = prompter.asked.find((q) => q.title === 'New Document: Prompt');
      assert.ok(step, 'the prompt step was asked');
      assert.doesNotMatch(step.prompt ?? '', /…\./, `no ellipsis and full stop: ${step.prompt}`);
      assert.match(step.prompt ?? '', /^What should the text be about\? 0 \/ 2,048 characters\. For paragraphs or a list, write it in an editor \(the button above\)\.$/, step.prompt);
      assert.ok(step.buttons?.every((b) => !/…\./.test(b)), `the button's tooltip: ${step.buttons?.join(' | ')}`);

      // A prompt of several lines, back in the box: the line says what Enter and typing do, and the cursor is at its end.
      prompter.reset();
      prompter.inputs = ['Wording plan', pressButton('editor', 'Line one')];
      prompter.picks = ['Freestyle'];
      const run = Promise.resolve(vscode.commands.executeCommand('contentDocs.documentNew'));
      const editor = await until('the prompt editor', () => promptEditor());
      await editor.edit((b) => b.insert(editor.document.lineAt(editor.document.lineCount - 1).range.end, '\n\nLine two'));
      prompter.inputs = [undefined];
      await vscode.commands.executeCommand('workbench.action.closeActiveEditor');
      assert.strictEqual(await run, undefined);
      const back = prompter.asked.at(-1);
      assert.strictEqual(back?.value, 'Line one Line two');
      assert.match(back?.prompt ?? '', /^Written in the editor \(2 lines, \d+ \/ 2,048 characters\)\. Enter uses it as written; typing here joins it into one line\.$/, back?.prompt);
      assert.deepStrictEqual(back?.selection, [17, 17], 'the cursor after the text, nothing selected: a key typed does not replace the prompt');
    });

    it('the prompt editor says how to finish: a line above the text offers Use Prompt (Ctrl+Enter) and going back with the text kept', async () => {
      const prompter = new RecordingPrompter();
      prompter.inputs = ['Lens plan', pressButton('editor', '')];
      prompter.picks = ['Freestyle'];
      s.prompter.current = prompter;
      const run = Promise.resolve(vscode.commands.executeCommand('contentDocs.documentNew'));
      const editor = await until('the prompt editor', () => promptEditor());
      assert.strictEqual(editor.document.getText(), '', 'it opens empty');
      const lenses = await until('the lines above the text', async () => {
        const found = await vscode.commands.executeCommand<vscode.CodeLens[]>('vscode.executeCodeLensProvider', editor.document.uri);
        return found?.length ? found : undefined;
      });
      const titles = lenses.map((l) => l.command?.title ?? '');
      assert.deepStrictEqual(lenses.map((l) => l.range.start.line), lenses.map(() => 0), 'above the first line');
      assert.ok(titles.some((t) => /Use Prompt \(Ctrl\+Enter\)/.test(t)), titles.join(' | '));
      assert.ok(titles.some((t) => /Back to New Document… \(closes this tab, keeps the text\)/.test(t)), titles.join(' | '));
      assert.strictEqual(lenses.find((l) => /Use Prompt/.test(l.command?.title ?? ''))?.command?.command, CMD.documentPromptUse);
      await screenshot('document-new-prompt-editor-empty');
      prompter.inputs = [undefined];
      await vscode.commands.executeCommand('workbench.action.closeActiveEditor');
      assert.strictEqual(await run, undefined);
    });

    it('Escape in the one-line box keeps what was typed for the next New Document…; once created, the next starts empty', async () => {
      const prompter = new RecordingPrompter();
      prompter.inputs = ['Kept plan', escapeWith('A prompt typed, then Escape')];
      prompter.picks = ['Freestyle'];
      s.prompter.current = prompter;
      sandbox.resetRequests();
      assert.strictEqual(await vscode.commands.executeCommand('contentDocs.documentNew'), undefined);
      prompter.reset();
      prompter.inputs = ['Kept plan'];
      prompter.picks = ['Freestyle', 'Original'];
      prompter.answer = (q) => (q.title.includes('Prompt') ? q.value : undefined);
      const doc = await vscode.commands.executeCommand<{ id: number } | undefined>('contentDocs.documentNew');
      assert.ok(doc, 'created');
      assert.strictEqual(prompter.asked[2].value, 'A prompt typed, then Escape');
      assert.strictEqual(stores()[0]?.body?.prompt, 'A prompt typed, then Escape', 'one line: sent as typed');
      prompter.reset();
      prompter.inputs = ['Next plan'];
      prompter.picks = ['Freestyle'];
      await vscode.commands.executeCommand('contentDocs.documentNew');
      assert.strictEqual(prompter.asked[2].value, '', 'nothing kept once a document was created');
    });

    it('a prompt editor VS Code restores after a reload shows the text the window kept; Use Prompt starts a New Document… with it, closing it keeps it for the next', async () => {
      // What a reload leaves: the window's workspaceState holds the text of the prompt editor that was open, VS Code
      // restores its tab at the same address, and this window's prompt file system has never seen that address.
      const text = 'Restored plan.\n\n- kept across a reload';
      const uri = vscode.Uri.from({ scheme: PROMPT_SCHEME, path: '/New Document Prompt.md', query: 'restored1' });
      await s.workspaceState.update('contentDocs.promptDraft', { uri: uri.toString(), text });
      const editor = await vscode.window.showTextDocument(uri, { preview: false });
      assert.strictEqual(editor.document.getText(), text, 'the restored tab shows the kept text');
      const count = `${documentPromptLength(text)} / 2,048`;
      await until(`the status bar says ${count}`, async () => (await read(COUNT)).text.includes(count) || undefined);
      // Written on: the window keeps the new text.
      await editor.edit((b) => b.insert(editor.document.lineAt(editor.document.lineCount - 1).range.end, ' and written on'));
      const written = `${text} and written on`;
      await until('the window keeps the text as written', () => s.workspaceState.get<{ text: string }>('contentDocs.promptDraft')?.text === written || undefined);
      await screenshot('document-new-prompt-restored');

      // Use Prompt: the tab closes and a New Document… starts, its prompt box holding the text.
      const prompter = new RecordingPrompter();
      prompter.inputs = ['Restored plan doc'];
      prompter.picks = ['Freestyle', 'Original'];
      prompter.answer = (q) => (q.title.includes('Prompt') ? q.value : undefined);
      s.prompter.current = prompter;
      sandbox.resetRequests();
      const created = new Promise<{ id: number }>((resolve) => {
        const sub = s.documents.onDidCreate((d: { id: number }) => {
          sub.dispose();
          resolve(d);
        });
      });
      assert.strictEqual(await vscode.commands.executeCommand(CMD.documentPromptUse), true);
      await until('the restored tab closed', () => promptTabs().length === 0 || undefined);
      const doc = await created;
      assert.strictEqual(prompter.asked[2].title, 'New Document: Prompt');
      assert.strictEqual(prompter.asked[2].value, written.replace(/\s+/g, ' ').trim(), 'the prompt box holds the restored text');
      assert.strictEqual(sandbox.documents.get(doc.id)?.prompt, '<p>Restored plan.</p><ul><li>kept across a reload and written on</li></ul>', 'its lines as written');
      assert.strictEqual(s.workspaceState.get('contentDocs.promptDraft'), undefined, 'the window keeps nothing once it is used');

      // Closing a restored tab instead: the next New Document… starts with its text.
      const again = vscode.Uri.from({ scheme: PROMPT_SCHEME, path: '/New Document Prompt.md', query: 'restored2' });
      await s.workspaceState.update('contentDocs.promptDraft', { uri: again.toString(), text: 'Closed, not lost' });
      await vscode.window.showTextDocument(again, { preview: false });
      await vscode.commands.executeCommand('workbench.action.closeActiveEditor');
      await until('the window keeps nothing once it is closed', () => s.workspaceState.get('contentDocs.promptDraft') === undefined || undefined);
      prompter.reset();
      prompter.inputs = ['Next plan'];
      prompter.picks = ['Freestyle', 'Original'];
      prompter.answer = (q) => (q.title.includes('Prompt') ? q.value : undefined);
      const next = await vscode.commands.executeCommand<{ id: number } | undefined>('contentDocs.documentNew');
      assert.strictEqual(prompter.asked[2].value, 'Closed, not lost', 'the closed tab\'s text is the next prompt');
      assert.ok(next, 'created');
      assert.strictEqual(sandbox.documents.get(next.id)?.prompt, 'Closed, not lost');

      // An address the window kept nothing for is not made up: VS Code says it cannot open it.
      await assert.rejects(
        Promise.resolve(vscode.workspace.fs.readFile(vscode.Uri.from({ scheme: PROMPT_SCHEME, path: '/New Document Prompt.md', query: 'unknown' }))),
        /not found|EntryNotFound|FileNotFound/i,
      );
    });

    it('a restored prompt tab VS Code has not shown yet (behind another tab) gives its text to the next New Document…, whose own editor then keeps it', async () => {
      const text = 'Written before the reload, behind another tab.';
      const uri = vscode.Uri.from({ scheme: PROMPT_SCHEME, path: '/New Document Prompt.md', query: 'behind1' });
      await s.workspaceState.update('contentDocs.promptDraft', { uri: uri.toString(), text });
      // What a reload leaves when the prompt's tab was not the active one: a tab in its group, never read.
      await vscode.window.showTextDocument(await vscode.workspace.openTextDocument({ language: 'plaintext' }), { preview: false });
      await vscode.commands.executeCommand('vscode.open', uri, { background: true, preview: false });
      const isIt = (t: vscode.Tab) => t.input instanceof vscode.TabInputText && t.input.uri.toString() === uri.toString();
      await until('the restored tab', () => promptTabs().some(isIt) || undefined);
      assert.ok(!vscode.workspace.textDocuments.some((d) => d.uri.toString() === uri.toString()), 'the restored tab was never read');

      const prompter = new RecordingPrompter();
      prompter.inputs = ['Behind plan'];
      prompter.picks = ['Freestyle', 'Original'];
      prompter.answer = (q) => (q.title.includes('Prompt') ? pressButton('editor', q.value) : undefined);
      s.prompter.current = prompter;
      const run = Promise.resolve(vscode.commands.executeCommand<{ id: number } | undefined>('contentDocs.documentNew'));
      const editor = await until('the prompt editor', () => promptEditor());
      assert.strictEqual(prompter.asked[2].value, text, 'the prompt box held the restored tab\'s text');
      assert.strictEqual(editor.document.getText(), text);
      await until('the restored tab closed', () => !promptTabs().some(isIt) || undefined);
      await editor.edit((b) => b.insert(editor.document.lineAt(editor.document.lineCount - 1).range.end, ' And more.'));
      assert.strictEqual(await vscode.commands.executeCommand(CMD.documentPromptUse, editor.document.uri), true, `active: ${vscode.window.activeTextEditor?.document.uri.toString()}, messages: ${messages.shown.map((m) => m.message).join(' | ')}`);
      const doc = await run;
      assert.ok(doc, 'created');
      assert.strictEqual(sandbox.documents.get(doc.id)?.prompt, `${text} And more.`);
      assert.strictEqual(s.workspaceState.get('contentDocs.promptDraft'), undefined, 'the window keeps nothing once it is used');
    });

    it('the window keeps each change of the prompt at once: a reload right after a keystroke finds it', async () => {
      const prompter = new RecordingPrompter();
      prompter.inputs = ['Kept at once', pressButton('editor', 'First words')];
      prompter.picks = ['Freestyle', 'Original'];
      s.prompter.current = prompter;
      const run = Promise.resolve(vscode.commands.executeCommand<{ id: number } | undefined>('contentDocs.documentNew'));
      const editor = await until('the prompt editor', () => promptEditor());
      const kept = () => s.workspaceState.get<{ uri: string; text: string }>('contentDocs.promptDraft');
      assert.strictEqual(kept()?.text, 'First words', 'kept from the start');
      assert.strictEqual(kept()?.uri, editor.document.uri.toString());
      for (const more of [' and', ' more', ' words']) {
        await editor.edit((b) => b.insert(editor.document.lineAt(editor.document.lineCount - 1).range.end, more));
        assert.strictEqual(kept()?.text, editor.document.getText(), 'kept as soon as written');
      }
      assert.strictEqual(await vscode.commands.executeCommand(CMD.documentPromptUse), true);
      assert.ok(await run, 'created');
      assert.strictEqual(kept(), undefined, 'nothing kept once it is used');
    });
  });

  describe('the Documents view follows the active document', () => {
    /** The document rows selected in the Documents view. */
    const selectedDocs = () =>
      (s.documentsTree.treeView?.selection ?? []).filter((n: DocNode): n is DocumentNode => n.kind === 'document');
    const listRequests = () => sandbox.requests.filter((r) => r.route === 'documents.list').length;

    let previousInterval = 0;

    before(async () => {
      await vscode.commands.executeCommand('workbench.action.closeAllEditors');
      // The view on screen counts each template in the background: counted at once, and waited for, so that the
      // requests these tests count are the reveal's (none) and the commands' own.
      previousInterval = s.documentsTree.model.countIntervalMs;
      s.documentsTree.model.countIntervalMs = 0;
      s.documentsTree.model.setSearch(undefined);
      s.documentsTree.model.refresh();
      await vscode.commands.executeCommand('workbench.view.extension.contentDocs');
      const view = s.documentsTree.treeView!;
      await until('the Documents view visible', () => view.visible);
      // All Documents' first page loaded, and shown (the workbench renders the root first: reveal once it has).
      const all = s.documentsTree.model.allGroup;
      await s.documentsTree.load(all);
      for (let i = 0; ; i++) {
        try {
          await view.reveal(all, { expand: true, select: true, focus: false });
          break;
        } catch (e) {
          if (i >= 20) throw e;
          await sleep(100);
        }
      }
      await until('the templates counted', () => s.documentsTree.model.counting.state === 'done' || undefined, 30_000);
    });

    after(async () => {
      s.documentsTree.model.countIntervalMs = previousInterval;
      await configure('documents.revealActive', undefined).catch(() => undefined);
      await vscode.commands.executeCommand('workbench.action.closeAllEditors');
      // A Documents view left on screen reads its counts in the background: the next suites' requests would include them.
      await vscode.commands.executeCommand('workbench.action.closeSidebar');
    });

    it('Go to Document: the opened document\'s row is selected where it is loaded (All Documents), with no request for it', async () => {
      const newest = [...sandbox.documents.values()].sort((a, b) => b.id - a.id)[0];
      assert.ok(!selectedDocs().some((n) => n.doc.id === newest.id), 'not selected before');
      sandbox.resetRequests();
      const done = vscode.commands.executeCommand('contentDocs.documentGoTo');
      // The empty query lists the newest documents, which the box shows: Enter opens the first.
      await until('the first listing', () => sandbox.requests.some((r) => r.route === 'documents.list' && r.status === 200));
      await quickPickRowInFocus();
      await sleep(300);
      await press('Enter');
      await done;
      const row = await until('the row revealed and selected', () => selectedDocs().find((n) => n.doc.id === newest.id), 20_000);
      assert.strictEqual(row.parent.kind, 'all', 'the loaded row (All Documents)');
      assert.strictEqual(listRequests(), 1, 'only Go to Document\'s own listing: nothing read to reveal');
      assert.notStrictEqual(vscode.window.activeTextEditor?.document.uri.scheme, undefined, 'the editor keeps the focus');
    });

    it('New Document: the created document\'s row is selected (placed in the loaded All Documents), with no request for it', async () => {
      const prompter = new RecordingPrompter();
      prompter.answer = (q) =>
        q.title === 'New Document: Name' ? 'Revealed when created' : q.title.includes('Template') ? 'Blog post' : q.title.includes('Prompt') ? 'A short note' : q.title.includes('Creativity') ? 'Original' : undefined;
      s.prompter.current = prompter;
      sandbox.resetRequests();
      const doc = await vscode.commands.executeCommand<{ id: number } | undefined>('contentDocs.documentNew');
      assert.ok(doc, 'created');
      const row = await until('the new row revealed and selected', () => selectedDocs().find((n) => n.doc.id === doc.id));
      assert.strictEqual(row.parent.kind, 'all');
      assert.strictEqual(listRequests(), 0, 'nothing read to reveal it');
      await screenshot('document-new-revealed');
    });

    it('a document in no loaded list is not revealed and nothing is read for it; with contentDocs.documents.revealActive off, nothing is revealed', async () => {
      const loaded = new Set((await s.documentsTree.load(s.documentsTree.model.allGroup)).flatMap((n) => (n.kind === 'document' ? [n.doc.id] : [])));
      const old = [...sandbox.documents.values()].sort((a, b) => a.id - b.id).find((d) => !loaded.has(d.id) && d.templateId !== null && d.templateId <= 52)!;
      const before = selectedDocs().map((n) => n.doc.id);
      sandbox.resetRequests();
      await vscode.commands.executeCommand('contentDocs.documentOpen', { id: old.id });
      await until('the old document open', () => vscode.window.activeTextEditor?.document.uri.authority.split('.')[0] === String(old.id) || undefined);
      await sleep(800);
      assert.deepStrictEqual(selectedDocs().map((n) => n.doc.id), before, 'the selection stays');
      assert.strictEqual(listRequests(), 0, 'no page read to find it');

      await configure('documents.revealActive', false);
      const second = [...loaded][3];
      sandbox.resetRequests();
      await vscode.commands.executeCommand('contentDocs.documentOpen', { id: second });
      await until('the loaded document open', () => vscode.window.activeTextEditor?.document.uri.authority.split('.')[0] === String(second) || undefined);
      await sleep(800);
      assert.deepStrictEqual(selectedDocs().map((n) => n.doc.id), before, 'not revealed with the setting off');
      await configure('documents.revealActive', undefined);
      // Back on: switching to that tab again reveals it, as the Explorer does.
      await vscode.commands.executeCommand('workbench.action.openPreviousRecentlyUsedEditor');
      await vscode.commands.executeCommand('contentDocs.documentOpen', { id: second });
      await until('revealed once the setting is on again', () => selectedDocs().find((n) => n.doc.id === second));
    });
  });
});
