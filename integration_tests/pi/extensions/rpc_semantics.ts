// Run semantics as a pi extension: every instance records what it saw; CASE picks the rule.
import { appendFileSync, existsSync, readFileSync } from "node:fs";

export default function (pi: any) {
	const CASE = process.env.CASE;
	const path = process.env.RECORD as string;
	const seen = existsSync(path) ? readFileSync(path, "utf8") : "";
	const instance = seen.split("\n").filter((x) => x.includes('"factory"')).length + 1;
	const record = (x: object) =>
		appendFileSync(path, `${JSON.stringify({ instance, ...x })}\n`);

	record({ event: "factory" });
	pi.on("session_start", async (event: any) => {
		record({ event: "session_start", reason: event.reason });
	});
	pi.on("session_shutdown", async (event: any) => {
		record({ event: "session_shutdown", reason: event.reason });
	});
	pi.on("session_before_compact", async () => {
		record({ event: "session_before_compact" });
		if (CASE === "cancel_compact") return { cancel: true };
	});
	pi.on("session_before_fork", async (event: any) => {
		record({ event: "session_before_fork", entryId: event.entryId });
	});
	pi.on("model_select", async (event: any) => {
		const model = event.model;
		record({ event: "model_select", provider: model.provider, id: model.id, source: event.source });
	});
	pi.on("turn_end", async () => {
		if (CASE === "error") throw new Error("rule is broken");
	});
	pi.registerCommand("hello", {
		description: "say hello",
		handler: async (args: string, ctx: any) => {
			record({ event: "command", name: "hello", args });
			ctx.ui.notify(`hello ${args}`, "info");
		},
	});
}
