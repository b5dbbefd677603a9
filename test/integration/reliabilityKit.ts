/**
 * The integration suites' shared test kit (first written for the reliability and security suites: faults,
 * badInput, concurrency, security).
 * They run inside the real extension host against the sandbox over real HTTP, and observe the product
 * from the outside as far as the host allows: what it shows (error messages, tree items, the error a
 * save fails with), what it logs, and what reaches the server.
 */
import * as assert from 'assert';
import * as http from 'http';
import type { AddressInfo } from 'net';
import * as vscode from 'vscode';
import { hostOf } from '../../src/accounts/accountNames';
import type { Exchange } from '../../src/api/index';
import type { TestApi } from '../../src/extension';
import { testServices, type TestServices } from '../kit/services';
import type { Back, Pressed, Prompter, StepInputOptions, StepPickOptions, ToggledInput, ToggleInputOptions } from '../../src/ui/prompter';
import type { RequestRecord, Sandbox, SandboxDocument } from '../sandbox/server';

export const EXTENSION_ID = 'content-docs.content-docs';
export const SCHEME = 'content-docs';

let activated: TestServices | undefined;

export async function services(): Promise<TestServices> {
  const api = (await vscode.extensions.getExtension(EXTENSION_ID)!.activate()) as TestApi;
  assert.ok(api?.services, 'the extension returns its services in test mode');
  const s = testServices(api.services);
  // The accounts made by the key and settings heard so far.
  await s.registry.settled();
  return (activated = s);
}

export function sleep(ms: number): Promise<void> {
  return new Promise((r) => setTimeout(r, ms));
}

export async function until<T>(what: string, probe: () => T | undefined | false | Promise<T | undefined | false>, timeoutMs = 10_000): Promise<T> {
  const deadline = Date.now() + timeoutMs;
  for (;;) {
    const v = await probe();
    if (v !== undefined && v !== false) return v;
    if (Date.now() > deadline) throw new Error(`timed out waiting for ${what}`);
    await sleep(25);
  }
}

/** Writes a setting and waits until the extension host sees it (the product reads settings at the point of use). */
export async function configure(key: string, value: unknown, target = vscode.ConfigurationTarget.Global): Promise<void> {
  await vscode.workspace.getConfiguration('contentDocs').update(key, value, target);
  const level = target === vscode.ConfigurationTarget.Global ? 'globalValue' : target === vscode.ConfigurationTarget.Workspace ? 'workspaceValue' : 'workspaceFolderValue';
  await until(`the setting ${key} to be ${JSON.stringify(value)}`, () => {
    const now = (vscode.workspace.getConfiguration('contentDocs').inspect(key) as Record<string, unknown> | undefined)?.[level];
    return JSON.stringify(now) === JSON.stringify(value);
  }, 5_000);
  // Listeners (a server setting change makes another account) run on the same event: let them, and let the account be made.
  await sleep(0);
  await activated?.registry.settled();
}

/** Points the extension at a sandbox (user settings) with the given key (default: the sandbox's own). */
export async function useSandbox(s: TestServices, sandbox: Sandbox, key = sandbox.key): Promise<void> {
  await configure('documents.baseUrl', sandbox.docsUrl);
  await configure('projects.baseUrl', sandbox.seoUrl);
  await s.credentials.setKey(key);
}

/**
 * The settings' account made anew on the same server, under the other label of that server (the server address
 * written with or without a final "/": another address to the extension, the same server to the sandbox). The first
 * time each spelling is used, an account with nothing read or listed yet, as a new one is; the next call goes back to
 * the other spelling, whose label keeps what it listed (a listing is kept per label). For a label never used, sign in
 * with another key of the sandbox (`sandbox.addKey`).
 */
export async function accountAnew(s: TestServices): Promise<void> {
  const url = vscode.workspace.getConfiguration('contentDocs').inspect<string>('documents.baseUrl')?.globalValue ?? '';
  assert.ok(url, 'a server address is set');
  await configure('documents.baseUrl', url.endsWith('/') ? url.replace(/\/+$/, '') : `${url}/`);
  assert.ok(s.firstOrNone, 'signed in to the account made anew');
}

/** A port nothing listens on (bound, then closed): connecting to it is refused. */
export async function closedPort(): Promise<number> {
  const server = http.createServer();
  await new Promise<void>((r) => server.listen(0, '127.0.0.1', () => r()));
  const port = (server.address() as AddressInfo).port;
  await new Promise<void>((r) => server.close(() => r()));
  return port;
}

/** A server that records every request it gets (the "thief": nothing should ever reach it). */
export interface Thief {
  readonly url: string;
  readonly hits: Array<{ method: string; url: string; authorization?: string }>;
  close(): Promise<void>;
}

export async function startThief(): Promise<Thief> {
  const hits: Thief['hits'] = [];
  const sockets = new Set<import('net').Socket>();
  const server = http.createServer((req, res) => {
    hits.push({ method: req.method ?? '', url: req.url ?? '', authorization: req.headers.authorization });
    res.writeHead(200, { 'content-type': 'application/json' });
    res.end('{"data":[],"links":{"next":null},"meta":{"current_page":1,"last_page":1,"total":0},"status":200}');
  });
  server.on('connection', (sock) => {
    sockets.add(sock);
    sock.on('close', () => sockets.delete(sock));
  });
  await new Promise<void>((r) => server.listen(0, '127.0.0.1', () => r()));
  const port = (server.address() as AddressInfo).port;
  return {
    url: `http://127.0.0.1:${port}`,
    hits,
    close: () =>
      new Promise<void>((r) => {
        for (const s of sockets) s.destroy();
        server.close(() => r());
      }),
  };
}

