// Builds the extension into the Node bundles declared in BUNDLES below and one bundle for a browser's web worker.
//
// Every Node bundle is declared: its entry point, when it loads and what it may contain. The activation bundle
// (dist/extension.js, package.json "main") runs in every window once startup finished, so it lists the exact source
// files it may hold and the most it may weigh; the others name the packages they may hold. The build writes what each
// bundle really holds to dist/bundles.json, and test/unit/bundles.test.ts fails when a bundle holds a file or package
// it does not declare or the activation bundle outgrows its size: code that lands in the activation bundle is a
// decision made here, not an accident of an import.
// A bundle loads another by a runtime `require('./<name>.js')` handed to the loader with a V8 code cache
// (src/activation/codeCache.ts: loadBundle in the activation bundle, Core.loadBundle in the others; see loadCore in
// src/extension.ts, loadCommandsBundle in src/commands/index.ts, src/core.ts); errors crossing bundles are recognised by
// kind (isApiError / errorKind), never by instanceof.
// Measured with npm run bench: the activation bundle holding the services, views and models (61 KB) cost 34–47 ms of
// require() at startup on a loaded machine; see README "Performance" for the figures of the split.
// `vscode` stays external. --production minifies and drops source maps; --watch rebuilds on change.
//
// And one bundle for a browser's web worker (vscode.dev, github.dev; `browser` in package.json):
//   dist/web/extension.js  everything in one file: in the web worker `require` resolves only 'vscode', so the
//                          lazy bundles are inlined (their sources, resolved by the 'web-one-bundle' plugin from
//                          BUNDLES), and the API client uses the platform's fetch (src/api/platform.browser.ts)
//                          instead of undici. No Node built-in may enter it (platform 'browser' fails the build
//                          on one; test/unit/webBundle.test.ts checks the output as well).
import * as esbuild from 'esbuild';
import * as fs from 'node:fs';
import * as path from 'node:path';

/** The Node bundles (dist/<name>.js). `contains`: the source files a bundle may hold (the activation bundle only);
 *  `packages`: the npm packages it may hold; `maxKB`: the most its production build may weigh. */
