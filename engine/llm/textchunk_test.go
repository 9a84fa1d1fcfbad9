package llm

import (
	"bufio"
	"bytes"
	"encoding/json"
	"os"
	"path/filepath"
	"reflect"
	"strings"
	"testing"
)

// corpusLines are the data lines of every recorded stream in testdata.
func corpusLines(t testing.TB) []string {
	t.Helper()
	paths, err := filepath.Glob(filepath.Join("testdata", "streams", "*", "*"))
	if err != nil || len(paths) == 0 {
		t.Fatalf("no recorded streams: %v", err)
	}
	var lines []string
	for _, path := range paths {
		data, err := os.ReadFile(path)
		if err != nil {
			t.Fatal(err)
		}
		sc := bufio.NewScanner(bytes.NewReader(data))
		sc.Buffer(nil, 1<<20)
		for sc.Scan() {
			if payload, ok := bytes.CutPrefix(sc.Bytes(), []byte("data:")); ok {
				if payload = bytes.TrimSpace(payload); !bytes.Equal(payload, doneMessage) {
					lines = append(lines, string(payload))
				}
			}
		}
	}
	return lines
}

// agreesWithEncodingJSON checks that decodeChunk reads line as
// encoding/json does.
func agreesWithEncodingJSON(t *testing.T, line string) {
	t.Helper()
	var want chunk
	wantErr := json.Unmarshal([]byte(line), &want)
	var got chunk
	gotErr := decodeChunk([]byte(line), &got)
	if (wantErr == nil) != (gotErr == nil) {
		t.Fatalf("%q: error %v, encoding/json says %v", line, gotErr, wantErr)
	}
	if wantErr == nil && !reflect.DeepEqual(got, want) {
		t.Fatalf("%q:\n got %+v\nwant %+v", line, got, want)
	}
}

// Every data line of the recorded providers' streams is read as
// encoding/json reads it, and the hand-read shape is most of them: the
// text chunks of every provider, not a shape no one sends.
func TestTextChunksOfRecordedStreamsAreScanned(t *testing.T) {
	lines := corpusLines(t)
	scanned := 0
	for _, line := range lines {
		agreesWithEncodingJSON(t, line)
		var ch chunk
		if scanTextChunk([]byte(line), &ch) {
			scanned++
		}
	}
	t.Logf("%d of %d recorded lines read by hand", scanned, len(lines))
	if scanned < len(lines)/2 {
		t.Fatalf("only %d of %d recorded lines were read by hand", scanned, len(lines))
	}
}

// Lines the scan must refuse, or read exactly: escapes of every kind,
// surrogates, invalid escapes in a value it skips, invalid UTF-8, a
// control character, keys in another case, trailing bytes, numbers that
// are not JSON.
var scanEdgeLines = []string{
	`{"choices":[{"delta":{"content":"a\nb\t\"c\" \\ \/ \u00e9 \u0041"}}]}`,
	`{"choices":[{"delta":{"content":"\ud83d\ude00"}}]}`,
	`{"id":"\q","choices":[{"delta":{"content":"x"}}]}`,
	`{"id":"\u12G4","choices":[{"delta":{"content":"x"}}]}`,
	"{\"id\":\"\xff\",\"choices\":[{\"delta\":{\"content\":\"x\"}}]}",
	"{\"choices\":[{\"delta\":{\"content\":\"a\x01b\"}}]}",
	`{"choices":[{"Delta":{"content":"x"}}]}`,
	`{"choices":[{"delta":{"Content":"x"}}]}`,
	`{"choices":[{"delta":{"content":"x"}}]} x`,
	`{"created":01,"choices":[]}`, `{"created":-,"choices":[]}`, `{"created":1.,"choices":[]}`, `{"created":1e,"choices":[]}`,
	`{"created":-0.5e+3,"choices":[{"delta":{"content":"x"},"finish_reason":null,"logprobs":null}]}`,
	`{"choices":[{"delta":{"content":null,"reasoning_content":"think","reasoning":"r","tool_calls":null,"role":"assistant"}}]}`,
	`{"object":null,"choices":null,"usage":null}`,
	`{"choices":[{"delta":{"content":"x"}},{"delta":{"content":"y"},"finish_reason":"stop"}]}`,
	` { "choices" : [ { "delta" : { "content" : "spaced" } } ] } `,
	`{"choices":[{"delta":{"content":"x"}}],"x_groq":{"id":"q"}}`,
	`{"choices":[{"delta":{"content":"x"}}],`, `{"choices":[{"delta":{"content":"x"}}]`, `{"choices":[{"delta":{"content":"x}}]}`,
	`{"\u0063hoices":[{"delta":{"content":"x"}}]}`,
	`{"choices":[{"delta":{"content":"x"},"usage":{"prompt_tokens":1}}]}`,
	`{}`, `{"a":true,"b":false,"c":null,"d":"s","e":-12.5E-2}`,
	`{"choices":[{"delta":{"content":"x","reasoning_details":[{"type":"t","n":[1,[2,{"a":[]}]]}]}}],"x":{"y":{}}}`,
	`{"choices":[{"delta":{"content":"x","extra":[1,}]}}]}`, `{"choices":[{"delta":{"content":"x","extra":{"a"}}}]}`,
	`{"x":` + strings.Repeat("[", 40) + strings.Repeat("]", 40) + `,"choices":[{"delta":{"content":"deep"}}]}`,
	// Keys that fold to a field's name only past ASCII: encoding/json
	// matches them, and segmentio's decoder, which folds them otherwise,
	// must leave them to it.
	`{"choices":[{"delta":{"content":"hi"},"finiſh_reason":"stop"}]}`,
	`{"choices":[{"delta":{"content":"hi"},"finish_rea\u017fon":"stop"}]}`,
	`{"choices":[{"delta":{"tool_calls":[{"index":0,"function":{"argumentſ":"{}"}}]}}]}`,
	`{"choices":[{"delta":{"content":"x"}}],"uſage":{"prompt_tokens":1}}`,
	`{"choices":[{"delta":{"content":"x"}}],"usage":{"prompt_tokenſ":1}}`,
	`{"object":"error","meſſage":"quota"}`,
	`{"choices":[{"delta":{"content":"x"}}],"K":1}`,
}

// The scan reads each edge case as encoding/json does, or leaves it to
// the full decoder.
func TestTextChunkScanEdges(t *testing.T) {
	for _, line := range append(scanEdgeLines, chunkLines...) {
		agreesWithEncodingJSON(t, line)
	}
	var ch chunk
	if !scanTextChunk([]byte(scanEdgeLines[0]), &ch) || ch.Choices[0].Delta.Content.text != "a\nb\t\"c\" \\ / é A" {
		t.Fatalf("escapes were not read by hand: %+v", ch)
	}
}

// FuzzTextChunkAgreesWithEncodingJSON: whatever the line, decodeChunk
// (the hand scan first) reads it as encoding/json does.
func FuzzTextChunkAgreesWithEncodingJSON(f *testing.F) {
	for _, line := range append(scanEdgeLines, chunkLines...) {
		f.Add(line)
	}
	for _, line := range corpusLines(f)[:40] {
		f.Add(line)
	}
	f.Fuzz(func(t *testing.T, line string) {
		agreesWithEncodingJSON(t, line)
	})
}
