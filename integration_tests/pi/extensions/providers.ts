// A provider registered by an extension, on a loopback OpenAI-compatible server
// (its URL in EXT_BASE_URL, its key in the variable EXT_KEY names).
export default function (pi: any) {
	pi.registerProvider("ext-loop", {
		baseUrl: process.env.EXT_BASE_URL,
		apiKey: "EXT_KEY",
		api: "openai-completions",
		models: [
			{
				id: "ext-model",
				name: "Ext Model",
				reasoning: false,
				input: ["text"],
				cost: { input: 1, output: 2, cacheRead: 0, cacheWrite: 0 },
				contextWindow: 4096,
				maxTokens: 1024,
				compat: { supportsDeveloperRole: false, supportsReasoningEffort: false },
			},
		],
	});
}
