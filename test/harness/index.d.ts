/**
 * Types for the engine-level test harness (test/harness/index.js, plain CommonJS).
 * Node types are addressed as n8n does: `<packageName>.<name>`, e.g.
 * `n8n-nodes-access-point.accessPointRegistration`, `n8n-nodes-base.set`.
 * Builder and runNode also accept short names (`accessPointRegistration`, `set`).
 */
import type {
	ExecutionStatus,
	ICredentialDataDecryptedObject,
	ICredentialType,
	IDataObject,
	INode,
	INodeExecutionData,
	INodeType,
	INodeTypes,
	IRun,
	IRunData,
	ITaskData,
	IVersionedNodeType,
	Workflow,
	WorkflowExecuteMode,
} from 'n8n-workflow';

export interface AccessPointCredentialData {
	apiKey: string;
	partyId: string;
	environment?: 'sandbox' | 'production' | 'custom';
	baseUrl?: string;
	[key: string]: unknown;
}

/** n8n export format (what "Download" / copy in the editor gives). */
export interface WorkflowJson {
	id?: string;
	name?: string;
	nodes: Array<Partial<INode> & { name: string; type: string; parameters?: IDataObject }>;
	connections: IDataObject;
	settings?: IDataObject;
	pinData?: Record<string, INodeExecutionData[]>;
	[key: string]: unknown;
}

/** One node of a chain: `type` may be short (`accessPointOrder`, `set`). */
export interface ChainStep {
	type: string;
	parameters?: IDataObject;
	name?: string;
	typeVersion?: number;
	/** Node setting "On Error": 'stopWorkflow' | 'continueRegularOutput' | 'continueErrorOutput' */
	onError?: 'stopWorkflow' | 'continueRegularOutput' | 'continueErrorOutput';
	credentials?: INode['credentials'];
	disabled?: boolean;
	alwaysOutputData?: boolean;
	executeOnce?: boolean;
	retryOnFail?: boolean;
	maxTries?: number;
	waitBetweenTries?: number;
	webhookId?: string;
	/** Output index of the previous step this one is connected to (default 0). */
	output?: number;
}

export type ItemInput = IDataObject | INodeExecutionData;

export interface RunOptions {
	/** Items the start node outputs (manual mode: pinned on the start node; trigger mode: its input). */
	input?: ItemInput[];
	/** Name of the node to start from (default: the manual trigger, else the first trigger/poll node). */
	startNode?: string;
	/** 'manual' (default, like "Execute workflow" in the editor) or 'trigger' (production run). */
	mode?: WorkflowExecuteMode;
	/** accessPointApi data for this run only (merged over the harness credentials). */
	credentialsOverride?: Partial<AccessPointCredentialData>;
	/** Data for other credential types for this run, by type name. */
	credentialTypesOverride?: Record<string, ICredentialDataDecryptedObject>;
	/** Initial workflow static data. */
	staticData?: IDataObject;
}

export interface WaitingInfo {
	executionId: string;
	/** The node that put the execution to wait. */
	nodeName: string;
	/** `$execution.resumeUrl` as the node saw it: `<webhookWaitingBaseUrl>/<executionId>?signature=<resumeToken>`. */
	resumeUrl: string;
	waitTill: Date;
}

export declare class HarnessResult {
	readonly run: IRun;
	readonly executionId: string;
	/** The normalised workflow JSON that ran. */
	readonly workflow: WorkflowJson;
	/** Node names in the order they finished (across resumes). */
	readonly executedNodes: string[];
	/** Set when status is 'waiting'. */
	readonly waiting?: WaitingInfo;
	/** Set by runNode(): the name of the node under test. */
	nodeName?: string;
	readonly status: ExecutionStatus;
	readonly finished: boolean;
	readonly runData: IRunData;
	/** Workflow-level error (plain copy as n8n stores it), or undefined. */
	readonly error: (IDataObject & { message: string }) | undefined;
	readonly lastNodeExecuted: string | undefined;
	readonly resumeUrl: string | undefined;
	readonly waitTill: Date | undefined;
	runs(nodeName: string): ITaskData[];
	executed(nodeName: string): boolean;
	task(nodeName: string, runIndex?: number): ITaskData | undefined;
	/** Full items (json, binary, pairedItem) of one output of the node's last (or given) run. */
	items(nodeName: string, outputIndex?: number, runIndex?: number): INodeExecutionData[];
	/** The json of each item of one output. */
	output<T = IDataObject>(nodeName: string, outputIndex?: number, runIndex?: number): T[];
	/** json of every output: [output0[], output1[], ...]. */
	outputs(nodeName: string, runIndex?: number): IDataObject[][];
	/** The error the node raised (original instance when available: NodeApiError, NodeOperationError ...). */
	nodeError(nodeName: string, runIndex?: number): (Error & IDataObject) | undefined;
	/** Throws a readable error unless status is 'success'. */
	assertSuccess(): this;
	summary(): Record<string, IDataObject[][]>;
}