// --- Questions -------------------------------------------------------------------------------------------

export interface Question {
  kind: 'confirm' | 'input' | 'pick';
  title: string;
  message?: string;
  prompt?: string;
  value?: string;
  items?: string[];
  password?: boolean;
  /** In a multi-step input: "step/totalSteps", and whether the question offered Back. */
  step?: string;
  back?: boolean;
  /** In a multi-step Quick Pick: the label Enter takes at first, and each item's description. */
  active?: string;
  descriptions?: string[];
  /** In an input box with toggles: each toggle's state when the box opened. */
  toggles?: Record<string, boolean>;
  /** In a multi-step input box: its own buttons (beside Back), as `id: tooltip`. */
  buttons?: string[];
  /** In a multi-step input box: the part of its value selected when it opens (start, end), when the box says. */
  selection?: readonly [number, number];
}

/** The answer that presses a multi-step question's Back button (queued or given by `answer`). */
export const BACK_BUTTON = '<Back>';

const PRESS = /^<Press ([\w-]+)>([\s\S]*)$/;
/**
 * The answer that presses a multi-step input box's own button `id` (e.g. New Document's "Write in an Editor…") with
 * `typed` in the box (queued or given by `answer`); taken as Escape where the box has no such button.
 */
export function pressButton(id: string, typed = ''): string {
  return `<Press ${id}>${typed}`;
}

const ESCAPE = /^<Escape>([\s\S]*)$/;
/** The answer that presses Escape in a multi-step input box with `typed` in it (the box is told, as on a real Escape). */
export function escapeWith(typed: string): string {
  return `<Escape>${typed}`;
}

/** A queued answer to an input box with toggles: the text typed, and the toggles pressed before Enter (by id). */
export interface ToggledAnswer {
  value: string;
  press?: string[];
}

/** Every readable part of a question (title, message, prompt, prefilled value, items), one per line. */
export function questionText(q: Question): string {
  return [q.title, q.message, q.prompt, q.value, ...(q.items ?? [])].filter((x) => x !== undefined && x !== '').join('\n');
}

/** A queued answer to a Quick Pick: the label to choose, a function choosing among the items, or undefined (Escape). */
export type PickAnswer = string | undefined | ((items: readonly vscode.QuickPickItem[]) => vscode.QuickPickItem | undefined);

/**
 * Answers the extension's questions. Confirmations are DECLINED unless an answer is queued (a test
 * that forgets to queue one can never delete anything by accident); input and pick answers come first
 * from the `inputs` and `picks` queues (consumed in order), then from `answer`, else undefined (cancel).
 * Every question is recorded.
 */
export class RecordingPrompter implements Prompter {
  asked: Question[] = [];
  confirms: boolean[] = [];
  /** Answers to the next input boxes, in order (undefined = Escape). When the queue is empty, `answer` decides. */
  inputs: Array<string | undefined> = [];
  /** Answers to the next Quick Picks, in order. When the queue is empty, `answer` decides. */
  picks: PickAnswer[] = [];
  /**
   * Answers an input (the text) or a pick (the label) no queue answered. `nth` counts the questions with
   * this title asked so far, this one included (1 the first time: a question asked again gets 2).
   */
  answer: (q: Question, items?: readonly vscode.QuickPickItem[], nth?: number) => string | undefined = () => undefined;
  /** Runs validateInput on typed answers and records the problems it reports. */
  validationProblems: string[] = [];
  /**
   * Every Enter in a box that checks what was typed before it closes (inputChecked): the value, and what the check
   * put under the box (undefined: accepted, the box closed).
   */
  checked: Array<{ title: string; value: string; problem: string | undefined }> = [];
  /**
   * Answers to the next input boxes with toggles, in order; when empty, `inputs` then `answer` give the text typed,
   * with no toggle pressed.
   */
  toggled: Array<ToggledAnswer | undefined> = [];

  /**
   * Runs while the next question is open, before it is answered (then cleared): what happens meanwhile elsewhere (a
   * key stored by another window, a setting arriving by Settings Sync). The question waits for it.
   */
  meanwhile: ((q: Question) => Promise<void>) | undefined;

  /** Records a question, then runs (and clears) {@link meanwhile} while it is open. */
  private async asking(q: Question): Promise<void> {
    this.asked.push(q);
    const meanwhile = this.meanwhile;
    this.meanwhile = undefined;
    if (meanwhile) await meanwhile(q);
  }

  async confirm(message: string, detail: string, confirmLabel: string): Promise<boolean> {
    await this.asking({ kind: 'confirm', title: confirmLabel, message: `${message}\n${detail}` });
    return this.confirms.length ? this.confirms.shift()! : false;
  }

  /** Answers to the next ask() questions (a button's label; undefined = Escape). When empty, `confirms` answers: true is the first button. */
  choices: Array<string | undefined> = [];

  async ask(message: string, detail: string, buttons: readonly string[]): Promise<string | undefined> {
    await this.asking({ kind: 'confirm', title: buttons[0] ?? '', message: `${message}\n${detail}`, items: [...buttons] });
    if (this.choices.length) return this.choices.shift();
    return this.confirms.length && this.confirms.shift() ? buttons[0] : undefined;
  }