export const BUNDLES = {
  extension: {
    entry: 'src/extension.ts',
    loads: 'at activation, in every window once startup finished',
    // 17.1 KB: the registrations (13.5 KB) and the Accounts menu's provider (src/accounts/accountsMenu.ts, accountNames.ts
    // and the added accounts' records, src/accounts/records.ts: 3.7 KB), which VS Code asks for the accounts' sessions
    // from startup on; it reads only SecretStorage and globalState, and hears of the account service and the added
    // accounts (dist/core.js) once the services are built. 18.6 KB since the proposal's keys (their context key),
    // the writing confirmation's question (Prompter.ask) and the Documents view's keys (the focused-row marker); 18.6 KB
    // since the language-model tools' registrations (src/agents/tools/register.ts: their work is dist/tools.js); 19.0 KB
    // with the backup command's registration (its work is dist/backup.js); more with the @content chat participant's
    // (src/agents/chat/participant.ts: its answers are in dist/commands.js); 20.0 KB with the prompt editor's file
    // system registered through a forwarder (registerPromptFiles: a restored prompt tab activates the extension and
    // is read before any command runs); 23.2 KB with the lazy bundles' loader and its code cache
    // (src/activation/codeCache.ts: Node's built-ins it needs are required when the first bundle loads); 24.1 KB with
    // the editor's own Rename, Favorites and Delete commands (src/constants.ts: the view's without its keys, so the
    // editor's menus and the Command Palette show no key that does something else there); 24.8 KB with the Documents
    // view's drag and drop types (a forwarder: its work is dist/core.js), its Open in Web App and Copy Link, and the
    // link handler's registration (a `vscode://` link activates the extension; opening it is dist/commands.js); 25.4 KB
    // with the vscode-free code's translation (src/util/l10n.ts: describeError in src/util/errors.ts words its sentence
    // through it, and activate() hands it VS Code's l10n); 25.7 KB with Settings Sync's keys registered at activation
    // (syncedKeys, src/accounts/records.ts) and the context key @content sets when it is asked (Getting Started's step
    // "Ask @content"); 26.1 KB with the Accounts menu's Sign Out telling the changes still waiting first (src/accounts/
    // accountsMenu.ts); 27.1 KB with the MCP servers offered to VS Code's own agents (src/mcp/register.ts: VS Code asks
    // for them as soon as they are registered, so they are listed from the Accounts menu's local state; starting one
    // is dist/commands.js); 27.0 KB with one require('vscode') instead of one per source file (plugin vscode-once), and
    // 27.5 allowed from then on; 27.7 KB with the commands' wait for the accounts being made (src/commands/index.ts)
    // and globalState written one change at a time (src/util/serialMemento.ts), 28.0 allowed from then on. The unit
    // test measures the sources minified.
    maxKB: 28.0,
    packages: [],
    contains: [
      // The one require('vscode') every source file's `import vscode = require('vscode')` takes (plugin vscode-once).
      'vscode-once:vscode',
      'src/extension.ts',
      'src/accounts/records.ts',
      'src/activation/codeCache.ts',
      'src/activation/forwarders.ts',
      'src/agents/tools/register.ts',
      'src/api/errors.ts',
      'src/accounts/accountNames.ts',
      'src/accounts/accountsMenu.ts',
      'src/accounts/credentials.ts',
      'src/agents/chat/participant.ts',
      'src/commands/index.ts',
      'src/constants.ts',
      'src/mcp/env.ts',
      'src/mcp/register.ts',
      'src/ui/prompter.ts',
      'src/util/config.ts',
      'src/util/disposable.ts',
      'src/util/errors.ts',
      'src/util/l10n.ts',
      'src/util/log.ts',
      'src/util/serialMemento.ts',
      'src/util/run.ts',
      'src/write/actionIds.ts',
      'src/write/menu.ts',
      'src/write/proposalContent.ts',
    ],
  },
  core: { entry: 'src/core.ts', loads: 'when a view first asks for its rows, a command first runs or a document is first opened', packages: [] },
  commands: { entry: 'src/commands/table.ts', loads: 'when a command first runs: the implementations', packages: [] },
  backup: { entry: 'src/backup/command.ts', loads: 'when Back Up Account to Folder… first runs', packages: [] },
  fs: { entry: 'src/files/documentFs.ts', loads: 'when a document is first opened: the content-docs file system', packages: [] },
  tools: { entry: 'src/agents/tools/index.ts', loads: 'when a language-model tool is first invoked: what the tools do, and their input schemas (zod)', packages: ['zod'] },
  mcp: {
    entry: 'src/mcp/main.ts',
    loads: "never by the extension: the MCP server (content-docs-mcp), a process of its own that an agent's host starts (node dist/mcp.js); the official MCP SDK and what its server needs (ajv for JSON Schema), with the operations, the HTTP client and zod (undici, for a server on this machine, from dist/http.js beside it, and the response schemas from dist/schemas.js, as the extension's)",
    packages: ['@modelcontextprotocol/sdk', 'zod', 'zod-to-json-schema', 'ajv', 'ajv-formats', 'fast-deep-equal', 'fast-uri', 'json-schema-traverse'],
  },
  api: {
    entry: 'src/api/index.ts',
    loads: "on the first request: the HTTP client (https:// through the host's https module)",
    packages: [],
  },
  // zod and the response schemas: not needed to send a request, only to read its answer (src/api/client.ts requires
  // './schemas', mapped here). Measured with npm run bench: zod was half of dist/api.js (72 KB), whose require() came
  // before the first request of the first open of the views; now it loads while that request is on the wire.
  schemas: {
    entry: 'src/api/schemas.ts',
    loads: 'while the first request waits for its answer (or by the first answer): the response schemas (zod)',
    packages: ['zod'],
  },
  // undici: only a server on this machine (http:// to a loopback address) is asked through it, so a writer's window,
  // whose servers are https://, never loads it (src/api/nodeTransport.ts requires './undiciTransport', mapped here).
  http: {
    entry: 'src/api/undiciTransport.ts',
    loads: "on the first http:// (loopback) request: undici's connection pool and request (see src/api/http.ts)",
    packages: ['undici'],
  },
};

/** The bundles the extension loads (the MCP server's is never loaded: an agent's host runs it as a process of its own). */
const LAZY = Object.keys(BUNDLES).filter((n) => n !== 'extension' && n !== 'mcp');

/** The runtime require of the loopback client in src/api/nodeTransport.ts, and the bundle it loads. */
const UNDICI_TRANSPORT = { filter: /^\.\/undiciTransport$/, importer: /[\\/]src[\\/]api[\\/]nodeTransport\.ts$/, bundle: './http.js' };
/** The runtime require of the response schemas in src/api/client.ts, and the bundle it loads. */
const SCHEMAS = { filter: /^\.\/schemas$/, importer: /[\\/]src[\\/]api[\\/]client\.ts$/, bundle: './schemas.js' };

