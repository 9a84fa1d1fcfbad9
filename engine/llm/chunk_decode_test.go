package llm

import (
	"encoding/json"
	"reflect"
	"testing"
)

// The fast decoder reads every chunk as encoding/json does: the usual
// shapes, escapes, invalid UTF-8, keys in another case, duplicate keys,
// nulls, numbers that do not fit, and lines that are not JSON at all.
func TestDecodeChunkAgreesWithEncodingJSON(t *testing.T) {
	for _, line := range chunkLines {
		var want chunk
		wantErr := json.Unmarshal([]byte(line), &want)
		var got chunk
		gotErr := decodeChunk([]byte(line), &got)
		if (wantErr == nil) != (gotErr == nil) || (wantErr != nil && wantErr.Error() != gotErr.Error()) {
			t.Errorf("%q: error %v, encoding/json says %v", line, gotErr, wantErr)
			continue
		}
		if wantErr == nil && !reflect.DeepEqual(got, want) {
			t.Errorf("%q:\n got %+v\nwant %+v", line, got, want)
		}
	}
}

// A stream decodes every line into one chunk, reset in between: what a
// line decodes to there is what it decodes to alone, whatever line came
// before it (a finish, a tool call, usage, more choices, an error).
func TestResetChunkForgetsTheLineBefore(t *testing.T) {
	for _, before := range chunkLines {
		for _, line := range chunkLines {
			var want chunk
			if json.Unmarshal([]byte(line), &want) != nil {
				continue
			}
			var got chunk
			got.reset()
			_ = decodeChunk([]byte(before), &got)
			got.reset()
			if err := decodeChunk([]byte(line), &got); err != nil {
				t.Fatalf("%q after %q: %v", line, before, err)
			}
			// The kept room is an empty list where a line alone has
			// none: the same to every reader of a chunk.
			if len(got.Choices) == 0 && len(want.Choices) == 0 {
				got.Choices, want.Choices = nil, nil
			}
			if !reflect.DeepEqual(got, want) {
				t.Errorf("%q after %q:\n got %+v\nwant %+v", line, before, got, want)
			}
		}
	}
}

// chunkLines are the usual shapes of a streamed line, escapes, invalid
// UTF-8, keys in another case, duplicate keys, nulls, numbers that do not
// fit, and lines that are not JSON at all.
var chunkLines = []string{
	`{"id":"c","object":"chat.completion.chunk","created":1,"model":"m","system_fingerprint":null,"choices":[{"index":0,"delta":{"content":"word "},"logprobs":null,"finish_reason":null}],"usage":null}`,
	`{"choices":[{"index":0,"delta":{"role":"assistant","content":"","refusal":null},"finish_reason":null}]}`,
	`{"choices":[{"delta":{"tool_calls":[{"index":0,"id":"call_1","type":"function","function":{"name":"read_file","arguments":"{\"pa"}}]}}]}`,
	`{"choices":[{"delta":{"content":[{"type":"text","text":"a"},{"type":"thinking","thinking":"b"}]}}]}`,
	`{"choices":[{"delta":{"content":"\u00e9\ud83d\ude00 \u0000 \"q\" \\ \/"}}]}`,
	"{\"choices\":[{\"delta\":{\"content\":\"bad \xff\xfe utf8\"}}]}",
	`{"Choices":[{"Delta":{"CONTENT":"case"}}],"USAGE":{"prompt_tokens":1}}`,
	`{"choices":[{"delta":{"content":"one"}}],"choices":[{"delta":{"content":"two"}}]}`,
	`{"choices":[{"delta":{"tool_calls":[{"index":1e3}]}}]}`,
	`{"choices":[{"delta":{"tool_calls":[{"index":99999999999999999999}]}}]}`,
	`{"choices":[{"delta":{"tool_calls":[{"index":-1.5}]}}]}`,
	`{"choices":[],"usage":{"prompt_tokens":1200,"completion_tokens":320,"total_tokens":1520}}`,
	`{"error":{"message":"over quota","code":429}}`,
	`{"object":"error","message":"bad","code":"500"}`,
	`{"choices":null}`, `null`, `[]`, `"text"`, `{`, `{"choices":[{]}`, ``, `{"choices":[{"delta":{"content":5}}]}`,
	`{"choices":[{"delta":{"content":"x"},"finish_reason":"stop","usage":{"prompt_tokens":3}},{"delta":{"reasoning":"r"}}]}`,
}

// A delta's text taken as it stands is what encoding/json makes of it,
// and anything that needs decoding is left to encoding/json.
func TestPlainStringAgreesWithEncodingJSON(t *testing.T) {
	for _, lit := range []string{
		`"word "`, `""`, `"é😀 ü"`, `"tab\there"`, `"quote \" inside"`, `"\u0041"`, "\"raw \x01 control\"",
		"\"bad \xff utf8\"", `"unterminated`, `"a"b"`, `"back\\slash"`, `"/"`,
	} {
		got, ok := plainString([]byte(lit))
		if !ok {
			continue
		}
		var want string
		if err := json.Unmarshal([]byte(lit), &want); err != nil {
			t.Errorf("%q taken as %q, but encoding/json refuses it: %v", lit, got, err)
		} else if got != want {
			t.Errorf("%q taken as %q, encoding/json reads %q", lit, got, want)
		}
	}
	if _, ok := plainString([]byte(`"tab\there"`)); ok {
		t.Error("an escape was taken as it stands")
	}
	if got, ok := plainString([]byte(`"word "`)); !ok || got != "word " {
		t.Errorf(`"word " read as %q, %v`, got, ok)
	}
}

// Warm's chunk holds every part a stream's decoder meets, and decodes.
func TestWarmChunkHoldsEveryPart(t *testing.T) {
	var ch chunk
	if err := decodeChunk([]byte(warmChunk), &ch); err != nil {
		t.Fatal(err)
	}
	if len(ch.Choices) != 1 || ch.Usage == nil || ch.Usage.TotalTokens != 2 {
		t.Fatalf("warm chunk decoded to %+v", ch)
	}
	d := ch.Choices[0]
	if d.Delta.Content.text != "a" || d.Delta.ReasoningContent != "b" || len(d.Delta.ToolCalls) != 1 || d.FinishReason != "stop" {
		t.Fatalf("warm chunk's choice decoded to %+v", d)
	}
}
