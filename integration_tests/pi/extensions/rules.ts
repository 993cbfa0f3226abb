// The differential rules as a pi extension: CASE picks the rule, RECORD gets what the handler saw.
import { appendFileSync } from "node:fs";

export default function (pi: any) {
	const CASE = process.env.CASE;
	const record = (x: unknown) => appendFileSync(process.env.RECORD as string, `${JSON.stringify(x)}\n`);

	pi.on("session_start", async () => {
		if (CASE === "session_start") record({ event: "session_start" });
	});
	pi.on("input", async (event: any) => {
		if (CASE !== "input") return;
		record({ event: "input", text: event.text, source: event.source });
		if (event.text.startsWith("?quick ")) {
			return { action: "transform", text: `Respond briefly: ${event.text.slice(7)}` };
		}
	});
	pi.on("before_agent_start", async (event: any) => {
		if (CASE !== "before_agent_start") return;
		record({ event: "before_agent_start", prompt: event.prompt });
		return { systemPrompt: `${event.systemPrompt}\nRULE-42: answer in French.` };
	});
	pi.on("tool_call", async (event: any) => {
		if (CASE !== "tool_call") return;
		record({ event: "tool_call", toolName: event.toolName, input: event.input });
		if (event.toolName === "bash" && event.input.command.includes("rm ")) {
			return { block: true, reason: "no rm here" };
		}
	});
	pi.on("tool_result", async (event: any) => {
		if (CASE !== "tool_result") return;
		const text = event.content.map((c: any) => c.text ?? "").join("");
		record({ event: "tool_result", toolName: event.toolName, text });
		return { content: [{ type: "text", text: "REDACTED" }] };
	});
	pi.on("tool_call", async (event: any, ctx: any) => {
		if (CASE !== "dialog") return;
		ctx.ui.setStatus("guard", "checking");
		const ok = await ctx.ui.confirm("Run bash?", event.input.command, { timeout: 20000 });
		record({ event: "dialog", ok });
		if (!ok) return { block: true, reason: "not confirmed" };
	});
	pi.on("turn_end", async () => {
		if (CASE === "error") throw new Error("rule is broken");
	});
}
