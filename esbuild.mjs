// Builds the extension into two bundles:
//   dist/extension.js  loaded at activation: tree, commands, file system, settings (small, no HTTP client)
//   dist/api.js        loaded on the first request: the HTTP client (undici) and the response schemas (zod)
// `vscode` stays external. --production minifies and drops source maps; --watch rebuilds on change.
import * as esbuild from 'esbuild';

const production = process.argv.includes('--production');
const watch = process.argv.includes('--watch');

const options = {
  entryPoints: { extension: 'src/extension.ts', api: 'src/api/index.ts' },
  bundle: true,
  outdir: 'dist',
  format: 'cjs',
  platform: 'node',
  target: 'node18',
  external: ['vscode'],
  // Only the extension's own lazy `require('./api.js')` stays a runtime require. A plain './api.js' entry in
  // `external` would also match zod's internal `export * from "./api.js"` and break the API bundle.
  plugins: [
    {
      name: 'lazy-api-bundle',
      setup(build) {
        build.onResolve({ filter: /^\.\/api\.js$/ }, (args) =>
          /[\\/]src[\\/]services[\\/]/.test(args.importer) ? { path: './api.js', external: true } : undefined,
        );
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
  await ctx.watch();
  console.log('[esbuild] watching');
} else {
  const result = await esbuild.build(options);
  const outputs = Object.entries(result.metafile.outputs).filter(([f]) => f.endsWith('.js'));
  for (const [file, info] of outputs) console.log(`[esbuild] ${file} ${(info.bytes / 1024).toFixed(1)} KB`);
}
