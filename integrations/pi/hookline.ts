// hookline for pi: pi's events go to `hookline serve --stdio`, and pi applies the answers,
// so Python hooks (hookline's API) govern pi. Load with `pi -e path/to/hookline.ts`.
//
// The server command is HOOKLINE_SERVE_COMMAND (a JSON array), by default
// ["hookline", "serve", "--stdio", "--no-session"]; hooks are found as hookline finds them
// (or add "--hook", "path.py" to the command). With HOOKLINE_SERVE_URL (a shared
// `hookline serve --http`, e.g. http://127.0.0.1:8377) each event is POSTed to URL/pi
// instead, with `Authorization: Bearer $HOOKLINE_SERVE_TOKEN` when that is set. A tool call
// is blocked when hookline cannot answer it (the server is gone or the request failed): the
// bridge fails closed.
import { type ChildProcess, spawn } from "node:child_process";

type Answer = { id: number; result?: any; error?: string };

class HooklineServer {
	private child: ChildProcess | undefined;
	private nextId = 1;
	private pending = new Map<number, (answer: Answer) => void>();
	private buffer = "";
	private gone: string | undefined;

	constructor(private readonly argv: string[]) {}

	private start(): ChildProcess {
		if (this.child) return this.child;
		const [command, ...args] = this.argv;
		const child = spawn(command, args, { stdio: ["pipe", "pipe", "inherit"] });
		child.stdout?.setEncoding("utf8");
		child.stdout?.on("data", (chunk: string) => {
			this.buffer += chunk;
			for (let end = this.buffer.indexOf("\n"); end !== -1; end = this.buffer.indexOf("\n")) {
				const line = this.buffer.slice(0, end).replace(/\r$/, "");
				this.buffer = this.buffer.slice(end + 1);
				if (!line.trim()) continue;
				const answer = JSON.parse(line) as Answer;
				this.pending.get(answer.id)?.(answer);
				this.pending.delete(answer.id);
			}
		});
		const fail = (why: string) => {
			this.gone = why;
			for (const [id, resolve] of this.pending) resolve({ id, error: why });
			this.pending.clear();
		};
		child.on("error", (err) => fail(`hookline could not start: ${err.message}`));
		child.stdin?.on("error", (err) => fail(`hookline is not reading: ${err.message}`));
		child.on("exit", (code, signal) => fail(`hookline exited (${signal ?? code})`));
		this.child = child;
		return child;
	}

	ask(type: string, data: unknown): Promise<Answer> {
		const child = this.start();
		if (this.gone) return Promise.resolve({ id: 0, error: this.gone });
		const id = this.nextId++;
		return new Promise((resolve) => {
			this.pending.set(id, resolve);
			child.stdin?.write(`${JSON.stringify({ id, type, data })}\n`);
		});
	}

	stop(): void {
		this.child?.stdin?.end();
	}
}

class HooklineService {
	private nextId = 1;

	constructor(
		private readonly url: string,
		private readonly token: string | undefined,
	) {}

	async ask(type: string, data: unknown): Promise<Answer> {
		const id = this.nextId++;
		const headers: Record<string, string> = { "content-type": "application/json" };
		if (this.token) headers.authorization = `Bearer ${this.token}`;
		try {
			const response = await fetch(`${this.url.replace(/\/+$/, "")}/pi`, {
				method: "POST",
				headers,
				body: JSON.stringify({ id, type, data }),
			});
			const text = await response.text();
			if (!response.ok) return { id, error: `hookline answered ${response.status}: ${text.slice(0, 200)}` };
			return JSON.parse(text) as Answer;
		} catch (err) {
			return { id, error: `hookline could not be asked: ${(err as Error).message}` };
		}
	}

	stop(): void {}
}

export default function hookline(pi: any) {
	const argv = process.env.HOOKLINE_SERVE_COMMAND
		? (JSON.parse(process.env.HOOKLINE_SERVE_COMMAND) as string[])
		: ["hookline", "serve", "--stdio", "--no-session"];
	const server = process.env.HOOKLINE_SERVE_URL
		? new HooklineService(process.env.HOOKLINE_SERVE_URL, process.env.HOOKLINE_SERVE_TOKEN)
		: new HooklineServer(argv);

	pi.on("session_start", async (event: any) => {
		await server.ask("session_start", { reason: event.reason ?? "startup" });
	});
	pi.on("input", async (event: any) => {
		const answer = await server.ask("input", {
			text: event.text,
			images: event.images ?? [],
			source: event.source,
		});
		return answer.result ?? undefined;
	});
	pi.on("before_agent_start", async (event: any) => {
		const answer = await server.ask("before_agent_start", {
			prompt: event.prompt,
			images: event.images ?? [],
			systemPrompt: event.systemPrompt,
		});
		return answer.result ?? undefined;
	});
	pi.on("tool_call", async (event: any) => {
		const answer = await server.ask("tool_call", {
			toolName: event.toolName,
			toolCallId: event.toolCallId,
			input: event.input,
		});
		const result = answer.result;
		if (answer.error && !result) return { block: true, reason: `hookline: ${answer.error}` };
		if (result?.block) return { block: true, reason: result.reason };
		if (result?.input) {
			for (const key of Object.keys(event.input)) delete event.input[key];
			Object.assign(event.input, result.input);
		}
		return undefined;
	});
	pi.on("tool_result", async (event: any) => {
		const answer = await server.ask("tool_result", {
			toolName: event.toolName,
			toolCallId: event.toolCallId,
			input: event.input,
			content: event.content,
			details: event.details,
			isError: event.isError,
		});
		if (answer.error) {
			return { content: [{ type: "text", text: `hookline: ${answer.error}` }], isError: true };
		}
		return answer.result ?? undefined;
	});
	pi.on("session_shutdown", async () => {
		await server.ask("session_shutdown", {});
		server.stop();
	});
}
