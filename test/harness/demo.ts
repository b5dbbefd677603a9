/**
 * `npm run demo`: the extension in a real VS Code against the seeded sandbox, no account needed.
 *
 * Starts the sandbox on 127.0.0.1, then either a desktop VS Code (when a `code` executable is on the
 * PATH) or code-server's VS Code on 127.0.0.1 with Content Docs installed and its server addresses set
 * to the sandbox, and prints the address to open and the sandbox key to paste into "Set API Key".
 * Ctrl+C stops everything it started. Everything it writes stays in <repo>/.test-runs/demo-*.
 *
 *   node out/test/harness/demo.js [--large] [--latency=MS] [--code-server] [--port=N]
 */
import { spawn, spawnSync, type ChildProcess } from 'child_process';
import * as fs from 'fs';
import * as path from 'path';
import { startSandbox, type Sandbox } from '../sandbox/server';
import { createRunDir, HarnessNotInstalledError, removeDir, repoRoot, startCodeServer, type CodeServer } from './lib';

export interface Demo {
  url: string;
  key: string;
  sandbox: Sandbox;
  codeServer?: CodeServer;
  workspace: string;
  stop(): Promise<void>;
}

function arg(name: string): string | undefined {
  const a = process.argv.find((x) => x === `--${name}` || x.startsWith(`--${name}=`));
  if (!a) return undefined;
  return a.includes('=') ? a.slice(a.indexOf('=') + 1) : '';
}

function extensionManifest(): { publisher: string; name: string; version: string } {
  return JSON.parse(fs.readFileSync(path.join(repoRoot(), 'package.json'), 'utf8'));
}

function desktopCode(): string | undefined {
  const r = spawnSync('sh', ['-c', 'command -v code'], { encoding: 'utf8' });
  const p = r.stdout.trim();
  // code-server's own `code` shim is not a desktop VS Code.
  return r.status === 0 && p && !p.includes('code-server') ? p : undefined;
}

/** Starts the sandbox and code-server's VS Code with the extension installed (linked) and pointed at the sandbox. */
export async function startDemo(options: { large?: boolean; latencyMs?: number; port?: number } = {}): Promise<Demo> {
  const runDir = createRunDir('demo');
  const sandbox = await startSandbox({ seed: options.large ? 'large' : 'default', latencyMs: options.latencyMs ?? 0 });
  const workspace = path.join(runDir, 'workspace');
  fs.mkdirSync(workspace, { recursive: true });
  fs.writeFileSync(path.join(workspace, 'README.md'), '# Content Docs demo\n\nOpen the Content Docs view in the activity bar.\n');
  let cs: CodeServer | undefined;
  try {
    cs = await startCodeServer({
      runDir: path.join(runDir, 'code-server'),
      port: options.port,
      settings: {
        'contentDocs.documents.baseUrl': sandbox.docsUrl,
        'contentDocs.projects.baseUrl': sandbox.seoUrl,
      },
    });
    // Installed the way a user has it: the folder as <publisher>.<name>-<version> in the extensions dir.
    const m = extensionManifest();
    fs.symlinkSync(repoRoot(), path.join(cs.extensionsDir, `${m.publisher}.${m.name}-${m.version}`), 'dir');
  } catch (e) {
    await sandbox.close();
    removeDir(runDir);
    throw e;
  }
  const url = `${cs.url}?folder=${encodeURIComponent(workspace)}`;
  return {
    url,
    key: sandbox.key,
    sandbox,
    codeServer: cs,
    workspace,
    stop: async () => {
      await cs?.stop();
      await sandbox.close();
      removeDir(runDir);
    },
  };
}

async function main(): Promise<void> {
  const large = arg('large') !== undefined;
  const latency = Number(arg('latency') ?? 0) || 0;
  const forceCodeServer = arg('code-server') !== undefined;
  const code = forceCodeServer ? undefined : desktopCode();

  if (code) {
    const runDir = createRunDir('demo-desktop');
    const sandbox = await startSandbox({ seed: large ? 'large' : 'default', latencyMs: latency });
    const userData = path.join(runDir, 'user-data');
    fs.mkdirSync(path.join(userData, 'User'), { recursive: true });
    fs.writeFileSync(
      path.join(userData, 'User', 'settings.json'),
      JSON.stringify({ 'contentDocs.documents.baseUrl': sandbox.docsUrl, 'contentDocs.projects.baseUrl': sandbox.seoUrl }, null, 2),
    );
    const child: ChildProcess = spawn(code, ['--new-window', '--wait', `--user-data-dir=${userData}`, `--extensionDevelopmentPath=${repoRoot()}`], {
      stdio: 'inherit',
    });
    printBanner('a desktop VS Code window', sandbox);
    const stop = async () => {
      child.kill('SIGTERM');
      await sandbox.close();
      removeDir(runDir);
      process.exit(0);
    };
    process.once('SIGINT', () => void stop());
    process.once('SIGTERM', () => void stop());
    child.once('exit', () => void stop());
    return;
  }

  let demo: Demo;
  try {
    demo = await startDemo({ large, latencyMs: latency, port: Number(arg('port')) || undefined });
  } catch (e) {
    if (e instanceof HarnessNotInstalledError) {
      console.error(e.message);
      process.exit(2);
    }
    throw e;
  }
  printBanner(demo.url, demo.sandbox);
  let stopping = false;
  const stop = async () => {
    if (stopping) return;
    stopping = true;
    console.log('\nStopping the demo…');
    await demo.stop();
    process.exit(0);
  };
  process.on('SIGINT', () => void stop());
  process.on('SIGTERM', () => void stop());
}

function printBanner(where: string, sandbox: Sandbox): void {
  const docs = sandbox.documents.size;
  console.log(
    [
      '',
      '  Content Docs demo',
      '',
      `  Sandbox documents server: ${sandbox.docsUrl}  (${docs} documents)`,
      `  Sandbox projects server:  ${sandbox.seoUrl}`,
      '',
      `  Open VS Code:  ${where}`,
      '',
      '  1. Click the Content Docs icon in the activity bar.',
      '  2. Click "Set API Key" and paste the sandbox key:',
      '',
      `       ${sandbox.key}`,
      '',
      '  (It only works against this local sandbox; no real account is involved.)',
      '',
      '  Ctrl+C stops the sandbox and VS Code.',
      '',
    ].join('\n'),
  );
}

if (require.main === module) {
  main().catch((e) => {
    console.error(e instanceof Error ? e.message : e);
    process.exit(1);
  });
}
