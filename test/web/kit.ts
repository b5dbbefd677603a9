/**
 * What the web-worker tests need, without Node: they run inside a browser's web worker (the extension's web
 * build in code-server's web-worker extension host), where `require` resolves only 'vscode' and there is no
 * `process`, `fs` or Node `assert`. The runner (test/web/runWeb.ts) passes the sandboxes' addresses in the user
 * setting `contentDocsWebTest`; the sandboxes answer control calls from the browser (`controlCors`).
 */
import * as vscode from 'vscode';
import type { TestApi } from '../../src/extension';
import type { Back, Prompter, StepInputOptions, StepPickOptions, ToggledInput, ToggleInputOptions } from '../../src/ui/prompter';

export const EXTENSION_ID = 'content-docs.content-docs';

export interface WebTestConfig {
  /** The sandbox with Laravel's default CORS. */
  docsUrl: string;
  seoUrl: string;
  key: string;
  /** A sandbox whose CORS settings were changed (no CORS headers). */
  noCorsUrl: string;
  /**
   * A second sandbox with Laravel's default CORS, the same seed (the same ids under the same names) and another key:
   * the server of an account added with "Add Account…".
   */
  second: { docsUrl: string; seoUrl: string; key: string };
  /** A folder on the code-server machine for screenshots and the runner's answers. */
  runDir: string;
  grep?: string;
}

export function config(): WebTestConfig {
  const c = vscode.workspace.getConfiguration().get<WebTestConfig>('contentDocsWebTest');
  if (!c?.docsUrl) throw new Error('the user setting contentDocsWebTest is missing (run the web tier through test/web/runWeb.ts)');
  return c;
}

export async function activate(): Promise<TestApi> {
  const ext = vscode.extensions.getExtension(EXTENSION_ID);
  if (!ext) throw new Error(`extension ${EXTENSION_ID} not found`);
  const api = (await ext.activate()) as TestApi | undefined;
  if (!api?.services) throw new Error('the extension did not return its test API (not in test mode?)');
  return api;
}

// ---------------------------------------------------------------------------------------------------
// assert (Node's is not there)

export class AssertionError extends Error {
  override readonly name = 'AssertionError';
}
interface Assert {
  ok(value: unknown, message?: string): asserts value;
  equal<T>(actual: T, expected: T, message?: string): void;
  deepEqual(actual: unknown, expected: unknown, message?: string): void;
  match(actual: string, re: RegExp, message?: string): void;
  doesNotMatch(actual: string, re: RegExp, message?: string): void;
}
export const assert: Assert = {
  ok(value: unknown, message = 'expected a truthy value'): asserts value {
    if (!value) throw new AssertionError(message);
  },
  equal<T>(actual: T, expected: T, message?: string): void {
    if (!Object.is(actual, expected)) throw new AssertionError(`${message ? `${message}: ` : ''}expected ${show(expected)}, got ${show(actual)}`);
  },
  deepEqual(actual: unknown, expected: unknown, message?: string): void {
    if (JSON.stringify(actual) !== JSON.stringify(expected)) {
      throw new AssertionError(`${message ? `${message}: ` : ''}expected ${show(expected)}, got ${show(actual)}`);
    }
  },
  match(actual: string, re: RegExp, message?: string): void {
    if (!re.test(actual)) throw new AssertionError(`${message ? `${message}: ` : ''}${show(actual)} does not match ${re}`);
  },
  doesNotMatch(actual: string, re: RegExp, message?: string): void {
    if (re.test(actual)) throw new AssertionError(`${message ? `${message}: ` : ''}${show(actual)} matches ${re}`);
  },
};
function show(v: unknown): string {
  const s = JSON.stringify(v);
  return s === undefined ? String(v) : s.length > 300 ? `${s.slice(0, 300)}…` : s;
}

export const sleep = (ms: number) => new Promise<void>((r) => setTimeout(r, ms));

export async function until<T>(what: string, fn: () => T | undefined | Promise<T | undefined>, timeoutMs = 15_000): Promise<T> {
  const t0 = Date.now();
  for (;;) {
    const v = await fn();
    if (v !== undefined && v !== false && v !== null) return v;
    if (Date.now() - t0 > timeoutMs) throw new AssertionError(`timed out waiting for ${what}`);
    await sleep(50);
  }
}

// ---------------------------------------------------------------------------------------------------
// the sandbox, steered over HTTP from the worker

