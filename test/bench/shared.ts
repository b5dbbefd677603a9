/**
 * What the in-host part of the benchmark (inHost.ts, inside code-server's extension host) hands back to
 * the orchestrator (bench.ts) as JSON. No `vscode` import: both sides compile this file.
 *
 * The orchestrator passes its choices through the environment (which hostRunner hands on to the
 * extension host): BENCH_MODE, BENCH_RESULTS (where to write the JSON) and, for the main run, the
 * sandbox's addresses and key.
 */

export const ENV = {
  mode: 'BENCH_MODE',
  results: 'BENCH_RESULTS',
  docsUrl: 'BENCH_SANDBOX_DOCS',
  seoUrl: 'BENCH_SANDBOX_SEO',
  key: 'BENCH_SANDBOX_KEY',
  /** Go to Document's debounce (read from src/files/commands.ts by the orchestrator). */
  debounceMs: 'BENCH_GOTO_DEBOUNCE_MS',
  /** '1': the reference extension's view opens before Content Docs' views in this start (the bench alternates). */
  referenceFirst: 'BENCH_REFERENCE_FIRST',
} as const;

/** The reference extension the benchmark loads beside Content Docs (publisher.name of test/bench/reference/package.json). */
export const REFERENCE_ID = 'content-docs-bench.reference';

/** What the timing in the host measured of a main file (see activationTiming.ts). */
export interface TimedActivation {
  requireMs?: number;
  activateMs?: number;
  vscodeApiMs?: number;
  requireCpuMs?: number;
  activateCpuMs?: number;
}

/** VS Code's own "Extension Activation Stats" row (Developer: Startup Performance), ms. */
export interface VsCodeActivationStats {
  loadCode: number;
  callActivate: number;
  finishActivate: number;
  event: string;
}

/**
 * The reference extension (test/bench/reference: one view, one command, a tree data provider, activated
 * onStartupFinished as Content Docs is) in the same fresh start, measured as Content Docs is.
 */
export interface ReferenceActivation {
  /** VS Code had activated it by itself by the time the workbench was quiet. */
  activeBeforeAsked: boolean;
  loadedBeforeTiming?: boolean;
  marks: { requireMs?: number; activateMs?: number };
  timed?: TimedActivation;
  activateCalls?: Array<{ api: string; count: number; ms: number; maxMs?: number }>;
  vscode?: VsCodeActivationStats;
  /** The extension host's log line that says VS Code activated it, and on which event. */
  logLine?: string;
  error?: string;
}

/** A view's first open, timed the way Content Docs' is: from showing its container until the view had its rows' TreeItems. */
export interface ViewOpen {
  totalMs: number;
  /** The extension's code on the critical path: its getChildren and the reading of the rows' TreeItems, network excluded. */
  ownMs: number;
  rows: number;
  /** Of it, in getTreeItem (summed over the rows). */
  treeItemMs: number;
}

/** The reference's first open beside Content Docs' in one start, and which of the two opened first. */
export interface ReferenceOpen {
  first: 'reference' | 'content-docs';
  open?: ViewOpen;
  error?: string;
}

