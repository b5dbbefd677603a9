/**
 * The benchmark's probe for the browser build, bundled by test/bench/bench.ts (webBuildFigures) for the browser and
 * run as `extensionTestsPath` in code-server's web-worker extension host: waits for the workbench to settle,
 * activates the extension through the API and prints `[[bench-web {...}]]` with the timings and the extension
 * host's performance marks for it (when the worker keeps them).
 */
import * as vscode from 'vscode';

const EXTENSION_ID = 'content-docs.content-docs';

interface Mark { name: string; startTime: number }

function marks(): Mark[] {
  const out: Mark[] = [];
  const perf = (globalThis as { performance?: { getEntriesByType?(t: string): Mark[] } }).performance;
  try {
    for (const m of perf?.getEntriesByType?.('mark') ?? []) out.push({ name: m.name, startTime: m.startTime });
  } catch { /* none */ }
  // VS Code's own mark list (vs/base/common/performance), where performance.mark is not used.
  const own = (globalThis as { MonacoPerformanceMarks?: unknown[] }).MonacoPerformanceMarks;
  if (Array.isArray(own)) for (let i = 0; i + 1 < own.length; i += 2) if (typeof own[i] === 'string') out.push({ name: own[i] as string, startTime: Number(own[i + 1]) });
  return out.filter((m) => m.name.includes(EXTENSION_ID));
}

function span(ms: Mark[], from: string, to: string): number | undefined {
  const a = ms.find((m) => m.name === from);
  const b = ms.find((m) => m.name === to);
  return a && b ? Math.round((b.startTime - a.startTime) * 100) / 100 : undefined;
}

export async function run(): Promise<void> {
  const ext = vscode.extensions.getExtension(EXTENSION_ID);
  if (!ext) throw new Error(`extension ${EXTENSION_ID} not found`);
  const activeAtStart = ext.isActive;
  await new Promise((r) => setTimeout(r, 1500));
  const t0 = performance.now();
  const api = (await ext.activate()) as { runsInWebWorker?: boolean } | undefined;
  const apiActivateMs = Math.round((performance.now() - t0) * 100) / 100;
  const m = marks();
  const result = {
    activeAtStart,
    apiActivateMs,
    runsInWebWorker: api?.runsInWebWorker === true && typeof (globalThis as { process?: unknown }).process === 'undefined',
    requireMs: span(m, `code/extHost/willLoadExtensionCode/${EXTENSION_ID}`, `code/extHost/didLoadExtensionCode/${EXTENSION_ID}`),
    activateMs: span(m, `code/extHost/willActivateExtension/${EXTENSION_ID}`, `code/extHost/didActivateExtension/${EXTENSION_ID}`),
    marks: m.length,
  };
  console.log(`[[bench-web ${JSON.stringify(result)}]]`);
}
