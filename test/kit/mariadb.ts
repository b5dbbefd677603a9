/**
 * A throwaway MariaDB for tests: its own data folder under the temp dir, reached through a Unix socket only
 * (no TCP port at all), started with `mariadbd` and queried through the `mariadb` client binary, stopped by its
 * PID with the folder removed. No grant tables (`--skip-grant-tables`): nothing but this process can reach it.
 * Debian's `mariadb-server` provides both binaries (test/harness/install.sh installs it); a missing binary is
 * an error, never a skip.
 */
import { spawn, type ChildProcess } from 'node:child_process';
import * as fs from 'node:fs';
import * as os from 'node:os';
import * as path from 'node:path';

export interface MariaDb {
  /** The server's version string, e.g. `10.11.19-MariaDB-0+deb12u1`. */
  readonly version: string;
  /** Runs SQL (several statements allowed) and answers the rows of every result set, one array of columns a row. */
  query(sql: string): Promise<string[][]>;
  /** Stops the server (by its PID) and removes its folder. */
  stop(): Promise<void>;
}

/** Where Debian puts the binaries; `/usr/sbin` is not on a plain user's PATH. */
function findBinary(name: string): string | undefined {
  const dirs = [...(process.env.PATH ?? '').split(path.delimiter), '/usr/sbin', '/usr/bin', '/usr/local/sbin', '/usr/local/bin'];
  for (const dir of dirs) {
    if (!dir) continue;
    const file = path.join(dir, name);
    try {
      fs.accessSync(file, fs.constants.X_OK);
      return file;
    } catch {
      // not here
    }
  }
  return undefined;
}

/** A string as an SQL literal that survives any content (quotes, backslashes, NUL, emoji): hex bytes with a charset. */
export function sqlString(s: string): string {
  return s === '' ? "''" : `_utf8mb4 X'${Buffer.from(s, 'utf8').toString('hex')}'`;
}

/** Undoes the `mariadb --batch` escapes of a column value (`\t`, `\n`, `\0`, `\\`). */
function unescapeBatch(v: string): string {
  return v.replace(/\\(.)/g, (_, c: string) => (c === 't' ? '\t' : c === 'n' ? '\n' : c === '0' ? '\0' : c));
}

function run(file: string, args: string[], input: string): Promise<string> {
  return new Promise((resolve, reject) => {
    const child = spawn(file, args, { stdio: ['pipe', 'pipe', 'pipe'] });
    const out: Buffer[] = [];
    const err: Buffer[] = [];
    child.stdout.on('data', (b: Buffer) => out.push(b));
    child.stderr.on('data', (b: Buffer) => err.push(b));
    child.on('error', reject);
    child.on('close', (code) => {
      if (code === 0) resolve(Buffer.concat(out).toString('utf8'));
      else reject(new Error(`${path.basename(file)} exited with ${code}: ${Buffer.concat(err).toString('utf8').trim()}`));
    });
    child.stdin.end(input);
  });
}

function exited(child: ChildProcess, ms: number): Promise<boolean> {
  if (child.exitCode !== null || child.signalCode !== null) return Promise.resolve(true);
  return new Promise((resolve) => {
    const timer = setTimeout(() => resolve(false), ms);
    child.once('exit', () => {
      clearTimeout(timer);
      resolve(true);
    });
  });
}

/** Starts a fresh server with a database `t` whose default collation is `utf8mb4_unicode_ci` (the servers' one). */
export async function startMariaDb(options: { timeoutMs?: number } = {}): Promise<MariaDb> {
  const server = findBinary('mariadbd');
  const client = findBinary('mariadb');
  if (!server || !client) {
    throw new Error(
      `MariaDB is not installed (${server ? '' : 'mariadbd '}${client ? '' : 'mariadb '}not found on PATH or in /usr/sbin): ` +
        'install Debian\'s mariadb-server (bash test/harness/install.sh does, as root)',
    );
  }
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'cd-mariadb-'));
  const datadir = path.join(dir, 'data');
  fs.mkdirSync(datadir);
  const socket = path.join(dir, 'sock');
  const errorLog = path.join(dir, 'error.log');
  const args = [
    '--no-defaults',
    `--datadir=${datadir}`,
    `--socket=${socket}`,
    `--pid-file=${path.join(dir, 'pid')}`,
    `--log-error=${errorLog}`,
    '--skip-networking',
    '--skip-grant-tables',
    '--character-set-server=utf8mb4',
    '--collation-server=utf8mb4_unicode_ci',
    '--innodb-buffer-pool-size=16M',
  ];
  // mariadbd refuses to run as root unless told to.
  if (process.getuid?.() === 0) args.push('--user=root');
  const child = spawn(server, args, { stdio: 'ignore' });
  let spawnError: Error | undefined;
  child.on('error', (e) => (spawnError = e));
  // A test run that ends without stop() (a crash, a killed runner) does not leave this server behind.
  const orphan = () => {
    if (child.pid !== undefined && child.exitCode === null && child.signalCode === null) process.kill(child.pid, 'SIGKILL');
  };
  process.once('exit', orphan);

  const errorTail = () => {
    try {
      return fs.readFileSync(errorLog, 'utf8').trim().split('\n').slice(-8).join('\n');
    } catch {
      return '(no error log)';
    }
  };
  const clientArgs = ['--no-defaults', `--socket=${socket}`, '--user=root', '--batch', '--skip-column-names', '--default-character-set=utf8mb4'];
  const query = async (sql: string): Promise<string[][]> => {
    const text = await run(client, clientArgs, `SET NAMES utf8mb4 COLLATE utf8mb4_unicode_ci;\n${sql}\n`);
    // One line a row (a row of one empty value is an empty line), each ending in a newline.
    const lines = text.split('\n');
    lines.pop();
    return lines.map((line) => line.split('\t').map(unescapeBatch));
  };
  const stop = async () => {
    process.removeListener('exit', orphan);
    if (child.exitCode === null && child.signalCode === null && child.pid !== undefined) {
      process.kill(child.pid, 'SIGTERM');
      if (!(await exited(child, 15_000))) {
        process.kill(child.pid, 'SIGKILL');
        await exited(child, 5_000);
      }
    }
    fs.rmSync(dir, { recursive: true, force: true });
  };

  const deadline = Date.now() + (options.timeoutMs ?? 30_000);
  for (;;) {
    if (spawnError || child.exitCode !== null) {
      const why = spawnError ? spawnError.message : `exited with ${child.exitCode}`;
      await stop();
      throw new Error(`mariadbd did not start (${why}):\n${errorTail()}`);
    }
    if (fs.existsSync(socket)) {
      try {
        const [[version]] = await query('CREATE DATABASE IF NOT EXISTS t DEFAULT CHARACTER SET utf8mb4 COLLATE utf8mb4_unicode_ci; SELECT VERSION();');
        return {
          version,
          query: (sql) => query(`USE t;\n${sql}`),
          stop,
        };
      } catch {
        // not accepting connections yet
      }
    }
    if (Date.now() > deadline) {
      await stop();
      throw new Error(`mariadbd did not accept connections within ${options.timeoutMs ?? 30_000} ms:\n${errorTail()}`);
    }
    await new Promise((r) => setTimeout(r, 100));
  }
}