/** One fresh start of the extension host, activating the extension once the workbench is idle. */
export interface ActivationSample {
  /** Whether something had activated the extension before the benchmark asked (should be false). */
  activeAtStart: boolean;
  /** How long the benchmark waited for the workbench to go quiet before activating. */
  settleMs: number;
  /**
   * Whether VS Code had activated the extension itself by the time the workbench was quiet (onStartupFinished does,
   * in the startup batch), so the benchmark's activate() found it active. Its require() and activate() are timed
   * either way: the timing is in place before the wait.
   */
  activeBeforeAsked?: boolean;
  /** Whether the main file was loaded before the benchmark's code was (then only VS Code's marks time it). */
  loadedBeforeTiming?: boolean;
  /** `await extension.activate()` as the caller sees it (VS Code's whole pipeline: context, storage, IPC). */
  apiActivateMs: number;
  /** From the extension host's own performance marks (code/extHost/willLoadExtensionCode/… etc.). */
  marks: {
    /** willLoadExtensionCode → didLoadExtensionCode: the require() of the main file. */
    requireMs?: number;
    /** willActivateExtension → didActivateExtension: the activate() call and its result settling. */
    activateMs?: number;
  };
  /**
   * The same, timed here with sub-millisecond resolution by wrapping Node's loader for the main file:
   * compile + run of dist/extension.js, the activate() call, and the part of the require() spent in
   * VS Code creating its API object for the extension (its first require('vscode')); and the CPU time the host used
   * in the require() and in the activate() call (process.cpuUsage: without the waits for a core on a busy machine).
   */
  timed?: TimedActivation;
  /**
   * The VS Code API calls made inside the activate() call, by name (`window.createTreeView`), with how often and how
   * long in all and the longest single call (ms, sub-millisecond): what activate() spent in VS Code; the rest of
   * `timed.activateMs` is its own code. On a busy machine one call now and then takes many ms (the host preempted, or a
   * garbage collection), which the longest call shows.
   */
  activateCalls?: Array<{ api: string; count: number; ms: number; maxMs?: number }>;
  /** VS Code's own "Extension Activation Stats" (Developer: Startup Performance), ms. */
  vscode?: VsCodeActivationStats;
  vscodeError?: string;
  /** The extension host's log line that says VS Code activated it, and on which event. */
  logLine?: string;
  /** The reference extension in the same start (absent when the bench did not load it). */
  reference?: ReferenceActivation;
  /** Which of the two VS Code loaded first in this start (by the extension host's willLoadExtensionCode marks). */
  loadedFirst?: 'reference' | 'content-docs';
  /**
   * The first open of the views in this start (a first window: fresh storage, no code cache), Content Docs' and the
   * reference's, one after the other; only when the bench gave the start a sandbox.
   */
  firstOpen?: {
    ours?: LatencySample;
    /** Building the services before the views opened (counted in ours, as in the main run). */
    servicesMs?: number;
    rows?: number;
    reference: ReferenceOpen;
    error?: string;
  };
  /** Files of the extension folder in require.cache right after activation (relative paths). */
  loadedAtActivation: string[];
  /** Any module path in require.cache mentioning undici or zod, or the extension's api.js. */
  heavyAtActivation: string[];
  error?: string;
}

export interface ActivationResult {
  mode: 'activation';
  sample?: ActivationSample;
  error?: string;
}

/** Requests one user action cost, counted at the sandbox's request log. */
export interface RequestCount {
  action: string;
  /** The requests it cost, e.g. ["GET documents.list?template_id=4"]. */
  requests: string[];
  /** Highest number allowed (budget). */
  allowed: number;
  /** Lowest number expected (e.g. exactly 1). */
  expected?: number;
  /** Extra checks that must hold (e.g. "no list request"), with their outcome. */
  checks?: Array<{ what: string; ok: boolean; detail?: string }>;
  note?: string;
}

/** One timed action with the sandbox adding latency: own time = total − time the requests took. */
export interface LatencySample {
  action: string;
  /** First use of this kind of action in the session. */
  first: boolean;
  totalMs: number;
  /** Union of the wall time of the HTTP exchanges inside the action (client side, includes the added latency). */
  serverMs: number;
  trips: number;
  /** Time the design waits on purpose (Go to Document's debounce), not counted as own time. */
  designedWaitMs?: number;
  /** VS Code's and the workbench's part (total − network − designed waits − own). */
  vscodeMs?: number;
  vscodeWhat?: string;
  ownMs: number;
  /** What was counted as the extension's own time. */
  ownWhat?: string;
  /** Where the own time went, where measured (ms). */
  parts?: Record<string, number>;
  /** From the action's start to its first request leaving (client side). */
  beforeFirstRequestMs?: number;
  /** From the end of the last exchange to "shown": where own time after the answer goes. */
  afterLastAnswerMs?: number;
  /** What "shown" meant for this action. */
  end: string;
}

export interface MemoryFigures {
  heapUsedMB: number;
  externalMB: number;
  rssMB: number;
}

export interface LargeAccountResult {
  documents: number;
  template: string;
  pageSize: number;
  pages: Array<{
    page: number;
    rows: number;
    /** Load more until the view re-fetched the rows. */
    totalMs: number;
    serverMs: number;
    /** total − network (the extension, VS Code and the workbench). */
    ownMs: number;
    /** The extension answering the view's request for the rows. */
    viewFetchMs: number;
    /** TreeItems VS Code read for the page, and the time in the extension's getTreeItem. */
    treeItems: number;
    treeItemMs?: number;
    /** The extension's code per page: the command (network excluded), the rows, the TreeItems. */
    extensionMs?: number;
  }>;
  opens: Array<{ id: number; ms: number; serverMs: number; ownMs?: number }>;
  memory: {
    gc: string;
    baseline: MemoryFigures;
    afterPaging: MemoryFigures;
    withEditorsOpen: MemoryFigures;
    afterClosing: MemoryFigures;
  };
  /** content-docs documents VS Code still had open after closing the editors. */
  documentsLeftOpen: number;
}

