/**
 * The browser build's bundle loader (esbuild.mjs puts it in place of codeCache.ts): a web worker's extension is one
 * bundle, so a "bundle" is code already in it and `plain` runs it; there is no code cache to keep.
 */
export type LoadBundle = <T>(name: string, plain: () => T) => T;

export interface BundleLoad {
  name: string;
  cache: 'used' | 'none' | 'outdated' | 'rejected' | 'damaged' | 'off';
  ms: number;
}

export function loadBundle<T>(_name: string, plain: () => T): T {
  return plain();
}

export class CodeCache {
  readonly loads: BundleLoad[] = [];

  async flush(): Promise<void> {
    // nothing to write
  }

  dispose(): void {
    // nothing kept
  }
}

export function startCodeCache(_storageDir: string | undefined, _log: { debug(line: string): void; warn(line: string): void }): CodeCache {
  return new CodeCache();
}
