/**
 * UI helpers for integration tests. Tests run in the extension host and cannot touch the browser
 * that shows the workbench, so these print a bridge command on the console, which the host runner
 * (test/harness/hostRunner.ts) sees, carries out with Playwright, and acknowledges with a file:
 *
 *   [[harness:screenshot /abs/name.png]]            ack: /abs/name.png.done
 *   [[harness:click <css selector> /abs/ack]]       ack: /abs/ack
 *   [[harness:press <key> /abs/ack]]                ack: /abs/ack
 *   [[harness:type <text> /abs/ack]]                ack: /abs/ack
 *   [[harness:read <css selector> /abs/ack]]        ack: /abs/ack, with "visible" and "text"
 *
 * The ack holds {"ok":true} or {"ok":false,"error":"…"}; a failed command rejects here.
 */
import * as fs from 'fs';
import * as os from 'os';
import * as path from 'path';

const ACK_TIMEOUT_MS = 30_000;
let ackCounter = 0;

/** Where screenshot(name) writes: $CONTENT_DOCS_SCREENSHOTS, else <repo>/test-screenshots. */
export function screenshotDir(): string {
  return path.resolve(process.env.CONTENT_DOCS_SCREENSHOTS || path.join(__dirname, '..', '..', '..', 'test-screenshots'));
}

function assertBridge(what: string): void {
  if (process.env.CONTENT_DOCS_HARNESS_BRIDGE !== '1') {
    throw new Error(`${what} needs the UI bridge of test/harness/hostRunner (run through node out/test/harness/runIntegration.js)`);
  }
}

interface Ack {
  ok?: boolean;
  error?: string;
  visible?: boolean;
  text?: string;
}

async function bridge(command: string, ack: string): Promise<Ack> {
  fs.rmSync(ack, { force: true });
  console.log(`[[harness:${command}]]`);
  const deadline = Date.now() + ACK_TIMEOUT_MS;
  while (!fs.existsSync(ack)) {
    if (Date.now() > deadline) throw new Error(`no answer from the harness within ${ACK_TIMEOUT_MS / 1000} s for: ${command}`);
    await new Promise(r => setTimeout(r, 50));
  }
  let result: Ack = {};
  try { result = JSON.parse(fs.readFileSync(ack, 'utf8')); } catch { /* treated as failure below */ }
  fs.rmSync(ack, { force: true });
  if (!result.ok) throw new Error(`harness ${command.split(' ')[0]} failed: ${result.error ?? 'unreadable ack'}`);
  return result;
}

function ackFile(): string {
  return path.join(os.tmpdir(), `content-docs-harness-ack-${process.pid}-${++ackCounter}-${Date.now()}.done`);
}

/** Full-page PNG of the workbench as it is now; resolves to its path ($CONTENT_DOCS_SCREENSHOTS/<name>.png). */
export async function screenshot(name: string): Promise<string> {
  if (!/^[\w.-]+$/.test(name)) throw new Error(`screenshot name must be letters, digits, '.', '_' or '-': ${name}`);
  assertBridge('screenshot()');
  const file = path.join(screenshotDir(), `${name}.png`);
  fs.mkdirSync(path.dirname(file), { recursive: true });
  fs.rmSync(file, { force: true });
  await bridge(`screenshot ${file}`, `${file}.done`);
  return file;
}

/** Clicks the first element matching a CSS (Playwright) selector in the workbench; waits up to 10 s for it. */
export async function click(selector: string): Promise<void> {
  if (!selector.trim() || /[\r\n]/.test(selector)) throw new Error(`bad selector: ${JSON.stringify(selector)}`);
  assertBridge('click()');
  const ack = ackFile();
  await bridge(`click ${selector} ${ack}`, ack);
}

/** Types a word in the workbench, its keys one right after the other (however busy the machine, unlike press() per key). */
export async function typeText(text: string): Promise<void> {
  if (!/^\S+$/.test(text)) throw new Error(`bad text: ${JSON.stringify(text)}`);
  assertBridge('typeText()');
  const ack = ackFile();
  await bridge(`type ${text} ${ack}`, ack);
}

/** Presses a key in the workbench, e.g. 'Escape', 'Enter', 'Control+P'. */
export async function press(key: string): Promise<void> {
  if (!/^\S+$/.test(key)) throw new Error(`bad key: ${JSON.stringify(key)}`);
  assertBridge('press()');
  const ack = ackFile();
  await bridge(`press ${key} ${ack}`, ack);
}

/**
 * Waits until the quick input (Go to Document's box, a quick pick) shows a row in focus: what Enter then picks. A list
 * request at the sandbox is not this: it may be a view's, reading its rows as an account is made anew.
 */
export async function quickPickRowInFocus(timeoutMs = 15_000): Promise<void> {
  const deadline = Date.now() + timeoutMs;
  while (!(await read('.quick-input-widget .monaco-list-row.focused')).visible) {
    if (Date.now() > deadline) throw new Error(`timed out after ${timeoutMs / 1000} s waiting for a row in focus in the quick input`);
    await new Promise((r) => setTimeout(r, 100));
  }
}

/** Whether the first element matching a CSS (Playwright) selector is visible in the workbench now, and its text (no waiting). */
export async function read(selector: string): Promise<{ visible: boolean; text: string }> {
  if (!selector.trim() || /[\r\n]/.test(selector)) throw new Error(`bad selector: ${JSON.stringify(selector)}`);
  assertBridge('read()');
  const ack = ackFile();
  const r = await bridge(`read ${selector} ${ack}`, ack);
  return { visible: r.visible === true, text: r.text ?? '' };
}
