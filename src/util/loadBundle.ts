/**
 * How a lazy bundle is loaded: with the window's code cache (src/activation/codeCache.ts, in the activation bundle),
 * else as a plain require. What the other bundles get from the activation bundle, so that none carries a copy of the
 * loader. No `vscode` import.
 */
export type LoadBundle = <T>(name: string, plain: () => T) => T;
