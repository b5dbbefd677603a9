/**
 * Bad input, inside the real extension host against the sandbox over real HTTP. Each case is either
 * handled correctly end to end (what the server stores is what was meant, and reads back the same), or
 * refused before anything is sent, with a message that says what is allowed:
 *
 * - texts and names with emoji, right-to-left text, combining characters, NUL; 20,480 characters
 *   exactly (saved) and one more (refused), counted as the server counts them (code points);
 * - unusual names and texts coming from the server (dot names, slashes, control characters, blank);
 * - New Document with unusual input;
 * - project names with space, %, #, ?, /, non-ASCII, "." and "..";
 * - searches with LIKE wildcards, "0", emoji and RTL;
 * - page sizes, sorts, creativity and timeouts outside their sets, from settings or arguments;
 * - API keys that are empty, or have spaces, line breaks or control characters.
 */
import * as assert from 'assert';
import * as vscode from 'vscode';
import type { TestServices } from '../kit/services';
import { isolateName } from '../../src/tree/bidi';
import type { Exchange } from '../../src/api/index';
import { startSandbox, type RequestRecord, type Sandbox, type SandboxDocument } from '../sandbox/server';
import {
  closeAll,
  configure,
  DocumentPool,
  editorOf,
  ExchangeCounter,
  MessageCapture,
  openDocument,
  RecordingPrompter,
  RejectionWatch,
  replaceAll,
  SaveErrors,
  services,
  sleep,
  Tally,
  until,
  type AnyNode,
} from './reliabilityKit';

let sandbox: Sandbox;
let s: TestServices;
let pool: DocumentPool;
const prompter = new RecordingPrompter();
const messages = new MessageCapture();
const watch = new RejectionWatch();
let exchanges: ExchangeCounter;
let saveErrors: SaveErrors;
const tally = new Tally('bad input');
let handled = 0;
let refused = 0;

function codePoints(t: string): number {
  return [...t].length;
}

/** A case handled end to end. */
async function handledCase(name: string, body: () => Promise<void>): Promise<void> {
  await tally.run(name, body);
  handled++;
}

/** The requests and exchanges a refused case names as its own (by default: every one of the method, or all). */
interface Named {
  request: (r: RequestRecord) => boolean;
  exchange: (e: Exchange) => boolean;
}

/** A case refused before sending: `body` must not cause a request of `method` (any, without one), or none `named`. */
async function refusedCase(name: string, body: () => Promise<string>, allowed: RegExp, method?: string, named?: () => Named): Promise<void> {
  await tally.run(name, async () => {
    exchanges.reset();
    const before = sandbox.requests.length;
    const message = await body();
    assert.match(message, allowed, `the refusal says what is allowed: ${JSON.stringify(message)}`);
    const mine = named?.();
    const sent = sandbox.requests.slice(before).filter((r) => (!method || r.method === method) && (!mine || mine.request(r)));
    const attempted = exchanges.exchanges.filter((e) => (!method || e.method === method) && (!mine || mine.exchange(e)));
    assert.deepStrictEqual(sent.map((r) => `${r.method} ${r.path}`), [], 'nothing was sent');
    assert.deepStrictEqual(attempted.map((e) => `${e.method} ${e.path}`), [], 'nothing was attempted');
  });
  refused++;
}

async function saveText(d: SandboxDocument, text: string): Promise<vscode.TextEditor> {
  const editor = await openDocument(d.id);
  await replaceAll(editor, text);
  return editor;
}

/** The row of a document in its template group, loading more pages until it shows. */
async function rowOf(id: number, templateId: number): Promise<{ node: AnyNode; item: vscode.TreeItem } | undefined> {
  const group = s.documentsTree.templateGroup(templateId);
  if (!group) return undefined;
  for (let i = 0; i < 40; i++) {
    const children = (await s.documentsTree.getChildren(group)) as unknown as AnyNode[];
    const node = children.find((n) => n.kind === 'document' && (n.doc as { id: number }).id === id);
    if (node) return { node, item: s.documentsTree.getTreeItem(node as never) };
    const more = children.find((n) => n.kind === 'loadMore');
    if (!more) return undefined;
    await s.documentsTree.model.loadMore(more as never);
  }
  return undefined;
}

function labelOf(item: vscode.TreeItem): string {
  return typeof item.label === 'string' ? item.label : (item.label?.label ?? '');
}