/** A runtime require of another bundle, from the extension's own sources (not zod's internal `./api.js`). */
const LAZY_REQUIRE = new RegExp(`^\\./(${LAZY.join('|')})\\.js$`);
const fromOwnSources = (importer) => path.relative(path.resolve('src'), importer).split(path.sep)[0] !== '..' && !/[\\/]node_modules[\\/]/.test(importer);

// Every source file takes VS Code's API as `import vscode = require('vscode')`, which esbuild emits as a plain
// `require("vscode")`. `import * as vscode from 'vscode'` of an external CommonJS module would be emitted as a copy of
// the API object (some 200 namespaces, classes and enums, a getter each) per file or, re-exported once, per bundle:
// measured in plain Node with a stand-in object of that size, that one copy was 3 of the activation bundle's 5 ms of
// require(). test/unit/bundles.test.ts fails when a bundle copies it.

const production = process.argv.includes('--production');
/** The extension's version, which the MCP server tells its host (src/mcp/main.ts). */
const version = JSON.parse(fs.readFileSync('package.json', 'utf8')).version;
const watch = process.argv.includes('--watch');

const options = {
  entryPoints: Object.fromEntries(Object.entries(BUNDLES).map(([name, b]) => [name, b.entry])),
  bundle: true,
  outdir: 'dist',
  format: 'cjs',
  platform: 'node',
  target: 'node18',
  external: ['vscode'],
  define: { CONTENT_DOCS_VERSION: JSON.stringify(version) },
  // Only the extension's own lazy `require('./<bundle>.js')` stay runtime requires. A plain './api.js' entry in
  // `external` would also match zod's internal `export * from "./api.js"`.
  plugins: [
    {
      // One require('vscode') per bundle: each one goes through the extension host's module interceptor, which looks
      // the calling file's extension up again (the activation bundle made 14, dist/core.js 27). Every source file's
      // `import vscode = require('vscode')` takes this one module instead (a plain assignment: no copy of the API).
      name: 'vscode-once',
      setup(build) {
        build.onResolve({ filter: /^vscode$/ }, (args) => (args.namespace === 'vscode-once' ? { path: 'vscode', external: true } : { path: 'vscode', namespace: 'vscode-once' }));
        build.onLoad({ filter: /.*/, namespace: 'vscode-once' }, () => ({ contents: "module.exports = require('vscode');\n", loader: 'js' }));
      },
    },
    {
      name: 'lazy-bundles',
      setup(build) {
        build.onResolve({ filter: LAZY_REQUIRE }, (args) => (fromOwnSources(args.importer) ? { path: args.path, external: true } : undefined));
        build.onResolve({ filter: UNDICI_TRANSPORT.filter }, (args) => (UNDICI_TRANSPORT.importer.test(args.importer) ? { path: UNDICI_TRANSPORT.bundle, external: true } : undefined));
        build.onResolve({ filter: SCHEMAS.filter }, (args) => (SCHEMAS.importer.test(args.importer) ? { path: SCHEMAS.bundle, external: true } : undefined));
      },
    },
    {
      // Three modules of undici the client never runs are left out of dist/http.js (undici requires them when it loads or on a path we never take;
      // test/unit/undiciPaths.test.ts checks the built bundle still makes requests without them):
      // - llhttp_simd-wasm.js: undici carries its HTTP/1.1 parser (llhttp) as WebAssembly twice, with and without
      //   SIMD, 71 KB each, and compiles the SIMD one when it can, falling back to the plain one when that fails.
      //   Without it the plain build is used, as on a machine without SIMD (our answers are small JSON).
      // - client-h2.js: HTTP/2, which undici only speaks when a dispatcher is built with allowH2 (ours is not); it
      //   loads node:http2 at start. Should a connection ever negotiate h2, the request fails with a plain error.
      // - web/fetch/body.js: fetch's body extraction, which the HTTP/1.1 client requires only to send a FormData
      //   body (ours are JSON strings); it brings fetch's utilities, WebIDL and the multipart parser (~40 KB).
      name: 'undici-unused-parts',
      setup(build) {
        const leftOut = {
          'llhttp_simd-wasm.js': 'module.exports = undefined;',
          'client-h2.js': "module.exports = function connectH2() { throw new Error('HTTP/2 is not part of this build'); };",
          'body.js': "module.exports = { extractBody() { throw new Error('FormData bodies are not part of this build'); } };",
        };
        build.onResolve({ filter: /[\\/](llhttp_simd-wasm|client-h2|web[\\/]fetch[\\/]body)\.js$/ }, (args) =>
          /[\\/]node_modules[\\/]undici[\\/]/.test(args.importer) ? { path: args.path.replace(/^.*[\\/]/, ''), namespace: 'left-out' } : undefined,
        );
        build.onLoad({ filter: /.*/, namespace: 'left-out' }, (args) => ({
          contents: `// left out by esbuild.mjs (see there)\n${leftOut[args.path]}\n`,
          loader: 'js',
        }));
      },
    },
  ],
  minify: production,
  sourcemap: production ? false : 'linked',
  sourcesContent: false,
  legalComments: production ? 'none' : 'inline',
  metafile: true,
  logLevel: 'warning',
};