  async input(o: vscode.InputBoxOptions): Promise<string | undefined> {
    const q: Question = { kind: 'input', title: o.title ?? '', prompt: o.prompt, value: o.value, password: o.password };
    await this.asking(q);
    const a = this.inputs.length ? this.inputs.shift() : this.answer(q, undefined, this.nth(q));
    // A real input box would not accept a refused answer: the user has to fix it or press Escape.
    return a !== undefined && (await this.invalid(o, a)) ? undefined : a;
  }

  /** Whether the box's validateInput refuses an answer (recorded in validationProblems). */
  private async invalid(o: Pick<vscode.InputBoxOptions, 'validateInput'>, a: string): Promise<boolean> {
    if (!o.validateInput) return false;
    const problem = await o.validateInput(a);
    const text = typeof problem === 'string' ? problem : problem?.message;
    if (text) this.validationProblems.push(text);
    return Boolean(text);
  }

  /**
   * A box that stays open until `check` accepts what was typed: each try is a question of its own (so `nth` counts
   * the tries), answered from `inputs`, then `answer`; an answer validateInput refuses is recorded in
   * validationProblems, one the check refuses in `checked`, and the next answer is typed. The answer refused the
   * last time, given again, is taken as Escape (a test that always answers the same would never end).
   */
  async inputChecked(o: vscode.InputBoxOptions, check: (value: string, signal: AbortSignal) => Promise<string | undefined>): Promise<string | undefined> {
    let refused: string | undefined;
    for (;;) {
      const q: Question = { kind: 'input', title: o.title ?? '', prompt: o.prompt, value: refused ?? o.value, password: o.password };
      await this.asking(q);
      const a = this.inputs.length ? this.inputs.shift() : this.answer(q, undefined, this.nth(q));
      if (a === undefined || a === refused) return undefined;
      refused = a;
      if (await this.invalid(o, a)) continue;
      const problem = await check(a, new AbortController().signal);
      this.checked.push({ title: q.title, value: a, problem });
      if (problem === undefined) return a;
    }
  }

  async pick<T extends vscode.QuickPickItem>(items: readonly T[], o: vscode.QuickPickOptions): Promise<T | undefined> {
    const q: Question = { kind: 'pick', title: o.title ?? '', prompt: o.placeHolder, items: items.map((i) => i.label) };
    await this.asking(q);
    if (this.picks.length) {
      const queued = this.picks.shift();
      if (typeof queued === 'function') return queued(items) as T | undefined;
      return queued === undefined ? undefined : items.find((i) => i.label === queued);
    }
    const label = this.answer(q, items, this.nth(q));
    return label === undefined ? undefined : items.find((i) => i.label === label);
  }

  /**
   * A step of a multi-step input: answered as `input`, from `inputs` then `answer`; BACK_BUTTON presses Back (taken as
   * Escape where the step offers no Back: the test asked for something the user could not do).
   */
  async inputStep(o: StepInputOptions): Promise<string | Back | Pressed | undefined> {
    const prompt = o.promptFor ? o.promptFor(o.value ?? '') : o.prompt;
    const q: Question = {
      kind: 'input',
      title: o.title ?? '',
      prompt,
      value: o.value,
      step: `${o.step}/${o.totalSteps}`,
      back: o.step > 1,
      buttons: o.buttons?.map((b) => `${b.id}: ${b.tooltip}`),
      selection: o.valueSelection,
    };
    await this.asking(q);
    const a = this.inputs.length ? this.inputs.shift() : this.answer(q, undefined, this.nth(q));
    if (a === BACK_BUTTON) {
      if (!q.back) return undefined;
      // Back leaves the box as it was opened: what it held is told, as the real box tells what was typed.
      o.onBack?.(o.value ?? '');
      return { back: true };
    }
    const press = a === undefined ? undefined : PRESS.exec(a);
    if (press) return o.buttons?.some((b) => b.id === press[1]) ? { pressed: press[1], value: press[2] } : undefined;
    const escape = a === undefined ? undefined : ESCAPE.exec(a);
    if (escape) {
      o.onCancel?.(escape[1]);
      return undefined;
    }
    return a !== undefined && (await this.invalid(o, a)) ? undefined : a;
  }

  /** A Quick Pick of a multi-step input: answered as `pick`; BACK_BUTTON presses Back. */
  async pickStep<T extends vscode.QuickPickItem>(items: readonly T[], o: StepPickOptions<T>): Promise<T | Back | undefined> {
    const q: Question = {
      kind: 'pick',
      title: o.title ?? '',
      prompt: o.placeHolder,
      items: items.map((i) => i.label),
      step: `${o.step}/${o.totalSteps}`,
      back: o.step > 1,
      active: o.active?.label,
      descriptions: items.map((i) => i.description ?? ''),
    };
    await this.asking(q);
    const queued = this.picks.length ? this.picks.shift() : this.answer(q, items, this.nth(q));
    if (queued === BACK_BUTTON) return q.back ? { back: true } : undefined;
    if (typeof queued === 'function') return queued(items) as T | undefined;
    return queued === undefined ? undefined : items.find((i) => i.label === queued);
  }