export interface PollResult {
	/** What poll() returned (null: nothing new). */
	data: INodeExecutionData[][] | null;
	/** json of output 0, or null. */
	items: IDataObject[] | null;
	/** Whole workflow static data after the poll (pass back as `staticData` to continue). */
	staticData: IDataObject;
	/** This node's static data (`getWorkflowStaticData('node')`). */
	nodeStaticData: IDataObject;
	/** With `execute: true` and items: the workflow run started from the trigger. */
	execution?: HarnessResult;
}

export interface PollOptions {
	/** 'trigger' (default): a scheduled poll, through n8n-core's PollTriggerExecutor. 'manual': "Fetch test event". */
	mode?: 'trigger' | 'manual';
	/** Also run the workflow downstream of the trigger with the emitted items (trigger mode). */
	execute?: boolean;
}

export interface Poller {
	readonly node: INode;
	/** The Workflow instance kept alive between polls (its staticData persists). */
	readonly workflow: Workflow;
	poll(options?: PollOptions | 'trigger' | 'manual'): Promise<PollResult>;
	readonly staticData: IDataObject;
	readonly nodeStaticData: IDataObject;
}

export interface PollerOptions extends PollOptions {
	staticData?: IDataObject;
	credentialsOverride?: Partial<AccessPointCredentialData>;
	/** When a whole workflow is given: which node polls (default: the first polling node). */
	nodeName?: string;
}

export interface ResumeOptions {
	/** Query parameters appended to the resume URL (as a provider redirect would). */
	query?: Record<string, string | number | boolean>;
	method?: string;
	body?: unknown;
	headers?: Record<string, string>;
	/** Webhook suffix path (Wait node "webhookSuffix"). */
	suffix?: string;
	/** Use this URL instead of the execution's resume URL (e.g. to test a tampered signature). */
	url?: string;
	timeoutMs?: number;
}

export interface HttpResponse {
	status: number;
	headers: Record<string, string | string[] | undefined>;
	body: unknown;
	text: string;
}

export type ExecutionRef = string | number | { executionId: string; generation?: number };

export interface LoadedPackages {
	root: string;
	packageName: string;
	/** Files listed in package.json's n8n section that do not exist (skipped). */
	missing: { nodes: string[]; credentials: string[] };
	/** Listed dist files older than the newest TypeScript source. */
	stale: string[];
	listedNodes: Array<{ file: string; className: string; name: string }>;
	nodeTypeNames: string[];
	credentialTypeNames: string[];
	nodeTypes: HarnessNodeTypes;
	credentialTypes: HarnessCredentialTypes;
	loadMs: number;
}

export interface HarnessNodeTypes extends INodeTypes {
	getByName(type: string): INodeType | IVersionedNodeType;
	getByNameAndVersion(type: string, version?: number): INodeType;
	/** `accessPointOrder` -> `n8n-nodes-access-point.accessPointOrder`, `set` -> `n8n-nodes-base.set`. */
	expandType(type: string): string;
	latestVersion(type: string): number;
	credentialNames(type: string, version?: number): string[];
}

export interface HarnessCredentialTypes {
	recognizes(name: string): boolean;
	getByName(name: string): ICredentialType;
	getParentTypes(name: string): string[];
	getSupportedNodes(name: string): string[];
}

export interface HarnessOptions {
	/** Options for emulator's createEmulator (default {}: start one on port 0); false: no emulator. */
	emulator?: Record<string, unknown> | false;
	/** accessPointApi data (merged over the emulator's credentials). */
	credentials?: Partial<AccessPointCredentialData>;
	/** Data for other credential types, by type name. */
	credentialTypes?: Record<string, ICredentialDataDecryptedObject>;
	/** Skip package.json-listed files that are not built yet (default true, with a warning). */
	allowMissingNodes?: boolean;
	/** Expire waiting executions when waitTill passes, if within 10 minutes (default true). */
	waitTracker?: boolean;
	/** Re-require dist/ (after a rebuild in the same process). */
	reload?: boolean;
	quiet?: boolean;
	root?: string;
}

