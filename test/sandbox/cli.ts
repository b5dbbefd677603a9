/**
 * Starts the sandbox from the command line:
 *
 *   node out/test/sandbox/cli.js [--large] [--empty] [--latency=MS] [--store-delay=MS] [--rate-limit=N]
 *                                [--seo-rate-limit=N] [--projects-double-count] [--no-cors|--options-blocked] [--port=N] [--seo-port=N]
 *                                [--key=KEY] [--project-delete-bug] [--log]
 *
 * Rate limiting is off unless --rate-limit / --seo-rate-limit give a limit per minute.
 * Listens on 127.0.0.1 only, prints both base URLs and the key, and stops cleanly on SIGINT/SIGTERM.
 */
import { startSandbox, type SandboxOptions } from './server';

export function parseArgs(argv: string[]): SandboxOptions {
  const options: SandboxOptions = {};
  const num = (flag: string, value: string | undefined): number => {
    const n = Number(value);
    if (value === undefined || value === '' || !Number.isFinite(n) || n < 0) throw new Error(`${flag} needs a number >= 0`);
    return n;
  };
  for (const arg of argv) {
    const [flag, value] = arg.includes('=') ? [arg.slice(0, arg.indexOf('=')), arg.slice(arg.indexOf('=') + 1)] : [arg, undefined];
    switch (flag) {
      case '--large': options.seed = 'large'; break;
      case '--empty': options.seed = 'empty'; break;
      case '--latency': options.latencyMs = num(flag, value); break;
      case '--store-delay': options.storeDelayMs = num(flag, value); break;
      case '--rate-limit': options.rateLimit = num(flag, value); break;
      case '--seo-rate-limit': options.seoRateLimit = num(flag, value); break;
      case '--port': options.port = num(flag, value); break;
      case '--seo-port': options.seoPort = num(flag, value); break;
      case '--key':
        if (!value) throw new Error('--key needs a value');
        options.key = value;
        break;
      case '--project-delete-bug': options.projectDeleteBug = true; break;
      case '--projects-double-count': options.projectsDoubleCount = true; break;
      case '--no-cors': options.cors = false; break;
      case '--options-blocked': options.cors = 'proxy-blocks-options'; break;
      case '--log': options.log = (line) => process.stderr.write(line + '\n'); break;
      case '--help':
      case '-h':
        process.stdout.write(
          'Usage: node out/test/sandbox/cli.js [--large|--empty] [--latency=MS] [--store-delay=MS] [--rate-limit=N]\n' +
            '       [--seo-rate-limit=N] [--projects-double-count] [--no-cors|--options-blocked] [--port=N] [--seo-port=N] [--key=KEY]\n' +
            '       [--project-delete-bug] [--log]\n' +
            'Rate limiting is off unless --rate-limit / --seo-rate-limit (per minute) are given.\n',
        );
        process.exit(0);
        break;
      default:
        throw new Error(`unknown option ${arg}`);
    }
  }
  return options;
}

async function main(): Promise<void> {
  let options: SandboxOptions;
  try {
    options = parseArgs(process.argv.slice(2));
  } catch (err) {
    process.stderr.write(`sandbox: ${err instanceof Error ? err.message : String(err)}\n`);
    process.exit(2);
  }
  const sandbox = await startSandbox(options);
  process.stdout.write(
    [
      'Content Docs sandbox running (127.0.0.1 only).',
      `  Documents server: ${sandbox.docsUrl}   (${sandbox.documents.size} documents)`,
      `  Projects server:  ${sandbox.seoUrl}   (${sandbox.reports.length} reports)`,
      `  API key:          ${sandbox.key}`,
      `  Control:          ${sandbox.docsUrl}/__sandbox/status`,
      'Ctrl+C stops it.',
      '',
    ].join('\n'),
  );
  let stopping = false;
  const stop = (signal: string) => {
    if (stopping) return;
    stopping = true;
    process.stdout.write(`sandbox: ${signal}, stopping\n`);
    sandbox.close().then(
      () => process.exit(0),
      () => process.exit(1),
    );
  };
  process.on('SIGINT', () => stop('SIGINT'));
  process.on('SIGTERM', () => stop('SIGTERM'));
}

if (require.main === module) {
  main().catch((err: unknown) => {
    process.stderr.write(`sandbox: ${err instanceof Error ? err.message : String(err)}\n`);
    process.exit(1);
  });
}
