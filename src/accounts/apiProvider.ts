import vscode = require('vscode');
import type { AccountInfo, AddressOf, ContentApi, Exchange } from '../api/index';
import { ApiError } from '../api/errors';
import * as config from '../util/config';
import { Disposable } from '../util/disposable';
import type { Logger } from '../util/log';

type ApiModule = typeof import('../api/index');

/** Where an account's requests go and with which key: fixed for the account's life (another server or key is another account). */
export interface Endpoints {
  readonly documentsUrl: string;
  readonly projectsUrl: string;
  getKey(): Promise<string | undefined>;
}

/**
 * The HTTP client's bundle (dist/api.js; its response schemas, zod, are dist/schemas.js, loaded while the first
 * request waits), loaded on the first request of any account, never at activation, and what needs no account:
 * checking an address, checking a candidate key. One per window.
 */
export class ApiLibrary extends Disposable {
  #module: ApiModule | undefined;
  readonly #_onDidExchange = this._register(new vscode.EventEmitter<Exchange>());
  /** Every HTTP exchange of a key check (the accounts' own are told by their providers). */
  readonly onDidExchange = this.#_onDidExchange.event;

  constructor(
    readonly log: Logger,
    /** Work the first answer will need, done while the session's first request waits for it (see ClientOptions.onFirstWait). */
    readonly onFirstWait: (() => void) | undefined,
    // The HTTP client and schemas are a bundle of their own, loaded on the first request: a runtime require on purpose.
    // eslint-disable-next-line @typescript-eslint/no-require-imports
    private readonly load: () => ApiModule = () => require('./api.js') as ApiModule,
  ) {
    super();
  }

  /** The API bundle itself (loaded now if it is not yet): its vscode-free helpers. */
  lib(): ApiModule {
    return (this.#module ??= this.load());
  }

  /** Checks a server address without sending anything: throws an ApiError that explains what is wrong. */
  checkBaseUrl(url: string, which: AddressOf): string {
    return this.lib().checkBaseUrl(url, which);
  }

  /**
   * Checks a candidate key against a candidate server with the cheap account request, without storing or using either
   * anywhere else. Returns what that request read of the account (its plan and usage). `signal` abandons the request.
   */
  async probe(key: string, documentsUrl: string, signal?: AbortSignal, projectsUrl?: string): Promise<AccountInfo> {
    const probeApi = this.lib().createApi({
      documentsUrl,
      projectsUrl: projectsUrl || documentsUrl,
      getKey: () => key,
      timeoutMs: config.timeoutMs(),
      retries: 0,
      log: (level, line) => this.log[level === 'trace' ? 'trace' : level](line),
      onExchange: (e) => this.#_onDidExchange.fire(e),
    });
    try {
      return await probeApi.getAccountUsage(signal);
    } finally {
      probeApi.dispose();
    }
  }
}

/**
 * One account's API client, for the account's fixed servers and key. The client is made on the account's first request
 * and made again when the timeout setting changes. Once the account is disposed (signed out, removed, or its key or
 * server changed: another account), nothing more is sent: every request is refused before it leaves.
 */
export class ApiProvider extends Disposable {
  #api: ContentApi | undefined;
  readonly #_onDidExchange = this._register(new vscode.EventEmitter<Exchange>());
  /** Every HTTP exchange of this account (counted by tests and the benchmark, heard by the status bar). */
  readonly onDidExchange = this.#_onDidExchange.event;

  constructor(
    readonly endpoints: Endpoints,
    private readonly library: ApiLibrary,
    /** The refusal of a request made once the account is gone (names the account). */
    private readonly gone: () => string,
  ) {
    super();
    this._register(
      vscode.workspace.onDidChangeConfiguration((e) => {
        if (config.affects(e, 'network.timeoutSeconds')) this.#reset();
      }),
    );
    this._register({ dispose: () => this.#reset() });
  }

  /** The projects server's address as set (the documents server's when none is: the client asks it then). */
  get projectsUrl(): string {
    return this.endpoints.projectsUrl || this.endpoints.documentsUrl;
  }

  get(): ContentApi {
    if (this.isDisposed) throw new ApiError('signedOut', this.gone());
    if (!this.#api) {
      const t0 = Date.now();
      const { log } = this.library;
      this.#api = this.library.lib().createApi({
        documentsUrl: this.endpoints.documentsUrl,
        projectsUrl: this.endpoints.projectsUrl,
        getKey: () => this.endpoints.getKey(),
        timeoutMs: config.timeoutMs(),
        userAgent: `content-docs-vscode/${vscode.version}`,
        log: (level, line) => log[level === 'trace' ? 'trace' : level](line),
        onExchange: (e) => this.#_onDidExchange.fire(e),
        onFirstWait: this.library.onFirstWait,
      });
      log.debug(`[api] client ready in ${Date.now() - t0} ms`);
    }
    return this.#api;
  }

  /** The API bundle's vscode-free helpers (loaded now if they are not yet). */
  lib(): ApiModule {
    return this.library.lib();
  }

  #reset(): void {
    this.#api?.dispose();
    this.#api = undefined;
  }
}
