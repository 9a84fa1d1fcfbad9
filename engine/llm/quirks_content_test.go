package llm_test

// contentQuirks are delta.content shapes other than a string. The Mistral
// chunks follow the stream recorded from magistral-medium-2509 in
// BerriAI/litellm#16272 (https://github.com/BerriAI/litellm/issues/16272)
// and the block shape documented in langchain4j/langchain4j#4474.
func contentQuirks() []quirk {
	return []quirk{
		{
			name: "content as typed parts: Mistral thinking then text",
			script: lines(
				`{"id":"c3c7","object":"chat.completion.chunk","created":1762355135,"model":"magistral-medium-2509","choices":[{"index":0,"delta":{"role":"assistant","content":""},"finish_reason":null}]}`,
				`{"id":"c3c7","object":"chat.completion.chunk","created":1762355135,"model":"magistral-medium-2509","choices":[{"index":0,"delta":{"content":[{"type":"thinking","thinking":[{"type":"text","text":"Okay, the user "}]}]},"finish_reason":null}]}`,
				`{"id":"c3c7","object":"chat.completion.chunk","created":1762355135,"model":"magistral-medium-2509","choices":[{"index":0,"delta":{"content":[{"type":"thinking","thinking":[{"type":"text","text":"said hello."}]}]},"finish_reason":null}]}`,
				`{"id":"c3c7","object":"chat.completion.chunk","created":1762355135,"model":"magistral-medium-2509","choices":[{"index":0,"delta":{"content":"Hello"},"finish_reason":null}]}`,
				`{"id":"c3c7","object":"chat.completion.chunk","created":1762355135,"model":"magistral-medium-2509","choices":[{"index":0,"delta":{"content":[{"type":"text","text":"! How can I help?"}]},"finish_reason":null}]}`,
				stopChunk),
			text: "Hello! How can I help?", reasoning: "Okay, the user said hello.", finish: "stop",
		},
		{
			name: "content parts: thinking and text in one chunk, thinking as a plain string",
			script: lines(
				`{"choices":[{"index":0,"delta":{"content":[{"type":"thinking","thinking":"plan. "},{"type":"text","text":"done"}]}}]}`,
				stopChunk),
			text: "done", reasoning: "plan. ", finish: "stop",
		},
		{
			name: "content parts of unknown types are skipped, never a failed turn",
			script: lines(
				`{"choices":[{"index":0,"delta":{"content":[{"type":"image_url","image_url":{"url":"x"}},{"type":"text","text":"a"},7,{"type":"thinking","thinking":{"odd":true}}]}}]}`,
				`{"choices":[{"index":0,"delta":{"content":{"unexpected":"object"}}}]}`,
				`{"choices":[{"index":0,"delta":{"content":42}}]}`,
				`{"choices":[{"index":0,"delta":{"content":null}}]}`,
				text("b"), stopChunk),
			text: "ab", finish: "stop",
		},
	}
}

// recordedQuirks are what the recorded-streams corpus (testdata/streams)
// found baton reading wrong, each cut down to the chunks that show it.
func recordedQuirks() []quirk {
	return []quirk{
		{
			// testdata/streams/moonshot/choice-usage.jsonl
			name: "usage inside the finishing choice (Moonshot Kimi)",
			script: lines(
				`{"id":"chatcmpl-6a8d","object":"chat.completion.chunk","model":"kimi-k2.5","choices":[{"index":0,"delta":{"content":"OK"},"finish_reason":null}]}`,
				`{"id":"chatcmpl-6a8d","object":"chat.completion.chunk","model":"kimi-k2.5","choices":[{"index":0,"delta":{},"finish_reason":"stop","usage":{"prompt_tokens":12,"completion_tokens":5,"total_tokens":17}}]}`),
			text: "OK", finish: "stop", prompt: 12,
		},
		{
			name: "top-level usage wins over usage inside the choice",
			script: lines(
				`{"choices":[{"index":0,"delta":{"content":"a"},"finish_reason":"stop","usage":{"prompt_tokens":3,"completion_tokens":1,"total_tokens":4}}],"usage":{"prompt_tokens":9,"completion_tokens":1,"total_tokens":10}}`),
			text: "a", finish: "stop", prompt: 9,
		},
		{
			// testdata/streams/moonshot/indexless-tool-calls.jsonl
			name: "parallel calls without index keep their place in the list (Moonshot Kimi)",
			script: lines(
				tools(`[{"id":"weather_0","type":"function","function":{"name":"weather","arguments":""}},{"id":"time_1","type":"function","function":{"name":"time","arguments":""}}]`),
				tools(`[{"function":{"arguments":"{\"location\":\"Paris\"}"}},{"function":{"arguments":"{\"zone\":\"UTC\"}"}}]`),
				toolsDone),
			calls:  []wantCall{{"weather_0", "weather", `{"location":"Paris"}`}, {"time_1", "time", `{"zone":"UTC"}`}},
			finish: "tool_calls",
		},
	}
}