const webOptions = {
  entryPoints: { extension: 'src/extension.ts' },
  bundle: true,
  outdir: 'dist/web',
  format: 'cjs',
  platform: 'browser',
  target: 'es2022',
  external: ['vscode'],
  define: { CONTENT_DOCS_VERSION: JSON.stringify(version) },
  plugins: [
    {
      name: 'web-one-bundle',
      setup(build) {
        // The Node build's lazy require('./<bundle>.js'): their sources, bundled in.
        build.onResolve({ filter: LAZY_REQUIRE }, (args) => {
          if (!fromOwnSources(args.importer)) return undefined;
          return { path: path.resolve(BUNDLES[args.path.slice(2, -3)].entry) };
        });
        // The API client's host: fetch instead of undici.
        build.onResolve({ filter: /^\.\/platform$/ }, (args) =>
          /[\\/]src[\\/]api[\\/]/.test(args.importer) ? { path: path.resolve('src/api/platform.browser.ts') } : undefined,
        );
        // The backup's folder on the disk: a web worker has none (src/backup/diskFs.browser.ts; workspace.fs instead).
        build.onResolve({ filter: /^\.\/diskFs$/ }, (args) =>
          /[\\/]src[\\/]backup[\\/]/.test(args.importer) ? { path: path.resolve('src/backup/diskFs.browser.ts') } : undefined,
        );
        // The lazy bundles' loader: one bundle has nothing to load, and no code cache (src/activation/codeCache.browser.ts).
        build.onResolve({ filter: /[\\/]activation[\\/]codeCache$/ }, (args) =>
          fromOwnSources(args.importer) ? { path: path.resolve('src/activation/codeCache.browser.ts') } : undefined,
        );
        build.onResolve({ filter: /^undici(\/|$)/ }, (args) => ({
          errors: [{ text: `undici must not enter the web bundle (imported by ${path.relative('.', args.importer)})` }],
        }));
      },
    },
  ],
  minify: production,
  sourcemap: production ? false : 'linked',
  sourcesContent: false,
  legalComments: production ? 'none' : 'inline',
  metafile: true,
  logLevel: 'warning',
};

if (watch) {
  const ctx = await esbuild.context(options);
  const webCtx = await esbuild.context(webOptions);
  await Promise.all([ctx.watch(), webCtx.watch()]);
  console.log('[esbuild] watching');
} else {
  const results = await Promise.all([esbuild.build(options), esbuild.build(webOptions)]);
  for (const result of results) {
    const outputs = Object.entries(result.metafile.outputs).filter(([f]) => f.endsWith('.js'));
    for (const [file, info] of outputs) console.log(`[esbuild] ${file} ${(info.bytes / 1024).toFixed(1)} KB`);
  }
  writeBundlesReport(results[0].metafile);
  writeModuleType();
}

/**
 * dist/package.json, `{"type":"commonjs"}`: Node's loader reads the nearest package.json of every .js file it loads
 * to learn its module type, and without this one that is the extension's manifest (56 KB, its contributions), parsed
 * on the activation bundle's require(): measured in Node 24, the require() of dist/extension.js went from 3.0 to 2.3 ms.
 */
function writeModuleType() {
  fs.writeFileSync('dist/package.json', '{"type":"commonjs"}\n');
}

/** dist/bundles.json: each Node bundle's declaration beside what it holds (checked by test/unit/bundles.test.ts). */
function writeBundlesReport(metafile) {
  const report = { production, bundles: {} };
  for (const [name, declared] of Object.entries(BUNDLES)) {
    const out = metafile.outputs[`dist/${name}.js`];
    if (!out) continue;
    const inputs = Object.entries(out.inputs)
      .filter(([, i]) => i.bytesInOutput > 0)
      .map(([file]) => file.replace(/\\/g, '/'));
    report.bundles[name] = { ...declared, bytes: out.bytes, inputs };
  }
  // Nothing built (the benchmark reads this file's options without building): the last report stays.
  if (!Object.keys(report.bundles).length) return;
  fs.writeFileSync('dist/bundles.json', JSON.stringify(report, null, 2) + '\n');
}