  /** An input box with toggles: from `toggled`, else the text from `inputs` then `answer` with no toggle pressed. */
  async inputToggled(o: ToggleInputOptions): Promise<ToggledInput | undefined> {
    const checked: Record<string, boolean> = Object.fromEntries(o.toggles.map((t) => [t.id, t.checked]));
    const q: Question = { kind: 'input', title: o.title, prompt: o.prompt(checked), value: o.value, toggles: { ...checked } };
    await this.asking(q);
    const a: ToggledAnswer | undefined = this.toggled.length
      ? this.toggled.shift()
      : (() => {
          const text = this.inputs.length ? this.inputs.shift() : this.answer(q, undefined, this.nth(q));
          return text === undefined ? undefined : { value: text };
        })();
    if (a === undefined) return undefined;
    for (const id of a.press ?? []) {
      assert.ok(id in checked, `the box has a toggle "${id}"`);
      checked[id] = !checked[id];
    }
    const problem = o.validateInput?.(a.value);
    if (problem) {
      // A real box stays open: the user fixes it or presses Escape.
      this.validationProblems.push(problem);
      return undefined;
    }
    return { value: a.value, checked };
  }

  private nth(q: Question): number {
    return this.asked.filter((x) => x.title === q.title).length;
  }

  reset(): void {
    this.asked = [];
    this.confirms = [];
    this.choices = [];
    this.inputs = [];
    this.picks = [];
    this.validationProblems = [];
    this.checked = [];
    this.toggled = [];
    this.answer = () => undefined;
    this.meanwhile = undefined;
  }
}

/** New Document's four questions answered: name, Freestyle, prompt, Original. */
export function newDocumentAnswers(name: string, prompt = 'A short text for a reliability test'): RecordingPrompter['answer'] {
  return (q) => {
    if (q.title === 'New Document: Name') return name;
    if (q.title.includes('Template')) return 'Freestyle';
    if (q.title.includes('Prompt')) return prompt;
    if (q.title.includes('Creativity')) return 'Original';
    return undefined;
  };
}

// --- What the product shows ----------------------------------------------------------------------------

export interface ShownMessage {
  level: 'error' | 'warning' | 'info';
  message: string;
  items: string[];
  at: number;
  /** A modal dialog's detail (the text under its message), when it has one. */
  detail?: string;
  /** Shown as a modal dialog (options with `modal: true`). */
  modal: boolean;
  /** Resolves the message as if the user chose `item` (undefined = dismissed). */
  choose(item?: string): void;
  readonly settled: boolean;
}

type ShowFn = (message: string, ...rest: unknown[]) => Thenable<unknown>;

/**
 * Records every message the extension shows through vscode.window.show{Error,Warning,Information}Message
 * (the API object is the extension's own: tests and the extension share it). A message stays open until
 * the test chooses an item or `dismissAll()`; `autoDismiss` closes them at once. Falls back to the log
 * when the API object cannot be patched.
 */
export class MessageCapture implements vscode.Disposable {
  readonly shown: ShownMessage[] = [];
  autoDismiss = true;
  patched = false;
  private readonly originals = new Map<string, ShowFn>();

  install(): this {
    const w = vscode.window as unknown as Record<string, ShowFn>;
    const levels: Array<[string, ShownMessage['level']]> = [
      ['showErrorMessage', 'error'],
      ['showWarningMessage', 'warning'],
      ['showInformationMessage', 'info'],
    ];
    try {
      for (const [fn, level] of levels) {
        const original = w[fn];
        this.originals.set(fn, original);
        const stub: ShowFn = (message: string, ...rest: unknown[]) => {
          // A modal (options object with modal: true) is the prompter's business, never the product's here.
          const items = rest
            .filter((r) => typeof r === 'string' || (r && typeof r === 'object' && 'title' in (r)))
            .map((r) => (typeof r === 'string' ? r : (r as { title: string }).title));
          const options = rest.find((r): r is vscode.MessageOptions => !!r && typeof r === 'object' && !('title' in r));
          let resolve!: (v: unknown) => void;
          const p = new Promise<unknown>((r) => (resolve = r));
          let settled = false;
          const m: ShownMessage = {
            level,
            message,
            items,
            detail: options?.detail,
            modal: options?.modal === true,
            at: Date.now(),
            choose: (item?: string) => {
              if (settled) return;
              settled = true;
              const chosen = rest.find((r) => r === item || (r && typeof r === 'object' && (r as { title?: string }).title === item));
              resolve(item === undefined ? undefined : (chosen ?? item));
            },
            get settled() {
              return settled;
            },
          };
          this.shown.push(m);
          if (this.autoDismiss) m.choose(undefined);
          return p;
        };
        w[fn] = stub;
        if (w[fn] !== stub) throw new Error(`vscode.window.${fn} is not writable`);
      }
      this.patched = true;
    } catch {
      this.restore();
      this.patched = false;
    }
    return this;
  }

  errors(): ShownMessage[] {
    return this.shown.filter((m) => m.level === 'error');
  }

  since(t: number): ShownMessage[] {
    return this.shown.filter((m) => m.at >= t);
  }

  async waitFor(what: string, pred: (m: ShownMessage) => boolean, timeoutMs = 10_000): Promise<ShownMessage> {
    return until(what, () => this.shown.find(pred), timeoutMs);
  }

  dismissAll(): void {
    for (const m of this.shown) m.choose(undefined);
  }

  clear(): void {
    this.dismissAll();
    this.shown.length = 0;
  }

  private restore(): void {
    const w = vscode.window as unknown as Record<string, ShowFn>;
    for (const [fn, original] of this.originals) {
      try {
        w[fn] = original;
      } catch {
        /* not writable: nothing was replaced */
      }
    }
    this.originals.clear();
  }

