/**
 * F5 (.vscode/launch.json + tasks.json): what VS Code needs to start the extension against the sandbox. VS Code
 * itself cannot run here, so this checks what it relies on: every pre-launch task and dependency exists, and the
 * background tasks print what their problem matchers wait for (VS Code starts debugging only once a background
 * task's "activesEnd" line appeared; a pattern that never matches hangs F5 forever).
 */
import assert from 'node:assert/strict';
import { spawn } from 'node:child_process';
import * as fs from 'node:fs';
import * as path from 'node:path';

const REPO = path.resolve(__dirname, '..', '..', '..');

/** JSON with comments, as VS Code reads its config files (comments outside strings only). */
function readJsonc(file: string): unknown {
  const text = fs.readFileSync(path.join(REPO, file), 'utf8');
  let out = '';
  for (let i = 0, inString = false; i < text.length; i++) {
    const c = text[i];
    if (inString) {
      out += c;
      if (c === '\\') out += text[++i];
      else if (c === '"') inString = false;
    } else if (c === '"') {
      inString = true;
      out += c;
    } else if (c === '/' && text[i + 1] === '/') {
      while (i < text.length && text[i] !== '\n') i++;
      out += '\n';
    } else if (c === '/' && text[i + 1] === '*') {
      i = text.indexOf('*/', i + 2) + 1;
    } else out += c;
  }
  return JSON.parse(out);
}

interface Task {
  label: string;
  type?: string;
  script?: string;
  command?: string;
  dependsOn?: string[];
  isBackground?: boolean;
  problemMatcher?: { background?: { activesBegin: string; activesEnd: string } };
}

const launch = readJsonc('.vscode/launch.json') as { configurations: Array<{ name: string; type: string; preLaunchTask?: string; args?: string[] }> };
const tasks = (readJsonc('.vscode/tasks.json') as { tasks: Task[] }).tasks;
const task = (label: string) => tasks.find((t) => t.label === label);

/** Runs a command until `done` matches a line of its output (or `ms` pass), then stops it; returns the lines. */
function linesUntil(command: string, args: string[], done: RegExp, ms: number): Promise<string[]> {
  return new Promise((resolve, reject) => {
    const child = spawn(command, args, { cwd: REPO, stdio: ['ignore', 'pipe', 'pipe'] });
    const lines: string[] = [];
    let rest = '';
    const finish = () => {
      clearTimeout(timer);
      child.kill();
      resolve(lines);
    };
    const timer = setTimeout(finish, ms);
    const take = (d: Buffer) => {
      rest += d.toString('utf8');
      const parts = rest.split('\n');
      rest = parts.pop() ?? '';
      for (const l of parts) {
        lines.push(l);
        if (done.test(l)) finish();
      }
    };
    child.stdout.on('data', take);
    child.stderr.on('data', take);
    child.on('error', reject);
  });
}

describe('F5: launch.json and tasks.json', function () {
  this.timeout(30_000);

  it('every launch configuration runs the extension from this folder, and its pre-launch task and their dependencies exist', () => {
    assert.ok(launch.configurations.length > 0);
    for (const c of launch.configurations) {
      assert.equal(c.type, 'extensionHost', c.name);
      assert.ok(c.args?.includes('--extensionDevelopmentPath=${workspaceFolder}'), c.name);
      assert.ok(c.preLaunchTask && task(c.preLaunchTask), `${c.name}: task "${c.preLaunchTask}" exists`);
      for (const d of task(c.preLaunchTask)!.dependsOn ?? []) assert.ok(task(d), `${c.preLaunchTask}: depends on "${d}", which exists`);
    }
    const sandboxConfig = launch.configurations.find((c) => /sandbox/i.test(c.name));
    assert.ok(sandboxConfig, 'a configuration runs against the sandbox');
    assert.ok(task(sandboxConfig.preLaunchTask!)?.dependsOn?.includes('sandbox'), 'it starts the sandbox');
  });

  it('the watch task runs an npm script that exists and rebuilds on change', () => {
    const watch = task('npm: watch');
    assert.ok(watch?.isBackground);
    const scripts = (JSON.parse(fs.readFileSync(path.join(REPO, 'package.json'), 'utf8')) as { scripts: Record<string, string> }).scripts;
    assert.match(scripts[watch.script!] ?? '', /esbuild\.mjs --watch/);
    // esbuild.mjs prints this line once its watchers run; the task's matcher waits for it.
    const source = fs.readFileSync(path.join(REPO, 'esbuild.mjs'), 'utf8');
    const printed = /console\.log\('(\[esbuild\] watching)'\)/.exec(source)?.[1];
    assert.ok(printed, 'esbuild.mjs prints a line when watching');
    assert.match(printed, new RegExp(watch.problemMatcher!.background!.activesBegin));
    assert.match(printed, new RegExp(watch.problemMatcher!.background!.activesEnd));
  });

  it('the sandbox task\'s server prints the lines its matcher waits for, with the address and key launch.json tells the user to enter', async () => {
    const sandbox = task('sandbox');
    assert.ok(sandbox?.isBackground && sandbox.command);
    const bg = sandbox.problemMatcher!.background!;
    // The task's own command, on free ports (the task's fixed ports may be taken on a test machine).
    const cli = /node (out\/test\/sandbox\/cli\.js)/.exec(sandbox.command)?.[1];
    assert.ok(cli, 'the task starts the sandbox CLI');
    assert.ok(fs.existsSync(path.join(REPO, cli)), `${cli} is built (npm run pretest)`);
    const lines = await linesUntil(process.execPath, [cli, '--port=0', '--seo-port=0'], new RegExp(bg.activesEnd), 20_000);
    assert.ok(lines.some((l) => new RegExp(bg.activesBegin).test(l)), `a line matches ${bg.activesBegin}: ${lines.join(' | ')}`);
    assert.ok(lines.some((l) => new RegExp(bg.activesEnd).test(l)), `a line matches ${bg.activesEnd}`);
    const comment = fs.readFileSync(path.join(REPO, '.vscode/launch.json'), 'utf8');
    const key = /API key:\s+(\S+)/.exec(lines.join('\n'))?.[1];
    assert.ok(key && comment.includes(key), `launch.json names the sandbox's key (${key})`);
    assert.match(sandbox.command, /--port=47801 --seo-port=47802/);
    assert.ok(comment.includes('http://127.0.0.1:47801'), 'launch.json names the address the task serves');
  });
});
