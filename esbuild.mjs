// Builds the extension into four bundles:
//   dist/extension.js  loaded at activation: views, command and file-system registrations, settings (small)
//   dist/commands.js   loaded when a command first runs: the commands' implementations
//   dist/fs.js         loaded when a document is first opened: the content-docs file system
//   dist/api.js        loaded on the first request: the HTTP client (undici's connection pool and request, see
//                      src/api/http.ts) and the response schemas (zod)
// Folding commands.js and fs.js into extension.js (measured with npm run bench) made the activation bundle 83 KB
// instead of 45 KB and require() + activate() 14 ms instead of 8 ms (median of 5 fresh starts), so they stay apart.
// Errors crossing bundles are recognised by kind (isApiError / errorKind), never by instanceof.
// `vscode` stays external. --production minifies and drops source maps; --watch rebuilds on change.
//
// And one bundle for a browser's web worker (vscode.dev, github.dev; `browser` in package.json):
//   dist/web/extension.js  everything in one file: in the web worker `require` resolves only 'vscode', so the
//                          lazy bundles above are inlined (their sources, resolved by the 'web-one-bundle'
//                          plugin), and the API client uses the platform's fetch (src/api/platform.browser.ts)
//                          instead of undici. No Node built-in may enter it (platform 'browser' fails the build
//                          on one; test/unit/webBundle.test.ts checks the output as well).
import * as esbuild from 'esbuild';
import * as path from 'node:path';

const production = process.argv.includes('--production');
const watch = process.argv.includes('--watch');

const options = {
  entryPoints: { extension: 'src/extension.ts', commands: 'src/commands/table.ts', fs: 'src/fs/documentFs.ts', api: 'src/api/index.ts' },
  bundle: true,
  outdir: 'dist',
  format: 'cjs',
  platform: 'node',
  target: 'node18',
  external: ['vscode'],
  // Only the extension's own lazy `require('./api.js' | './commands.js' | './fs.js')` stay runtime requires. A
  // plain './api.js' entry in `external` would also match zod's internal `export * from "./api.js"`.
  plugins: [
    {
      name: 'lazy-api-bundle',
      setup(build) {
        build.onResolve({ filter: /^\.\/(api|commands|fs)\.js$/ }, (args) =>
          /[\\/]src[\\/](services|commands|fs)[\\/]/.test(args.importer) ? { path: args.path, external: true } : undefined,
        );
      },
    },
    {
      // Three modules of undici the client never runs are left out of dist/api.js (undici requires them when it loads or on a path we never take;
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

const LAZY_SOURCES = { api: 'src/api/index.ts', commands: 'src/commands/table.ts', fs: 'src/fs/documentFs.ts' };

const webOptions = {
  entryPoints: { extension: 'src/extension.ts' },
  bundle: true,
  outdir: 'dist/web',
  format: 'cjs',
  platform: 'browser',
  target: 'es2022',
  external: ['vscode'],
  plugins: [
    {
      name: 'web-one-bundle',
      setup(build) {
        // The Node build's lazy require('./api.js' | './commands.js' | './fs.js'): their sources, bundled in.
        build.onResolve({ filter: /^\.\/(api|commands|fs)\.js$/ }, (args) => {
          if (!/[\\/]src[\\/](services|commands|fs)[\\/]/.test(args.importer)) return undefined;
          const name = args.path.slice(2, -3);
          return { path: path.resolve(LAZY_SOURCES[name]) };
        });
        // The API client's host: fetch instead of undici.
        build.onResolve({ filter: /^\.\/platform$/ }, (args) =>
          /[\\/]src[\\/]api[\\/]/.test(args.importer) ? { path: path.resolve('src/api/platform.browser.ts') } : undefined,
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
}