export interface Harness {
	/** The emulator the harness started (any: emulator/index.js owns its type). */
	// eslint-disable-next-line @typescript-eslint/no-explicit-any
	readonly emulator: any;
	readonly loaded: LoadedPackages;
	readonly nodeTypes: HarnessNodeTypes;
	readonly credentialTypes: HarnessCredentialTypes;
	readonly packageName: string;
	/** Full type names of this package's loaded nodes. */
	readonly nodeTypeNames: string[];
	readonly credentialTypeNames: string[];
	readonly missing: { nodes: string[]; credentials: string[] };
	/** Base URLs handed to the engine (webhookWaitingBaseUrl points at the harness's own server). */
	readonly urls: Record<string, string>;
	/** What the accessPointApi credential holds. */
	readonly credentials: AccessPointCredentialData;
	/** Merge into a credential's data (default type accessPointApi). */
	setCredentials(partial: IDataObject, type?: string): IDataObject;
	/** Expand a short node type name. */
	type(short: string): string;
	/** The workflow as the harness runs it (defaults filled, credentials referenced). */
	normalize(workflow: WorkflowJson, options?: RunOptions): WorkflowJson;
	/** Manual Trigger -> step 1 -> step 2 ... */
	chain(steps: ChainStep[], options?: { triggerName?: string; settings?: IDataObject }): WorkflowJson;
	run(workflow: WorkflowJson, options?: RunOptions): Promise<HarnessResult>;
	/** Manual Trigger (output pinned to inputItems) -> the node. result.nodeName is the node's name. */
	runNode(
		type: string,
		parameters?: IDataObject,
		inputItems?: ItemInput[],
		nodeOptions?: Omit<ChainStep, 'type' | 'parameters'> & { runOptions?: RunOptions },
	): Promise<HarnessResult & { nodeName: string }>;
	/** A poll trigger kept alive between polls (static data persists on its Workflow). */
	poller(node: ChainStep | WorkflowJson, options?: PollerOptions): Poller;
	/** One poll with a fresh Workflow (pass back `staticData` to continue). */
	poll(node: ChainStep | WorkflowJson, options?: PollerOptions): Promise<PollResult>;
	/** Resolves with the result of the next resume (webhook or expiry) of a waiting execution. */
	waitForResume(execution: HarnessResult | ExecutionRef, options?: { timeoutMs?: number }): Promise<HarnessResult>;
	/** GET (or method) the resume URL with extra query parameters; waits for the resumed run. */
	resume(
		execution: HarnessResult | ExecutionRef,
		options?: ResumeOptions,
	): Promise<{ response: HttpResponse; result: HarnessResult | undefined }>;
	/**
	 * GET a URL like a browser: follows redirects and, when a hop is a resume URL
	 * of this harness, waits for the resumed run (e.g. an emulator provider page
	 * that redirects to RedirectURL).
	 */
	browse(
		url: string,
		options?: { maxRedirects?: number; timeoutMs?: number },
	): Promise<{ response: HttpResponse; result: HarnessResult | undefined; url: string }>;
	/** Would n8n's waiting-webhook service accept this URL's token (e.g. with parameters appended)? */
	checkResumeUrl(url: string): { valid: boolean; executionId?: string; reason?: string };
	/** Let the wait time out now (as n8n's WaitTracker does when waitTill passes). */
	expire(execution: HarnessResult | ExecutionRef): Promise<HarnessResult>;
	execution(execution: HarnessResult | ExecutionRef): { id: string; status: string; latest?: HarnessResult; data: IDataObject };
	/** Compact multi-line text of what each node output. */
	format(result: HarnessResult, options?: { maxItems?: number; maxWidth?: number; nodes?: string[] }): string;
	/** ms spent in createHarness (first call in a process includes requiring n8n-core). */
	readonly startupMs: number;
	close(): Promise<void>;
}

export declare function createHarness(options?: HarnessOptions): Promise<Harness>;
export declare function loadPackages(options?: {
	root?: string;
	allowMissingNodes?: boolean;
	reload?: boolean;
	quiet?: boolean;
}): Promise<LoadedPackages>;
export declare function chain(steps: ChainStep[], options?: { triggerName?: string; settings?: IDataObject }): WorkflowJson;
export declare function formatResult(result: HarnessResult, options?: { maxItems?: number; maxWidth?: number; nodes?: string[] }): string;
export declare function request(
	url: string,
	options?: { method?: string; headers?: Record<string, string>; body?: unknown },
): Promise<HttpResponse>;
export declare const CREDENTIAL_TYPE: 'accessPointApi';
/** Runs `npm run build` when dist/ is missing or older than the sources (or always with force). */
export declare function buildIfNeeded(options?: {
	root?: string;
	force?: boolean;
	stdio?: unknown;
}): { built: boolean; ok: boolean; reason?: string; status?: number | null };
/** Why dist/ needs a build, or undefined. */
export declare function buildReason(root?: string): string | undefined;
/** Packages used by the harness's own tests (waitingPackage: node `waitingProbe` that waits like Identification). */
export declare const fixtures: { waitingPackage: string };