describe('reliability: bad input', function () {
  this.timeout(60_000);
  let savedPrompter: TestServices['prompter']['current'] | undefined;

  before(async () => {
    sandbox = await startSandbox({ rateLimit: 0, seoRateLimit: 0, storeDelayMs: 0 });
    s = await services();
    pool = new DocumentPool(sandbox);
    await configure('documents.baseUrl', sandbox.docsUrl);
    await configure('projects.baseUrl', sandbox.seoUrl);
    await s.credentials.setKey(sandbox.key);
    savedPrompter = s.prompter.current;
    s.prompter.current = prompter;
    messages.install();
    watch.install();
    exchanges = new ExchangeCounter(s);
    saveErrors = new SaveErrors(s);
  });

  after(async () => {
    saveErrors?.dispose();
    exchanges?.dispose();
    messages.dispose();
    watch.dispose();
    if (savedPrompter) s.prompter.current = savedPrompter;
    await closeAll();
    for (const k of ['documents.pageSize', 'projects.pageSize', 'documents.defaultSort', 'files.language', 'network.timeoutSeconds']) await configure(k, undefined);
    await s.credentials.setKey(sandbox.key);
    await sandbox?.close();
  });

  afterEach(async () => {
    sandbox.clearFaults();
    prompter.reset();
    messages.dismissAll();
    await closeAll();
  });

  // --- texts ---------------------------------------------------------------------------------------

  const texts: Array<[string, string]> = [
    ['emoji (astral, ZWJ sequences, flags)', 'Launch day 🚀 with the whole family 👩‍👩‍👧‍👦, flags 🇩🇪🇯🇵 and skin tones 👍🏽.'],
    ['right-to-left text', 'مرحبا بالعالم — النص العربي\nשלום עולם, עם English באמצע.'],
    ['combining characters', 'Cafe\u0301, nai\u0308ve, Z\u0324\u0308a\u0327lgo, Ha\u0308agen-Dazs.'],
    ['mixed scripts and symbols', '日本語のテキスト · Ελληνικά · Русский · ∑∞≠ · \u200b zero-width · tab\there'],
    ['20,480 characters of emoji exactly (40,960 UTF-16 units)', '🚀'.repeat(20_480)],
    ['20,480 characters with combining marks exactly', 'e\u0301'.repeat(10_240)],
  ];
  for (const [what, text] of texts) {
    it(`a text with ${what} is saved and reads back the same`, async () => {
      await handledCase(`text: ${what}`, async () => {
        const d = pool.take();
        const editor = await saveText(d, text);
        assert.strictEqual(await editor.document.save(), true, 'saved');
        assert.strictEqual(sandbox.documents.get(d.id)!.result, text.trim());
        assert.ok(codePoints(sandbox.documents.get(d.id)!.result!) <= 20_480);
        const back = Buffer.from(await vscode.workspace.fs.readFile(editor.document.uri)).toString('utf8');
        assert.strictEqual(back, text.trim(), 'reads back the same');
      });
    });
  }

  it('a text of 20,481 characters (emoji) is refused before sending, saying the limit', async () => {
    await refusedCase(
      'text: 20,481 characters',
      async () => {
        const d = pool.take();
        const editor = await saveText(d, '🚀'.repeat(20_481));
        const n = saveErrors.errors.length;
        assert.strictEqual(await editor.document.save(), false);
        assert.strictEqual(editor.document.isDirty, true, 'the text stays in the editor');
        assert.strictEqual(codePoints(editor.document.getText()), 20_481);
        return saveErrors.errors.slice(n).pop()?.message ?? '';
      },
      /longer than 20,480 characters \(20,481\)/,
      'PATCH',
    );
  });

  it('a text with a NUL character is refused before sending, saying why', async () => {
    await refusedCase(
      'text: NUL',
      async () => {
        const d = pool.take();
        const editor = await saveText(d, 'before\u0000after');
        const n = saveErrors.errors.length;
        assert.strictEqual(await editor.document.save(), false);
        assert.strictEqual(editor.document.getText(), 'before\u0000after', 'the text stays in the editor');
        return saveErrors.errors.slice(n).pop()?.message ?? '';
      },
      /cannot contain a NUL character/,
      'PATCH',
    );
  });

  // --- names (Rename…) -------------------------------------------------------------------------------

  const names: Array<[string, string]> = [
    ['emoji', 'Plan 🚀 for 👩‍👩‍👧'],
    ['right-to-left text', 'خطة الربع الثالث'],
    ['combining characters', 'Re\u0301sume\u0301 nai\u0308ve'],
    ['a slash and a backslash', 'Q3/Q4 plan \\ draft'],
    ['percent, hash and question mark', '100% sure? #1 & more'],
    ['128 characters of emoji exactly', '😀'.repeat(128)],
  ];
  for (const [what, name] of names) {
    it(`a name with ${what} is renamed to, listed, and opens`, async () => {
      await handledCase(`name: ${what}`, async () => {
        const d = pool.take();
        await s.documents.fetch(d.id);
        prompter.answer = (q) => (q.kind === 'input' ? name : undefined);
        await vscode.commands.executeCommand('contentDocs.documentRename', { id: d.id });
        assert.deepStrictEqual(prompter.validationProblems, []);
        await until('the rename on the server', () => sandbox.documents.get(d.id)!.name === name);
        await vscode.commands.executeCommand('contentDocs.documentsRefresh');
        const row = await rowOf(d.id, d.templateId!);
        assert.ok(row, 'listed in its group');
        // The name as is; one holding right-to-left text between FSI and PDI, so its word count stays beside it.
        assert.strictEqual(labelOf(row.item), isolateName(name), 'the row shows the name as is (isolated when right-to-left)');
        const editor = await openDocument(d.id);
        assert.strictEqual(editor.document.getText(), d.result);
        assert.strictEqual(editor.document.uri.path.split('/').length, 4, `the name is one path segment, after the host and template folders: ${editor.document.uri.path}`);
      });
    });
  }

  it('a name of 129 characters is refused by the input box, saying the limit', async () => {
    await refusedCase(
      'name: 129 characters',
      async () => {
        const d = pool.take();
        await s.documents.fetch(d.id);
        prompter.answer = (q) => (q.kind === 'input' ? '😀'.repeat(129) : undefined);
        await vscode.commands.executeCommand('contentDocs.documentRename', { id: d.id });
        assert.strictEqual(sandbox.documents.get(d.id)!.name, d.name);
        return prompter.validationProblems[0] ?? '';
      },
      /at most 128 characters \(this one has 129\)/,
      'PATCH',
    );
  });

  it('a name with a NUL character is refused before sending, saying why', async () => {
    await refusedCase(
      'name: NUL',
      async () => {
        const d = pool.take();
        await s.documents.fetch(d.id);
        const t = Date.now();
        prompter.answer = (q) => (q.kind === 'input' ? 'Bad\u0000name' : undefined);
        await vscode.commands.executeCommand('contentDocs.documentRename', { id: d.id });
        assert.strictEqual(sandbox.documents.get(d.id)!.name, d.name);
        const m = prompter.validationProblems[0] ?? (await until('the refusal', () => messages.since(t).find((x) => x.level !== 'info')))?.message;
        return m ?? '';
      },
      /NUL/,
      'PATCH',
    );
  });

  // --- names and texts the server sends ------------------------------------------------------------

  const fromServer: Array<[string, Partial<SandboxDocument>]> = [
    ['a name starting with a dot', { name: '.env backup' }],
    ['a name that is only dots', { name: '...' }],
    ['a name with a NUL and control characters', { name: 'Tab\there\u0000nul\u0007bell' }],
    ['a blank name', { name: '   ' }],
    ['a name with slashes', { name: '../../etc/passwd' }],
    ['a text with a NUL and CRLF line ends', { result: 'Line one\r\nLine\u0000two\r\n' }],
    ['a null text', { result: null }],
  ];
  for (const [what, patch] of fromServer) {
    it(`a document with ${what} from the server is listed and opens`, async () => {
      await handledCase(`from the server: ${what}`, async () => {
        const d = pool.take();
        Object.assign(sandbox.documents.get(d.id)!, patch);
        const doc = sandbox.documents.get(d.id)!;
        await vscode.commands.executeCommand('contentDocs.documentsRefresh');
        const row = await rowOf(d.id, d.templateId!);
        assert.ok(row, 'listed');
        assert.ok(labelOf(row.item).trim().length > 0, `the row has a readable label: ${JSON.stringify(labelOf(row.item))}`);
        const t = Date.now();
        await vscode.commands.executeCommand('contentDocs.documentOpen', { id: d.id });
        const editor = await until(
          'the editor',
          () => editorOf(d.id) ?? (messages.since(t).find((m) => m.level === 'error') ? false : undefined),
          10_000,
        ).catch(() => undefined);
        const err = messages.since(t).find((m) => m.level === 'error');
        assert.ok(editor, `opens in an editor${err ? `, not: ${err.message}` : ''}`);
        // A NUL shows as U+FFFD: VS Code refuses to open a text with a NUL byte (it takes it for binary).
        const shown = (doc.result ?? '').replace(/\r\n/g, '\n').replace(/\u0000/g, '\uFFFD');
        assert.strictEqual(editor.document.getText().replace(/\r\n/g, '\n'), shown);
        for (const seg of editor.document.uri.path.split('/').filter(Boolean)) {
          assert.ok(seg !== '.' && seg !== '..' && !/[\u0000-\u001f]/.test(seg), `a safe path segment: ${JSON.stringify(seg)}`);
        }
      });
    });
  }

  // --- New Document… ----------------------------------------------------------------------------------

  it('New Document with emoji, RTL and combining characters in name and prompt is created as typed', async () => {
    await handledCase('new document: unusual characters', async () => {
      const name = 'Plan 🚀 خطة Re\u0301sume\u0301';
      const prompt = 'Écris un texte sur 日本語 and عربي with e\u0301 and 👩‍👩‍👧';
      prompter.answer = (q) => {
        if (q.title === 'New Document: Name') return name;
        if (q.title.includes('Template')) return 'Freestyle';
        if (q.title.includes('Prompt')) return prompt;
        if (q.title.includes('Creativity')) return 'Original';
        return undefined;
      };
      await vscode.commands.executeCommand('contentDocs.documentNew');
      const created = await until('the document', () => [...sandbox.documents.values()].find((x) => x.name === name));
      assert.strictEqual(created.prompt, prompt);
      await until('its editor', () => editorOf(created.id));
    });
  });

  it('New Document refuses a NUL in the name before sending, and asks again with the rest kept', async () => {
    await refusedCase(
      'new document: NUL in the name',
      async () => {
        let nameAsked = 0;
        prompter.answer = (q) => {
          if (q.title === 'New Document: Name') return ++nameAsked === 1 ? 'Bad\u0000name' : undefined;
          if (q.title.includes('Template')) return 'Freestyle';
          if (q.title.includes('Prompt')) return 'A prompt';
          if (q.title.includes('Creativity')) return 'Original';
          return undefined;
        };
        const t = Date.now();
        await vscode.commands.executeCommand('contentDocs.documentNew');
        assert.strictEqual(nameAsked, 2, 'the name is asked again');
        const again = prompter.asked.filter((q) => q.title === 'New Document: Name')[1];
        return [again?.prompt ?? '', ...messages.since(t).map((m) => m.message)].join(' | ');
      },
      /cannot contain a NUL character/,
      'POST',
    );
  });

  for (const [what, field, value, allowed] of [
    ['a name of 129 characters', 'New Document: Name', 'n'.repeat(129), /at most 128 characters \(this one has 129\)/],
    ['a prompt of 2,049 characters', 'Prompt', 'p'.repeat(2049), /at most 2,048 characters \(this one has 2,049\)/],
    ['a blank name', 'New Document: Name', '   ', /Enter a name/],
  ] as const) {
    it(`New Document refuses ${what} in its input box, saying the limit`, async () => {
      await refusedCase(
        `new document: ${what}`,
        async () => {
          prompter.answer = (q) => {
            if (q.title.startsWith(field) || q.title.includes(field)) return value;
            if (q.title === 'New Document: Name') return 'Valid name';
            if (q.title.includes('Template')) return 'Freestyle';
            if (q.title.includes('Prompt')) return 'A prompt';
            if (q.title.includes('Creativity')) return 'Original';
            return undefined;
          };
          await vscode.commands.executeCommand('contentDocs.documentNew');
          return prompter.validationProblems[0] ?? '';
        },
        allowed,
        'POST',
      );
    });
  }

  // --- project names ----------------------------------------------------------------------------------

  /** The row of a project (by name, case-insensitively), loading more pages until it shows. */
  async function projectRow(name: string): Promise<AnyNode | undefined> {
    for (let i = 0; i < 20; i++) {
      const children = (await s.projectsTree.getChildren()) as unknown as AnyNode[];
      const row = children.find((n) => n.kind === 'project' && (n.project as { project: string }).project.toLowerCase() === name.toLowerCase());
      if (row) return row;
      if (!children.some((n) => n.kind === 'loadMore')) return undefined;
      await s.projectsTree.model.loadMore();
    }
    return undefined;
  }

  const projectNames = [
    'recipes & more',
    'plus+sign',
    'what? why?',
    'c# tips',
    '100% organic',
    'percent%20literal',
    'shop_front',
    'trailing dot.',
    'café ünïcode',
    'مشروع عربي',
    '日本語プロジェクト',
    'emoji 🚀 rockets',
    'local seo – berlin',
  ];
  for (const name of projectNames) {
    it(`the project "${name}" is deleted exactly (and nothing else)`, async () => {
      await handledCase(`project: ${name}`, async () => {
        await vscode.commands.executeCommand('contentDocs.projectsRefresh');
        const row = await projectRow(name);
        assert.ok(row, `"${name}" is listed`);
        const listed = (row.project as { project: string }).project;
        const others = sandbox.reports.filter((r) => r.project.toLowerCase() !== name.toLowerCase()).length;
        sandbox.resetRequests();
        prompter.confirms = [true];
        await vscode.commands.executeCommand('contentDocs.projectDelete', row);
        assert.ok(prompter.asked.some((q) => q.kind === 'confirm' && q.message!.includes(listed)), 'the confirmation names it');
        const del = sandbox.requests.filter((r) => r.route === 'projects.delete');
        assert.strictEqual(del.length, 1, 'one DELETE');
        assert.strictEqual(decodeURIComponent(del[0].path.split('/').pop()!), listed, `the name travels as one encoded segment: ${del[0].path}`);
        assert.strictEqual(del[0].status, 200);
        assert.ok(!sandbox.reports.some((r) => r.project.toLowerCase() === name.toLowerCase()), 'deleted');
        assert.strictEqual(sandbox.reports.length, others, 'no other project touched');
        assert.strictEqual(await projectRow(name), undefined, 'the row went away');
      });
    });
  }

  for (const [name, allowed] of [
    ['a/b testing', /contain(s|ing)? "\/"/],
    ['..', /cannot address a project named "\.\."/],
    ['.', /cannot address a project named "\."/],
  ] as const) {
    it(`the project "${name}" is refused before sending, saying why`, async () => {
      if (!sandbox.reports.some((r) => r.project === name)) {
        sandbox.reports.push({ id: 900_000 + sandbox.reports.length, project: name, result: 50, createdAt: new Date() });
      }
      await refusedCase(
        `project: ${name}`,
        async () => {
          prompter.answer = (q) => (q.title.includes('Search Projects') ? name : undefined);
          await vscode.commands.executeCommand('contentDocs.projectsSearch');
          const row = await projectRow(name);
          assert.ok(row, `"${name}" is listed`);
          const t = Date.now();
          prompter.confirms = [true];
          await vscode.commands.executeCommand('contentDocs.projectDelete', row);
          await sleep(100);
          assert.ok(sandbox.reports.some((r) => r.project === name), 'still there');
          assert.ok(await projectRow(name), 'still listed');
          await vscode.commands.executeCommand('contentDocs.projectsClearSearch');
          return messages.since(t).map((m) => m.message).join(' | ');
        },
        allowed,
        'DELETE',
      );
    });
  }

  // --- searches --------------------------------------------------------------------------------------

  for (const [what, text, expect] of [
    ['a literal %', '50%', (n: string) => n.includes('50%')],
    ['a literal _', 'shop_front', (n: string) => n.toLowerCase().includes('shop_front')],
    ['"0"', '0', (n: string) => n.includes('0')],
    ['right-to-left text', 'שלום', (n: string) => n.includes('שלום')],
    ['CJK text', '日本語', (n: string) => n.includes('日本語')],
  ] as const) {
    it(`a document search for ${what} matches literally`, async () => {
      await handledCase(`search: ${what}`, async () => {
        if (text === 'shop_front') {
          const d = pool.take();
          sandbox.documents.get(d.id)!.name = 'Shop_front notes';
          const e = pool.take();
          sandbox.documents.get(e.id)!.name = 'ShopXfront decoy';
        }
        prompter.answer = (q, items) => (q.kind === 'pick' ? items![0].label : q.title.includes('Search Documents') ? text : undefined);
        sandbox.resetRequests();
        await vscode.commands.executeCommand('contentDocs.documentsSearch');
        const group = s.documentsTree.searchGroup;
        assert.ok(group, 'a search results group');
        const all: string[] = [];
        for (let i = 0; i < 20; i++) {
          const children = (await s.documentsTree.getChildren(group)) as unknown as AnyNode[];
          all.splice(0, all.length, ...children.filter((n) => n.kind === 'document').map((n) => (n.doc as { name: string }).name));
          const more = children.find((n) => n.kind === 'loadMore');
          if (!more) break;
          await s.documentsTree.model.loadMore(more as never);
        }
        const expected = [...sandbox.documents.values()].filter((d) => expect(d.name)).length;
        assert.ok(expected > 0, 'the seed has matches');
        assert.strictEqual(all.length, expected, `every match, and only matches: ${all.slice(0, 5).join(', ')}`);
        assert.ok(all.every((n) => expect(n)), `only literal matches: ${all.filter((n) => !expect(n)).join(', ')}`);
        await vscode.commands.executeCommand('contentDocs.documentsClearSearch');
      });
    });
  }

  it('a project search for "100%" matches literally', async () => {
    await handledCase('search: projects, literal %', async () => {
      prompter.answer = (q) => (q.title.includes('Search Projects') ? '100%' : undefined);
      await vscode.commands.executeCommand('contentDocs.projectsSearch');
      const children = (await s.projectsTree.getChildren()) as unknown as AnyNode[];
      const names = children.filter((n) => n.kind === 'project').map((n) => (n.project as { project: string }).project);
      const expected = new Set(sandbox.reports.filter((r) => r.project.includes('100%')).map((r) => r.project.toLowerCase()));
      assert.strictEqual(names.length, expected.size, `only literal matches: ${names.join(', ')}`);
      await vscode.commands.executeCommand('contentDocs.projectsClearSearch');
    });
  });

  // --- settings and arguments outside their sets --------------------------------------------------------

  for (const [what, key, value, check] of [
    ['documents.pageSize 20', 'documents.pageSize', 20, (q: Record<string, string>) => q.per_page === '50'],
    ['documents.pageSize "abc"', 'documents.pageSize', 'abc', (q: Record<string, string>) => q.per_page === '50'],
    ['documents.pageSize -5', 'documents.pageSize', -5, (q: Record<string, string>) => q.per_page === '50'],
    ['documents.defaultSort "sideways"', 'documents.defaultSort', 'sideways', (q: Record<string, string>) => q.sort_by === 'id' && q.sort === 'desc'],
  ] as const) {
    it(`the setting ${what} (outside its set) falls back to the default in every request`, async () => {
      await handledCase(`setting: ${what}`, async () => {
        await configure(key, value);
        try {
          await vscode.commands.executeCommand('contentDocs.documentsRefresh');
          sandbox.resetRequests();
          const view = await s.documentsTree.getChildren(s.documentsTree.templateGroup(1));
          assert.ok(view.some((n) => n.kind === 'document'), 'the group lists documents');
          const lists = sandbox.requests.filter((r) => r.route === 'documents.list');
          assert.ok(lists.length >= 1);
          for (const r of lists) assert.ok(check(r.query), `sent ${JSON.stringify(r.query)}`);
          for (const r of lists) assert.ok(['10', '25', '50', '100'].includes(r.query.per_page), `per_page within its set: ${r.query.per_page}`);
        } finally {
          await configure(key, undefined);
        }
      });
    });
  }

  it('the setting projects.pageSize 7 (outside its set) falls back to the default', async () => {
    await handledCase('setting: projects.pageSize 7', async () => {
      await configure('projects.pageSize', 7);
      try {
        await vscode.commands.executeCommand('contentDocs.projectsRefresh');
        sandbox.resetRequests();
        await s.projectsTree.getChildren();
        const lists = sandbox.requests.filter((r) => r.route === 'projects.list');
        assert.ok(lists.length === 1 && lists[0].query.per_page === '50', `sent ${JSON.stringify(lists.map((r) => r.query))}`);
      } finally {
        await configure('projects.pageSize', undefined);
      }
    });
  });

  it('the setting network.timeoutSeconds 0 (below its minimum) waits the minimum, 5 seconds', async () => {
    await handledCase('setting: network.timeoutSeconds 0', async () => {
      await configure('network.timeoutSeconds', 0);
      try {
        const d = pool.take();
        sandbox.setFault('documents.show', { kind: 'hang', count: 1 });
        const t = Date.now();
        await vscode.commands.executeCommand('contentDocs.documentOpen', { id: d.id });
        const m = await until('the timeout message', () => messages.since(t).find((x) => x.level === 'error'), 15_000);
        assert.match(m.message, /did not answer within 5 seconds/);
        assert.ok(Date.now() - t >= 4_900, 'it waited the minimum');
      } finally {
        await configure('network.timeoutSeconds', undefined);
      }
    });
  });

  it('the setting files.language "cobol" (outside its set) opens as Markdown', async () => {
    await handledCase('setting: files.language cobol', async () => {
      await configure('files.language', 'cobol');
      try {
        const editor = await openDocument(pool.take().id);
        assert.match(editor.document.uri.path, /\.md$/);
      } finally {
        await configure('files.language', undefined);
      }
    });
  });

  it('sort commands given arguments outside their sets ask instead, and send only allowed values', async () => {
    await handledCase('arguments: sort commands', async () => {
      for (const [command, arg] of [
        ['contentDocs.documentsSort', 'sideways'],
        ['contentDocs.documentsSort', { value: 'sideways', sortBy: 'created_at', sort: 'up' }],
        ['contentDocs.projectsSort', { sortBy: 'evil', sort: 'up' }],
      ] as const) {
        const asked = prompter.asked.length;
        await vscode.commands.executeCommand(command, arg);
        assert.ok(prompter.asked.slice(asked).some((q) => q.kind === 'pick'), `${command} asks`);
      }
      await vscode.commands.executeCommand('contentDocs.documentsRefresh');
      await vscode.commands.executeCommand('contentDocs.projectsRefresh');
      sandbox.resetRequests();
      await s.documentsTree.getChildren(s.documentsTree.templateGroup(1));
      await s.projectsTree.getChildren();
      for (const r of sandbox.requests) {
        if (r.query.sort !== undefined) assert.ok(['asc', 'desc'].includes(r.query.sort), `sort ${r.query.sort}`);
        if (r.route === 'documents.list' && r.query.sort_by !== undefined) assert.ok(['id', 'name'].includes(r.query.sort_by));
        if (r.route === 'projects.list' && r.query.sort_by !== undefined) assert.ok(['created_at', 'project'].includes(r.query.sort_by));
      }
    });
  });

  for (const [what, call, allowed] of [
    ['per_page 20', () => s.api.get().listDocuments({ perPage: 20 as never }), /per_page: must be one of 10, 25, 50, 100 \(got 20\)/],
    ['per_page "50" (a string)', () => s.api.get().listProjects({ perPage: '50' as never }), /per_page: must be one of 10, 25, 50, 100/],
    ['sort_by created_at on documents', () => s.api.get().listDocuments({ sortBy: 'created_at' as never }), /sort_by: must be one of id, name/],
    ['sort "up"', () => s.api.get().listProjects({ sort: 'up' as never }), /sort: must be one of asc, desc/],
    ['page 0', () => s.api.get().listDocuments({ page: 0 }), /page: must be a whole number of at least 1/],
    ['creativity 0.3', () => s.api.get().storeDocument({ name: 'x', prompt: 'y', creativity: 0.3 as never }), /creativity: must be one of 0 \(Repetitive\), 0\.25 \(Deterministic\), 0\.5 \(Original\), 0\.75 \(Creative\), 1 \(Imaginative\) \(got 0\.3\)/],
    ['creativity "0.5" (a string)', () => s.api.get().storeDocument({ name: 'x', prompt: 'y', creativity: '0.5' as never }), /creativity: must be one of/],
    ['template_id -1', () => s.api.get().storeDocument({ name: 'x', prompt: 'y', creativity: 0.5, templateId: -1 }), /template_id: must be a whole number/],
    ['favorite "true" (a string)', () => s.api.get().updateDocument(1, { favorite: 'true' as never }), /favorite: must be true or false/],
    ['document id 1.5', () => s.api.get().showDocument(1.5), /id: must be a whole number/],
  ] as const) {
    it(`the API refuses ${what} before sending, saying what is allowed`, async () => {
      await refusedCase(
        `argument: ${what}`,
        async () => {
          try {
            await call();
          } catch (e) {
            assert.strictEqual((e as { kind?: string }).kind, 'validation');
            return (e as Error).message;
          }
          throw new Error('not refused');
        },
        allowed,
      );
    });
  }

  // --- keys --------------------------------------------------------------------------------------------

  for (const [what, key, allowed] of [
    ['an empty key', '', /cannot be empty/],
    ['a blank key', '   \t ', /cannot be empty/],
    ['a key with a space', 'sandbox-key 0123456789', /cannot contain spaces or line breaks/],
    ['a key with a line break', 'sandbox-key-\n0123456789', /cannot contain spaces or line breaks/],
    ['a key with a control character', 'sandbox-key-\u00070123456789', /control characters/],
    ['a key of 5,000 characters', 'k'.repeat(5000), /too long/],
  ] as const) {
    it(`Set API Key refuses ${what} before sending, saying what is allowed`, async () => {
      await refusedCase(
        `key: ${what}`,
        async () => {
          prompter.answer = (q) => (q.kind === 'input' && /API Key/i.test(q.title) ? key : undefined);
          await vscode.commands.executeCommand('contentDocs.signIn');
          assert.strictEqual(await s.credentials.getKey(), sandbox.key, 'the stored key is unchanged');
          return prompter.validationProblems[0] ?? '';
        },
        allowed,
      );
    });
  }

  it('Set API Key trims spaces around a valid key, checks it, and stores it trimmed', async () => {
    await handledCase('key: spaces around', async () => {
      await s.credentials.clearKey();
      prompter.answer = (q) => (q.kind === 'input' && /API Key/i.test(q.title) ? `  ${sandbox.key}\n` : undefined);
      sandbox.resetRequests();
      await vscode.commands.executeCommand('contentDocs.signIn');
      assert.strictEqual(await s.credentials.getKey(), sandbox.key);
      assert.ok(sandbox.requests.every((r) => r.authorizationHeader === `Bearer ${sandbox.key}`), 'the probe sent the trimmed key');
    });
  });

  for (const [what, stored] of [
    // (A line break at the end is trimmed like the Set API Key box does; one inside cannot be.)
    ['with a line break', 'sandbox-key-\n0123456789'],
    ['with a space inside', 'sandbox-key 0123456789'],
  ] as const) {
    it(`a stored key ${what} (another window, an older version) is refused before sending`, async () => {
      let ofStoredKey: object | undefined;
      let id = 0;
      await refusedCase(
        `stored key: ${what}`,
        async () => {
          await s.context.secrets.store('contentDocs.apiKey', stored);
          // The change arrives when the account of the settings is made anew with the stored key (a moment after
          // SecretStorage tells of it): until then, the account of the previous key is the one signed in.
          await until('the key change to arrive', async () => (await s.firstOrNone?.getKey()) === stored);
          ofStoredKey = s.firstOrNone;
          id = pool.take().id;
          try {
            const t = Date.now();
            await vscode.commands.executeCommand('contentDocs.documentOpen', { id });
            const m = await until('the refusal', () => messages.since(t).find((x) => x.level === 'error'));
            assert.ok(m.items.includes('Set API Key'), 'offers to set the key');
            return m.message;
          } finally {
            // Nothing left open to re-read with the restored key while the next case counts requests.
            await vscode.commands.executeCommand('workbench.action.closeAllEditors');
            await s.credentials.setKey(sandbox.key);
          }
        },
        /(spaces|line breaks|control characters).*set it again/,
        undefined,
        // The case's own: any request without the right key, any about the document opened, and every exchange of the
        // account of the stored key (or of none: a key check). The accounts of the right key, the one before the stored
        // key came and the one signed in again at the end, are made anew, and a view on screen reads their rows and
        // counts meanwhile (then the status bar its usage), with the right key: those are not the case's.
        () => ({
          request: (r) => r.authorizationHeader !== `Bearer ${sandbox.key}` || r.path === `/api/v1/documents/${id}`,
          exchange: (e) => {
            const account = exchanges.accountOf(e);
            return account === undefined || account === ofStoredKey || e.path === `/documents/${id}`;
          },
        }),
      );
    });
  }

  it('prints the bad-input counts (every case held)', () => {
    tally.report();
    console.log(`bad input: ${tally.tried} cases tried, ${tally.held} held (${handled} handled end to end, ${refused} refused before sending)`);
    assert.deepStrictEqual(watch.ours, [], 'no unhandled rejection');
    assert.strictEqual(tally.held, tally.tried);
  });
});
