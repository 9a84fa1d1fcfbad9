package main

import (
	"slices"
	"strings"
	"testing"
)

func TestParseFlags(t *testing.T) {
	v, err := parseFlags([]string{"-p", "hi", "--output-format", "json", "--allow", "write_file,edit_file",
		"--allow", "task", "--yolo", "--max-steps", "12", "--model", "m", "--base-url", "http://h:1/v1", "--theme", "light"})
	if err != nil {
		t.Fatal(err)
	}
	if *v.prompt != "hi" || v.format != formatJSON || !*v.yolo || *v.maxSteps != 12 || *v.model != "m" ||
		*v.baseURL != "http://h:1/v1" || *v.theme != "light" {
		t.Errorf("parsed %+v", v)
	}
	if want := []string{"write_file", "edit_file", "task"}; !slices.Equal(v.allow, want) {
		t.Errorf("allow = %q, want %q", v.allow, want)
	}
	v, err = parseFlags([]string{"untrust", "../x"})
	if err != nil || v.trustCmd != "untrust" || v.trustDir != "../x" {
		t.Errorf("untrust: %+v, %v", v, err)
	}
	v, err = parseFlags(nil)
	if err != nil {
		t.Fatal(err)
	}
	if v.prompt != nil || v.model != nil || v.maxSteps != nil || v.allow != nil || v.yolo != nil || v.format != formatText {
		t.Errorf("no flags parsed as %+v", v)
	}
}

func TestParseFlagsUsageErrors(t *testing.T) {
	tests := []struct {
		args []string
		want string
	}{
		{[]string{"--allow", "read_file,rm"}, `--allow: unknown tool "rm" (valid: read_file, list_files, find_files, grep, write_file, edit_file, run_command, todo_write, web_fetch, list_mcp_resources, read_mcp_resource, task, mcp__SERVER__TOOL, mcp__SERVER__*)`},
		{[]string{"-p", "x", "--output-format", "yaml"}, `--output-format: expected text, json, stream-json or baton-stream-json, got "yaml"`},
		{[]string{"--output-format", "json"}, "--output-format only applies to headless runs"},
		{[]string{"--max-steps", "0"}, "--max-steps: expected a positive integer, got 0"},
		{[]string{"--max-steps", "many"}, `invalid argument "many"`},
		{[]string{"-p", "  "}, "-p: the prompt is empty"},
		{[]string{"-p"}, "flag needs an argument"},
		{[]string{"--base-url", "localhost:8080"}, `--base-url: expected an http(s) URL`},
		{[]string{"--theme", "neon"}, `--theme: unknown theme "neon" (known: dark,`},
		{[]string{"--model", ""}, "--model: the model name is empty"},
		{[]string{"--frobnicate"}, "unknown flag: --frobnicate"},
		{[]string{"list", "files"}, `unexpected argument "list"`},
		{[]string{"trust", "a", "b"}, `trust takes at most one folder, got ["a" "b"]`},
		{[]string{"--list"}, "--list only applies to baton trust, without a folder"},
		{[]string{"untrust", "--list"}, "--list only applies to baton trust"},
		{[]string{"trust", "-p", "hi"}, "baton trust takes no run flags"},
	}
	for _, tt := range tests {
		t.Run(strings.Join(tt.args, " "), func(t *testing.T) {
			_, err := parseFlags(tt.args)
			if err == nil || !strings.Contains(err.Error(), tt.want) {
				t.Errorf("error %v, want it to contain %q", err, tt.want)
			}
		})
	}
}

func TestUsageMentionsEveryFlagAndVariable(t *testing.T) {
	text := usage()
	for _, want := range []string{"--model", "--base-url", "-p, --print", "--output-format", "--allow", "--yolo",
		"--max-steps", "--theme", "--demo", "--trust", "baton trust [DIR]", "baton untrust [DIR]", "--version", "--help", "OPENAI_API_KEY", "OPENAI_BASE_URL",
		"BATON_MODEL", "BATON_SUBAGENT_MODEL", "BATON_DEBUG", ".baton/config.toml", "130 interrupted"} {
		if !strings.Contains(text, want) {
			t.Errorf("usage lacks %q", want)
		}
	}
}
