// pi's run semantics as a pi extension: CASE picks the case, RECORD gets what the handlers saw.
import { appendFileSync } from "node:fs";

export default function (pi: any) {
	const CASE = process.env.CASE;
	const record = (x: unknown) => appendFileSync(process.env.RECORD as string, `${JSON.stringify(x)}\n`);
	let ends = 0;

	pi.on("agent_end", async (_event: any, ctx: any) => {
		if (CASE === "slow_turn_end") record({ event: "agent_end" });
		if (CASE !== "send_at_agent_end") return;
		ends += 1;
		record({ event: "agent_end", idle: ctx.isIdle() });
		if (ends === 1) pi.sendUserMessage("once more");
	});
	pi.on("tool_result", async () => {
		if (CASE === "follow_up") pi.sendUserMessage("after the answer", { deliverAs: "followUp" });
	});
	pi.on("turn_start", async (event: any) => {
		if (CASE === "turn_index") record({ event: "turn_start", turnIndex: event.turnIndex });
	});
	pi.on("turn_end", async (event: any) => {
		if (CASE !== "slow_turn_end") return;
		record({ event: "turn_end", turnIndex: event.turnIndex, phase: "start" });
		await new Promise((resolve) => setTimeout(resolve, 1500));
		record({ event: "turn_end", turnIndex: event.turnIndex, phase: "done" });
		if (event.turnIndex === 0) throw new Error("slow rule is broken");
	});
	pi.on("context", async (event: any) => {
		if (CASE === "slow_turn_end") record({ event: "context" });
		if (CASE !== "drop_result") return;
		return { messages: event.messages.filter((m: any) => m.role !== "toolResult") };
	});
}