export interface RequestRecord {
  server: string;
  method: string;
  path: string;
  route?: string;
  query?: Record<string, string>;
  status: number;
  authorizationHeader?: string;
  body?: Record<string, string>;
}
export interface SandboxDocument {
  id: number;
  name: string;
  result: string | null;
  templateId: number | null;
}

export class SandboxControl {
  constructor(readonly url: string) {}
  private async call<T>(method: 'GET' | 'POST', action: string, body?: unknown): Promise<T> {
    const res = await fetch(`${this.url}/__sandbox/${action}`, {
      method,
      headers: body === undefined ? {} : { 'content-type': 'application/json' },
      body: body === undefined ? undefined : JSON.stringify(body),
    });
    const json = (await res.json()) as T;
    if (!res.ok) throw new Error(`sandbox control ${method} ${action}: HTTP ${res.status} ${JSON.stringify(json)}`);
    return json;
  }
  requests = () => this.call<RequestRecord[]>('GET', 'requests');
  preflights = () => this.call<RequestRecord[]>('GET', 'preflights');
  resetRequests = () => this.call('POST', 'reset-requests');
  document = (id: number) => this.call<SandboxDocument>('GET', `documents/${id}`);
  fault = (route: string, fault: { kind: string; count?: number; retryAfter?: number } | null) => this.call('POST', 'fault', { route, fault });
  clearFaults = () => this.call('POST', 'clear-faults');
  cors = (enabled: boolean | 'proxy-blocks-options') => this.call('POST', 'cors', { enabled });
}

// ---------------------------------------------------------------------------------------------------
// the runner's bridge: screenshots and a look at the workbench, asked for on the console, answered in a file

let bridgeSeq = 0;
interface BridgeAnswer {
  ok: boolean;
  error?: string;
  text?: string;
  visible?: boolean;
}
async function bridge(verb: string, arg: string, ack: string): Promise<BridgeAnswer> {
  const ext = vscode.extensions.getExtension(EXTENSION_ID)!;
  const ackUri = ext.extensionUri.with({ path: ack });
  console.log(`[[web:${verb} ${arg} ${ack}]]`);
  const bytes = await until(`the runner's answer to ${verb}`, async () => {
    try {
      return await vscode.workspace.fs.readFile(ackUri);
    } catch {
      return undefined;
    }
  }, 20_000);
  return JSON.parse(new TextDecoder().decode(bytes)) as BridgeAnswer;
}

/** A PNG of the whole workbench, written by the runner to <runDir>/screenshots/<name>.png (also copied to test-screenshots/). */
export async function screenshot(name: string): Promise<void> {
  const file = `${config().runDir}/screenshots/${name}.png`;
  const r = await bridge('screenshot', file, `${file}.done`);
  if (!r.ok) throw new AssertionError(`screenshot ${name}: ${r.error}`);
}

/** Presses a key in the workbench, e.g. 'Enter', 'Escape'. */
export async function press(key: string): Promise<void> {
  const ack = `${config().runDir}/bridge-${++bridgeSeq}.json`;
  const r = await bridge('press', encodeURIComponent(key), ack);
  if (!r.ok) throw new AssertionError(`press ${key}: ${r.error}`);
}

/** Whether the first element matching a CSS (Playwright) selector is visible in the workbench now, and its text. */
export async function read(selector: string): Promise<{ visible: boolean; text: string }> {
  const ack = `${config().runDir}/bridge-${++bridgeSeq}.json`;
  const r = await bridge('read', encodeURIComponent(selector), ack);
  if (!r.ok) throw new AssertionError(`read ${selector}: ${r.error}`);
  return { visible: r.visible === true, text: r.text ?? '' };
}

/** The text of the *Running Extensions* editor's row for an extension (the runner reads the workbench). */
export async function runningExtensionRow(displayName: string): Promise<string> {
  const ack = `${config().runDir}/bridge-${++bridgeSeq}.json`;
  const r = await bridge('running-extensions', encodeURIComponent(displayName), ack);
  if (!r.ok) throw new AssertionError(`Running Extensions: ${r.error}`);
  return r.text ?? '';
}

// ---------------------------------------------------------------------------------------------------
// questions and messages

export interface Asked {
  kind: 'input' | 'pick' | 'confirm';
  title: string;
}