  dispose(): void {
    this.dismissAll();
    this.restore();
  }
}

/**
 * Replaces vscode.window.withProgress so that a test can cancel a running operation (the product's
 * "Cancel" button on a progress notification) and see what it reported.
 */
export class ProgressControl implements vscode.Disposable {
  /** Each withProgress call: its title, what it reported (messages), whether its task ended, and its Cancel. */
  readonly running: Array<{ title: string; messages: string[]; cancel(): void; done: boolean }> = [];
  private original: typeof vscode.window.withProgress | undefined;

  install(): this {
    const w = vscode.window as unknown as { withProgress: typeof vscode.window.withProgress };
    this.original = w.withProgress;
    const stub = (<R>(
      options: vscode.ProgressOptions,
      task: (progress: vscode.Progress<{ message?: string; increment?: number }>, token: vscode.CancellationToken) => Thenable<R>,
    ): Thenable<R> => {
      const cts = new vscode.CancellationTokenSource();
      const entry = { title: options.title ?? '', messages: [] as string[], cancel: () => cts.cancel(), done: false };
      this.running.push(entry);
      const report = (v: { message?: string }) => {
        if (v.message !== undefined) entry.messages.push(v.message);
      };
      return Promise.resolve(task({ report }, cts.token)).finally(() => {
        entry.done = true;
        cts.dispose();
      });
    }) as typeof vscode.window.withProgress;
    try {
      w.withProgress = stub;
    } catch {
      /* not writable */
    }
    return this;
  }

  dispose(): void {
    if (this.original) {
      try {
        (vscode.window as unknown as { withProgress: typeof vscode.window.withProgress }).withProgress = this.original;
      } catch {
        /* ignore */
      }
    }
  }
}

/** Every line written to the Content Docs log channel (after the logger's scrubbing), captured in memory. */
export class LogCapture implements vscode.Disposable {
  readonly lines: string[] = [];
  private restoreFns: Array<() => void> = [];

  install(s: TestServices): this {
    const channel = (s.log as unknown as { channel: Record<string, (line: string) => void> }).channel;
    for (const level of ['trace', 'debug', 'info', 'warn', 'error', 'appendLine', 'append']) {
      const original = channel[level];
      if (typeof original !== 'function') continue;
      channel[level] = (line: string, ...rest: unknown[]) => {
        this.lines.push(`${level} ${String(line)}`);
        return (original as (...a: unknown[]) => void).call(channel, line, ...rest);
      };
      this.restoreFns.push(() => (channel[level] = original));
    }
    return this;
  }

  dispose(): void {
    for (const r of this.restoreFns.splice(0)) r();
  }
}

/** Counts the HTTP exchanges the extension made, in every account and the key checks (refused connections included). */
export class ExchangeCounter implements vscode.Disposable {
  readonly exchanges: Exchange[] = [];
  /** The account each exchange was made in (none: a key check, made before there is an account). */
  private readonly accounts = new WeakMap<Exchange, object>();
  private readonly subs: vscode.Disposable[];
  constructor(s: TestServices) {
    this.subs = [
      s.registry.onDidExchange(({ account, exchange }) => {
        this.accounts.set(exchange, account);
        this.exchanges.push(exchange);
      }),
      s.library.onDidExchange((e) => this.exchanges.push(e)),
    ];
  }
  /** The account `exchange` was made in; undefined for a key check. */
  accountOf(exchange: Exchange): object | undefined {
    return this.accounts.get(exchange);
  }
  count(method: string, pathPrefix: string | RegExp): number {
    return this.exchanges.filter((e) => e.method === method && (typeof pathPrefix === 'string' ? e.path.startsWith(pathPrefix) : pathPrefix.test(e.path)))
      .length;
  }
  reset(): void {
    this.exchanges.length = 0;
  }
  dispose(): void {
    for (const sub of this.subs) sub.dispose();
  }
}

/**
 * Unhandled promise rejections and uncaught errors raised while a suite runs. Only those whose stack
 * points into this extension (its bundles or these tests) count: the host runs other extensions too.
 */
export class RejectionWatch implements vscode.Disposable {
  readonly ours: string[] = [];
  readonly others: string[] = [];
  private readonly onRejection = (reason: unknown) => this.record(reason);
  private readonly onException = (error: unknown) => this.record(error);

  install(): this {
    process.on('unhandledRejection', this.onRejection);
    process.on('uncaughtException', this.onException);
    return this;
  }

  private record(reason: unknown): void {
    const text = reason instanceof Error ? `${reason.name}: ${reason.message}\n${reason.stack ?? ''}` : String(reason);
    if (/content-docs|[/\\]dist[/\\](extension|api)\.js|[/\\]out[/\\]test[/\\]/.test(text)) this.ours.push(text);
    else this.others.push(text);
  }

  dispose(): void {
    process.off('unhandledRejection', this.onRejection);
    process.off('uncaughtException', this.onException);
  }
}

// --- Documents and editors -------------------------------------------------------------------------------