export interface RateLimitResult {
  limitPerMinute: number;
  windowMs: number;
  requests: number;
  byRoute: Record<string, number>;
  status429: number;
  maxInAnyMinute: number;
  pacingLogLines: number;
  longestPacingWaitMs: number;
  /** The longest silence at the sandbox during the burst and the request that ended it. */
  longestGap?: { ms: number; request: string };
  /** Go to Document during the burst: from the last keystroke to its items (undefined: none within 60 s). */
  gotoAnswerMs?: number;
  /** 429s the user could see: messages, error rows in the views, view messages, Go to Document errors. */
  userVisible: string[];
  /** Every error or warning the user saw during the burst, whatever the cause. */
  otherErrorsShown: string[];
  steps: string[];
}

/** A writing action (Rewrite Selection on a file:// Markdown file) against a server that takes time to write. */
export interface GenerateResult {
  action: string;
  /** What the sandbox's text generator took per store, and the latency it added to every answer (ms). */
  generationMs: number;
  latencyMs: number;
  runs: Array<{
    first: boolean;
    /** From running the command until it resolved (the proposal's diff is open). */
    totalMs: number;
    /** The HTTP exchanges (the store, with the generation in it, and any account read), overlaps counted once. */
    networkMs: number;
    /** VS Code's calls the command waits for: opening the proposal document and the diff editor, the progress. */
    vscodeMs: number;
    /** The rest: the extension's own code on the critical path. */
    ownMs: number;
    stores: number;
    accountReads: number;
    /** Every request of the run and its follow-ups, e.g. "POST documents.store → 201". */
    requests: string[];
  }>;
  error?: string;
}

export interface MainResult {
  mode: 'main';
  /** What was in require.cache at each point (relative to the extension folder). */
  loading: {
    atActivation: string[];
    afterSignIn: string[];
    afterFirstRequest: string[];
    heavyAtActivation: string[];
    requestsBeforeViewsOpened: number;
  };
  requests: RequestCount[];
  latency: LatencySample[];
  latencyMs: number;
  large?: LargeAccountResult;
  rateLimit?: RateLimitResult;
  generate?: GenerateResult;
  errorsShown: string[];
  errors: string[];
  /** require() of dist/api.js (undici + zod) on the first request. */
  apiLoadMs?: number;
  /**
   * Building the services: the require() of dist/core.js and their construction, which the first view, command or
   * document pays. The benchmark reads the services before the views open (it watches them), so this is timed apart
   * and counted in the first open of the views.
   */
  servicesMs?: number;
  /** Of servicesMs: the require() of dist/core.js. */
  coreLoadMs?: number;
  /** The lazy bundles this start loaded, and whether V8 took their code cache (src/activation/codeCache.ts). */
  bundleLoads?: Array<{ name: string; cache: string; ms: number }>;
  /** VS Code's own time for the UI steps (see inHost.ts). */
  baselines?: Record<string, number>;
  /** The reference extension's first open in the same start (absent when the bench did not load it). */
  reference?: ReferenceOpen;
  /** The rows Content Docs' two views showed at their first open. */
  firstOpenRows?: number;
}

/** One run of Back Up Account to Folder… in the backup mode (see inHost.ts backupRun). */
export interface BackupRunFigures {
  what: string;
  /** The sandbox's limit during the run (requests a minute; 0: none). */
  rateLimit: number;
  seconds: number;
  /** List requests (GET /documents, 100 a page) and requests for one document (GET /documents/{id}). */
  listRequests: number;
  showRequests: number;
  /** 429 answers the run met. */
  tooMany: number;
  report?: { new: number; changed: number; restored: number; unchanged: number; deleted: number; requests: number; seen: number };
  error?: string;
  /** The highest process.memoryUsage() seen while it ran (sampled every 50 ms), MB, and the growth from before it. */
  peak: { rssMB: number; heapUsedMB: number; rssGrowthMB: number; heapGrowthMB: number };
  /** After the run and forced garbage collections. */
  after: MemoryFigures;
}

export interface BackupResult {
  mode: 'backup';
  documents?: number;
  gc?: string;
  baseline?: MemoryFigures;
  runs: BackupRunFigures[];
  errors: string[];
}

export type HostResult = ActivationResult | MainResult | BackupResult;