/** Answers the extension's questions: `answer(title, labels)` gives the text typed or the label picked. */
export class ScriptedPrompter implements Prompter {
  asked: Asked[] = [];
  confirms: boolean[] = [];
  answer: (title: string, labels?: string[]) => string | undefined = () => undefined;
  /** What the checks of inputChecked put under the box, in order. */
  problems: string[] = [];
  async confirm(_message: string, _detail: string, confirmLabel: string): Promise<boolean> {
    this.asked.push({ kind: 'confirm', title: confirmLabel });
    return this.confirms.length ? this.confirms.shift()! : false;
  }
  /** A question with several buttons: `confirms` answers it (true is the first button). */
  async ask(_message: string, _detail: string, buttons: readonly string[]): Promise<string | undefined> {
    this.asked.push({ kind: 'confirm', title: buttons[0] ?? '' });
    return this.confirms.length && this.confirms.shift() ? buttons[0] : undefined;
  }
  async input(o: vscode.InputBoxOptions): Promise<string | undefined> {
    this.asked.push({ kind: 'input', title: o.title ?? '' });
    const a = this.answer(o.title ?? '');
    if (a !== undefined && o.validateInput) {
      const problem = await o.validateInput(a);
      if (problem) throw new AssertionError(`the answer to "${o.title}" is invalid: ${typeof problem === 'string' ? problem : problem.message}`);
    }
    return a;
  }
  /**
   * A box that stays open until `check` accepts the answer: a refused answer is recorded in `problems` and the
   * question asked again; the answer refused the last time, given again, is taken as Escape.
   */
  async inputChecked(o: vscode.InputBoxOptions, check: (value: string, signal: AbortSignal) => Promise<string | undefined>): Promise<string | undefined> {
    let refused: string | undefined;
    for (;;) {
      const a = await this.input(o);
      if (a === undefined || a === refused) return undefined;
      const problem = await check(a, new AbortController().signal);
      if (problem === undefined) return a;
      this.problems.push(problem);
      refused = a;
    }
  }
  async pick<T extends vscode.QuickPickItem>(items: readonly T[], o: vscode.QuickPickOptions): Promise<T | undefined> {
    this.asked.push({ kind: 'pick', title: o.title ?? '' });
    const label = this.answer(o.title ?? '', items.map((i) => i.label));
    return label === undefined ? undefined : items.find((i) => i.label === label);
  }
  /** A step of a multi-step input: answered as an input box (never Back). */
  inputStep(o: StepInputOptions): Promise<string | Back | undefined> {
    return this.input(o);
  }
  /** A Quick Pick of a multi-step input: answered as a pick (never Back). */
  pickStep<T extends vscode.QuickPickItem>(items: readonly T[], o: StepPickOptions<T>): Promise<T | Back | undefined> {
    return this.pick(items, o);
  }
  /** An input box with toggles: the text from `answer`, no toggle pressed. */
  async inputToggled(o: ToggleInputOptions): Promise<ToggledInput | undefined> {
    this.asked.push({ kind: 'input', title: o.title });
    const value = this.answer(o.title);
    return value === undefined ? undefined : { value, checked: Object.fromEntries(o.toggles.map((t) => [t.id, t.checked])) };
  }
}

export interface Shown {
  level: 'error' | 'warning' | 'info';
  message: string;
}

/** Records the messages the extension shows (the API object is the extension's own, shared with its tests). */
export class Messages {
  readonly shown: Shown[] = [];
  private readonly originals = new Map<string, unknown>();
  install(): this {
    const w = vscode.window as unknown as Record<string, unknown>;
    for (const [fn, level] of [['showErrorMessage', 'error'], ['showWarningMessage', 'warning'], ['showInformationMessage', 'info']] as const) {
      this.originals.set(fn, w[fn]);
      const original = w[fn] as (...a: unknown[]) => Thenable<unknown>;
      w[fn] = (message: string, ...rest: unknown[]) => {
        const modal = rest.some((r) => r && typeof r === 'object' && (r as { modal?: boolean }).modal);
        if (modal) return original.call(vscode.window, message, ...rest);
        this.shown.push({ level, message });
        return Promise.resolve(undefined);
      };
    }
    return this;
  }
  dispose(): void {
    const w = vscode.window as unknown as Record<string, unknown>;
    for (const [fn, original] of this.originals) w[fn] = original;
  }
}

export async function configure(key: string, value: unknown): Promise<void> {
  await vscode.workspace.getConfiguration('contentDocs').update(key, value, vscode.ConfigurationTarget.Global);
}