/** Seed documents not yet used by a test: plain names, non-empty result, known template. */
export class DocumentPool {
  private readonly used = new Set<number>();
  constructor(private readonly sandbox: Sandbox) {}
  take(predicate: (d: SandboxDocument) => boolean = () => true): SandboxDocument {
    for (const d of [...this.sandbox.documents.values()].sort((a, b) => a.id - b.id)) {
      if (this.used.has(d.id) || !d.result || d.templateId === null || d.templateId > 52 || !/^[\w ,.'-]+$/.test(d.name)) continue;
      if (!predicate(d)) continue;
      this.used.add(d.id);
      return d;
    }
    throw new Error('no fresh document left in the seed');
  }
}

export function editorOf(id: number): vscode.TextEditor | undefined {
  const e = vscode.window.activeTextEditor;
  return e && e.document.uri.scheme === SCHEME && e.document.uri.authority.split('.')[0] === String(id) ? e : undefined;
}

/** Opens a document the way the tree does (contentDocs.documentOpen) and waits for its editor. */
export async function openDocument(id: number): Promise<vscode.TextEditor> {
  await vscode.commands.executeCommand('contentDocs.documentOpen', { id });
  return until(`the editor of document ${id}`, () => editorOf(id));
}

export async function replaceAll(editor: vscode.TextEditor, text: string): Promise<void> {
  const doc = editor.document;
  const ok = await editor.edit((b) => b.replace(new vscode.Range(doc.positionAt(0), doc.positionAt(doc.getText().length)), text));
  assert.ok(ok, 'the edit was applied');
  assert.strictEqual(doc.getText(), text);
}

/** Reverts and closes every content-docs editor (nothing of a test leaks into the next). */
export async function closeAll(): Promise<void> {
  for (const d of vscode.workspace.textDocuments) {
    if (d.uri.scheme !== SCHEME || !d.isDirty) continue;
    await vscode.window.showTextDocument(d);
    try {
      await vscode.commands.executeCommand('workbench.action.files.revert');
    } catch (e) {
      // VS Code's revert of an editor whose save just failed can throw ("Illegal state: service accessor is only
      // valid during the invocation of its target method"): close it without saving instead, so that one failed
      // case does not leave its editor, and the suite's cleanup after it, to the next.
      console.log(`[closeAll] revert of ${d.uri.toString()} failed (${(e as Error).message}): closing it unsaved`);
      await vscode.commands.executeCommand('workbench.action.revertAndCloseActiveEditor').then(undefined, () => undefined);
    }
  }
  await vscode.commands.executeCommand('workbench.action.closeAllEditors');
}

/** Closes every editor; untitled buffers of these tests are reverted first (no "Save?" dialog). */
export async function closeEditors(): Promise<void> {
  for (const d of vscode.workspace.textDocuments) {
    if (d.uri.scheme !== 'untitled' || !d.isDirty) continue;
    await vscode.window.showTextDocument(d);
    await vscode.commands.executeCommand('workbench.action.revertAndCloseActiveEditor');
  }
  await closeAll();
}

/** A sandbox record of template 1 dated tomorrow (the newest of all: first in All Documents). */
export function sandboxDocument(id: number, name: string, result: string, extra: Partial<SandboxDocument> = {}): SandboxDocument {
  const at = new Date(Date.now() + 86_400_000);
  return { id, name, templateId: 1, result, words: 2, favorite: false, createdAt: at, updatedAt: at, ...extra };
}

/**
 * Captures the error a save of `uri`'s document fails with (the FileSystemError VS Code shows as
 * "Failed to save '…': <message>"), by observing the provider's writeFile.
 */
export class SaveErrors implements vscode.Disposable {
  readonly errors: Array<{ uri: string; code: string; message: string }> = [];
  private readonly original: TestServices['fs']['writeFile'];
  constructor(private readonly s: TestServices) {
    // Called with s.fs as `this` below, and put back as it was on dispose.
    // eslint-disable-next-line @typescript-eslint/unbound-method
    this.original = s.fs.writeFile;
    s.fs.writeFile = async (uri: vscode.Uri, content: Uint8Array, options: { readonly create: boolean; readonly overwrite: boolean }) => {
      try {
        return await this.original.call(s.fs, uri, content, options);
      } catch (e) {
        this.errors.push({ uri: uri.toString(), code: (e as vscode.FileSystemError).code ?? '', message: (e as Error).message });
        throw e;
      }
    };
  }
  last(): { uri: string; code: string; message: string } | undefined {
    return this.errors[this.errors.length - 1];
  }
  dispose(): void {
    this.s.fs.writeFile = this.original;
  }
}

/**
 * Records the errors the extension's file system throws from the named provider methods (what VS Code
 * receives: the FileSystemError's code and message), by observing the provider like {@link SaveErrors}.
 */
export class FsErrors implements vscode.Disposable {
  readonly errors: Array<{ op: string; uri: string; code: string; message: string; at: number }> = [];
  private readonly restoreFns: Array<() => void> = [];
  constructor(s: TestServices, ops: ReadonlyArray<'stat' | 'readFile' | 'readDirectory' | 'delete' | 'rename' | 'createDirectory'> = ['stat', 'readFile', 'readDirectory']) {
    const fs = s.fs as unknown as Record<string, (...args: unknown[]) => Promise<unknown>>;
    for (const op of ops) {
      const original = fs[op];
      fs[op] = async (...args: unknown[]) => {
        try {
          return await original.apply(s.fs, args);
        } catch (e) {
          this.errors.push({ op, uri: String(args[0]), code: (e as vscode.FileSystemError).code ?? '', message: (e as Error).message, at: Date.now() });
          throw e;
        }
      };
      this.restoreFns.push(() => (fs[op] = original));
    }
  }
  since(t: number): Array<{ op: string; uri: string; code: string; message: string; at: number }> {
    return this.errors.filter((e) => e.at >= t);
  }
  dispose(): void {
    for (const r of this.restoreFns.splice(0)) r();
  }
}

/**
 * The label of the account signed in now, as the extension last read it (no wait): the account of the URIs it
 * hands out. Throws when it has not read one (not signed in, or services() not called yet).
 */
export function accountNow(): string {
  const account = activated?.firstOrNone?.label;
  assert.ok(account, 'signed in, and the account\'s label read');
  return account;
}

/** The first folder of the account signed in now's documents' own URIs: the host of its documents server. */
export function hostNow(): string {
  const account = activated?.firstOrNone;
  assert.ok(account, 'signed in');
  return hostOf(account.documentsUrl);
}

/** `content-docs://<account>/`: the folder of the account signed in now (its label read from the extension). */
export async function accountRoot(): Promise<vscode.Uri> {
  const account = (await services()).firstOrNone?.label;
  assert.ok(account, 'signed in: the account has a label');
  return vscode.Uri.from({ scheme: SCHEME, authority: account, path: '/' });
}

/**
 * A document's account-folder URI (`content-docs://account/<Template folder>/<Name>.md`), found the way
 * the Explorer finds it: listing the account folder through the extension's file system, then each template
 * folder, until a file resolves to the document. Loads the account listing when it is not loaded yet.
 */
export async function accountUriOf(s: TestServices, id: number): Promise<vscode.Uri> {
  for (const [folder, type] of await vscode.workspace.fs.readDirectory((await accountRoot()))) {
    if (type !== vscode.FileType.Directory) continue;
    const dir = vscode.Uri.joinPath((await accountRoot()), folder);
    for (const [file] of await vscode.workspace.fs.readDirectory(dir)) {
      const uri = vscode.Uri.joinPath(dir, file);
      if (s.fs.documentIdOf(uri) === id) return uri;
    }
  }
  throw new Error(`document ${id} is not listed in the account folder`);
}

/** The visible editor showing exactly `uri`. */
export function editorAt(uri: vscode.Uri): vscode.TextEditor | undefined {
  return vscode.window.visibleTextEditors.find((e) => e.document.uri.toString() === uri.toString());
}

// --- Requests the window sends by itself ------------------------------------------------------------------

/**
 * The requests among `requests` (in the order they came) that the window may send by itself while a test acts,
 * whatever the test does, when an account is made anew or at any moment after: a view on screen reading its rows and
 * counts (a documents list without a search term: the views' lists and their background counts; a projects list); an
 * editor open on a document reading it again (a read of a document open now, unless it is one of the documents
 * `about`, which the test names: their reads are always the test's); and the status bar's one plan-usage read, which
 * follows the first of those answered (the first account read after it). A test whose action may itself list, or
 * read the account, names its requests instead of leaving these out.
 */
export function sentByTheWindow(requests: readonly RequestRecord[], about: readonly number[] = []): Set<RequestRecord> {
  const named = new Set(about.map((id) => `/api/v1/documents/${id}`));
  const open = new Set(
    vscode.workspace.textDocuments
      .filter((d) => d.uri.scheme === SCHEME)
      .map((d) => `/api/v1/documents/${d.uri.authority.split('.')[0]}`)
      .filter((p) => !named.has(p)),
  );
  const byWindow = new Set<RequestRecord>();
  let answered = false;
  let usageRead = false;
  for (const r of requests) {
    const viewList = (r.route === 'documents.list' && r.query.search === undefined) || r.route === 'projects.list';
    const editorRead = r.route === 'documents.show' && open.has(r.path);
    if (viewList || editorRead) {
      byWindow.add(r);
      if (r.server === 'documents' && r.status >= 200 && r.status < 300) answered = true;
    } else if (r.route === 'account' && answered && !usageRead) {
      byWindow.add(r);
      usageRead = true;
    }
  }
  return byWindow;
}

/** `requests` without those the window may send by itself meanwhile ({@link sentByTheWindow}; `about`: the documents the test names). */
export function besidesTheWindow(requests: readonly RequestRecord[], about: readonly number[] = []): RequestRecord[] {
  const byWindow = sentByTheWindow(requests, about);
  return requests.filter((r) => !byWindow.has(r));
}

// --- Tallies ---------------------------------------------------------------------------------------------

/** Counts the cases of a suite and prints `<what>: N … tried, M held` at the end. */
export class Tally {
  tried = 0;
  held = 0;
  readonly failed: string[] = [];
  constructor(readonly what: string) {}

  async run(name: string, body: () => Promise<void>): Promise<void> {
    this.tried++;
    try {
      await body();
      this.held++;
    } catch (e) {
      this.failed.push(`${name}: ${(e as Error).message.split('\n')[0]}`);
      throw e;
    }
  }

  line(): string {
    return `${this.what}: ${this.tried} tried, ${this.held} held`;
  }

  report(): void {
    console.log(this.line());
    for (const f of this.failed) console.log(`  not held: ${f}`);
  }
}

/** Every string value of the contentDocs settings, as VS Code inspects them at every level. */
export function allContentDocsSettings(): Array<[string, unknown]> {
  const cfg = vscode.workspace.getConfiguration('contentDocs');
  const ext = vscode.extensions.getExtension(EXTENSION_ID)!;
  const props = Object.keys(
    (ext.packageJSON?.contributes?.configuration?.properties ?? {}) as Record<string, unknown>,
  ).map((k) => k.replace(/^contentDocs\./, ''));
  const out: Array<[string, unknown]> = [];
  for (const key of props) {
    const i = cfg.inspect(key);
    if (!i) continue;
    for (const level of ['defaultValue', 'globalValue', 'workspaceValue', 'workspaceFolderValue'] as const) {
      if (i[level] !== undefined) out.push([`${key}.${level}`, i[level]]);
    }
  }
  return out;
}

// --- The views ---------------------------------------------------------------------------------------------

/** A tree node as the views hand them out (STYLE §1: a discriminated union on `kind`). */
export interface AnyNode {
  kind?: string;
  [k: string]: unknown;
}

interface AnyTree {
  getChildren(element?: AnyNode): vscode.ProviderResult<AnyNode[]>;
  getTreeItem(element: AnyNode): vscode.TreeItem | Thenable<vscode.TreeItem>;
}

export interface ShownItem {
  node: AnyNode;
  item: vscode.TreeItem;
  /** Label, description and tooltip together: what a user can read. */
  text: string;
  canRetry: boolean;
}

export interface ViewState {
  labels: string[];
  error?: ShownItem;
  documents: number;
  projects: number;
  loadMore?: AnyNode;
  nodes: ShownItem[];
}

function itemText(item: vscode.TreeItem): string {
  const label = typeof item.label === 'string' ? item.label : item.label?.label ?? '';
  const tooltip = typeof item.tooltip === 'string' ? item.tooltip : item.tooltip?.value ?? '';
  return [label, typeof item.description === 'string' ? item.description : '', tooltip].filter(Boolean).join(' — ');
}

/**
 * Reads a view as VS Code would: the root, then (for folder-like nodes) their children, down to `depth`,
 * stopping at the first error item.
 */
export async function readView(tree: AnyTree, depth = 2, parent?: AnyNode): Promise<ViewState> {
  const state: ViewState = { labels: [], documents: 0, projects: 0, nodes: [] };
  const walk = async (element: AnyNode | undefined, level: number): Promise<void> => {
    const children = (await tree.getChildren(element)) ?? [];
    for (const node of children) {
      const item = await tree.getTreeItem(node);
      const text = itemText(item);
      const shown: ShownItem = {
        node,
        item,
        text,
        canRetry: node.kind === 'error' && (item.contextValue === 'error' || item.command !== undefined),
      };
      state.nodes.push(shown);
      state.labels.push(text);
      if (node.kind === 'error') {
        state.error ??= shown;
        return;
      }
      if (node.kind === 'document') state.documents++;
      if (node.kind === 'project') state.projects++;
      if (node.kind === 'loadMore') state.loadMore ??= node;
      if (level < depth && item.collapsibleState !== undefined && item.collapsibleState !== vscode.TreeItemCollapsibleState.None) {
        await walk(node, level + 1);
        if (state.error) return;
      }
    }
  };
  await walk(parent, 1);
  return state;
}

/** Runs an error item's Retry (its command, or contentDocs.retry on it, as the inline button does). */
export async function retryItem(shown: ShownItem): Promise<void> {
  const cmd = shown.item.command;
  if (cmd) await vscode.commands.executeCommand(cmd.command, ...(cmd.arguments ?? []));
  else await vscode.commands.executeCommand('contentDocs.retry', shown.node);
}

// --- Files the extension host wrote ------------------------------------------------------------------------

/** Every regular file under `dir` (recursively), skipping directories named in `skip`. */
export function walkFiles(dir: string, skip: readonly string[] = []): string[] {
  // eslint-disable-next-line @typescript-eslint/no-require-imports
  const fs = require('fs') as typeof import('fs');
  // eslint-disable-next-line @typescript-eslint/no-require-imports
  const path = require('path') as typeof import('path');
  const out: string[] = [];
  const visit = (d: string) => {
    let entries: import('fs').Dirent[];
    try {
      entries = fs.readdirSync(d, { withFileTypes: true });
    } catch {
      return;
    }
    for (const e of entries) {
      const full = path.join(d, e.name);
      if (e.isDirectory()) {
        if (!skip.includes(e.name)) visit(full);
      } else if (e.isFile()) out.push(full);
    }
  };
  visit(dir);
  return out;
}

/** The forms a leaked key could take in a file or a string. */
export function keyForms(key: string): string[] {
  return [...new Set([key, encodeURIComponent(key), Buffer.from(key).toString('base64'), JSON.stringify(key).slice(1, -1)])];
}

/** The files among `files` that contain any form of `key` (read as bytes: binary stores are searched too). */
export function filesContaining(files: readonly string[], key: string): string[] {
  // eslint-disable-next-line @typescript-eslint/no-require-imports
  const fs = require('fs') as typeof import('fs');
  const needles = keyForms(key).flatMap((k) => [Buffer.from(k, 'utf8'), Buffer.from(k, 'utf16le')]);
  const hits: string[] = [];
  for (const f of files) {
    let buf: Buffer;
    try {
      buf = fs.readFileSync(f);
    } catch {
      continue;
    }
    if (needles.some((n) => buf.includes(n))) hits.push(f);
  }
  return hits;
}

/** A tree item's label as text (a plain string, or the text of a highlighted label). */
export function labelText(label: string | vscode.TreeItemLabel | undefined): string {
  return typeof label === 'string' ? label : (label?.label ?? '');
}
