import vscode = require('vscode');
import type { AccountInfo, ContentApi, Exchange } from '../api/index';
import type { Credentials } from './credentials';
import * as config from '../util/config';
import { Disposable } from '../util/disposable';
import type { Logger } from '../util/log';

type ApiModule = typeof import('../api/index');

/**
 * Where an account's requests go and with which key. The first account follows the user settings and the key of
 * "Set API Key…"; an account added with "Add Account…" has addresses and a key of its own, fixed for its life.
 */
export interface Endpoints {
  documentsUrl(): string;
  projectsUrl(): string;
  getKey(): Promise<string | undefined>;
  /** Whether the addresses are the user settings' (rebuilt, and told as a server change, when they change). */
  readonly fromSettings: boolean;
}

/** The first account's endpoints: the user settings and the key in Credentials. */
export function settingsEndpoints(credentials: Credentials): Endpoints {
  return { documentsUrl: config.documentsBaseUrl, projectsUrl: config.projectsBaseUrl, getKey: () => credentials.getKey(), fromSettings: true };
}

/**
 * Hands out the API client. The client (undici + zod, in dist/api.js) is loaded on the first request,
 * never at activation, and rebuilt when a server setting changes.
 */
export class ApiProvider extends Disposable {
  private module: ApiModule | undefined;
  private api: ContentApi | undefined;
  private readonly _onDidExchange = this._register(new vscode.EventEmitter<Exchange>());
  /** Every HTTP exchange (counted by tests and the benchmark). */
  readonly onDidExchange = this._onDidExchange.event;
  private readonly _onDidChangeServer = this._register(new vscode.EventEmitter<void>());
  /** The documents server address changed: what was learned from the old one may be another account's. */
  readonly onDidChangeServer = this._onDidChangeServer.event;

  private readonly endpoints: Endpoints;

  constructor(
    endpoints: Credentials | Endpoints,
    private readonly log: Logger,
    /** Work the first answer will need, done while the session's first request waits for it (see ClientOptions.onFirstWait). */
    private readonly onFirstWait?: () => void,
    // The HTTP client and schemas are a bundle of their own, loaded on the first request: a runtime require on purpose.
    // eslint-disable-next-line @typescript-eslint/no-require-imports
    private readonly loadModule: () => ApiModule = () => require('./api.js') as ApiModule,
  ) {
    super();
    this.endpoints = 'fromSettings' in endpoints ? endpoints : settingsEndpoints(endpoints);
    const fromSettings = this.endpoints.fromSettings;
    this._register(
      vscode.workspace.onDidChangeConfiguration((e) => {
        const server = fromSettings && (config.affects(e, 'documents.baseUrl') || config.affects(e, 'projects.baseUrl'));
        if (server || config.affects(e, 'network.timeoutSeconds')) this.reset();
        // Documents live on the documents server: only its address changes which account they come from.
        if (fromSettings && config.affects(e, 'documents.baseUrl')) this._onDidChangeServer.fire();
      }),
    );
    this._register({ dispose: () => this.reset() });
  }

  /** The projects server's address as set (the documents server's when none is: the client asks it then). */
  get projectsUrl(): string {
    return this.endpoints.projectsUrl() || this.endpoints.documentsUrl();
  }

  get(): ContentApi {
    // An added account that was removed: its key was deleted, and nothing more goes to its server (a change queued
    // before the removal, a row of it still on screen).
    if (this.isDisposed) throw new Error('This account was removed from VS Code: nothing was sent to its server.');
    if (!this.api) {
      const t0 = Date.now();
      this.module ??= this.loadModule();
      const documentsUrl = this.endpoints.documentsUrl();
      if (!documentsUrl) {
        throw new this.module.ApiError(
          'insecure',
          'No server address is set. Set "contentDocs.documents.baseUrl" in your user settings, or run "Content Docs: Set API Key…".',
        );
      }
      this.api = this.module.createApi({
        documentsUrl,
        projectsUrl: this.endpoints.projectsUrl(),
        getKey: () => this.endpoints.getKey(),
        timeoutMs: config.timeoutMs(),
        userAgent: `content-docs-vscode/${vscode.version}`,
        log: (level, line) => this.log[level === 'trace' ? 'trace' : level](line),
        onExchange: (e) => this._onDidExchange.fire(e),
        onFirstWait: this.onFirstWait,
      });
      this.log.debug(`[api] client ready in ${Date.now() - t0} ms`);
    }
    return this.api;
  }

  /**
   * Checks a candidate key (against a candidate server address, when given) with the cheap account request, without
   * storing or using either anywhere else. Returns what that request read of the account (its plan and usage).
   * `signal` abandons the request (it then rejects as cancelled).
   */
  async probe(key: string, documentsUrl = this.endpoints.documentsUrl(), signal?: AbortSignal, projectsUrl?: string): Promise<AccountInfo> {
    this.module ??= this.loadModule();
    const probeApi = this.module.createApi({
      documentsUrl,
      projectsUrl: projectsUrl || this.endpoints.projectsUrl() || documentsUrl,
      getKey: () => key,
      timeoutMs: config.timeoutMs(),
      retries: 0,
      log: (level, line) => this.log[level === 'trace' ? 'trace' : level](line),
      onExchange: (e) => this._onDidExchange.fire(e),
    });
    try {
      return await probeApi.getAccountUsage(signal);
    } finally {
      probeApi.dispose();
    }
  }

  /** The API bundle itself (loaded now if it is not yet): its vscode-free helpers. */
  lib(): ApiModule {
    return (this.module ??= this.loadModule());
  }

  /** Checks a server address without sending anything: throws an ApiError that explains what is wrong. */
  checkBaseUrl(url: string, label: string): string {
    this.module ??= this.loadModule();
    return this.module.checkBaseUrl(url, label);
  }

  private reset(): void {
    this.api?.dispose();
    this.api = undefined;
  }
}
